/**
 * Layout of a window payload: what the host sends for one (time span, rows, resolution) request.
 *
 * Every table is columnar: one typed array per field, each in its OWN exact-size ArrayBuffer
 * (never a view on a larger or pooled buffer, so it can be posted/transferred as is and the
 * receiver can wrap it without copying). The wire format is also the render format: the webview
 * draws straight from these arrays, with no per-drawable objects.
 *
 * Times: `start`/`end`/`time` are float32 SECONDS RELATIVE TO `header.baseTime` (a float64), so
 * precision does not degrade at deep zoom far from t = 0. Values far outside the window are
 * clamped (see `clampOffset`) because they are off-screen anyway and would only lose precision.
 *
 * Tables:
 *   states        real states:   start end row category depth flags
 *   shadows       state shadows: start end row depth count weightStart weightCount
 *   shadowWeights per shadow weights (CSR, rows [weightStart, weightStart+weightCount) of this table):
 *                 category excl incl count — sorted by excl descending (largest drawn at the bottom)
 *   arrows        real arrows and arrow shadows: start end fromRow toRow category count flags
 *   events        real events and event shadows: time start end row category count flags
 *                 (for a real event start = end = time; for a shadow time = mean member time)
 * `row` is the row index in the requested Y map; `category` the SLOG-2 category index (shadows of
 * arrows/events carry the preview category −2/−1); `count` = number of real drawables represented
 * (1 for real ones); `depth` = nesting level of a state on its row (0 = outermost).
 */

/** Preview categories of arrow/event/state shadows (the `category` column of shadows). */
export { PREVIEW_ARROW, PREVIEW_EVENT, PREVIEW_STATE } from '../model/types';

export type ColumnType = 'f32' | 'f64' | 'u32' | 'i32' | 'u8';

type ArrayFor<T extends ColumnType> = T extends 'f32'
  ? Float32Array
  : T extends 'f64'
    ? Float64Array
    : T extends 'u32'
      ? Uint32Array
      : T extends 'i32'
        ? Int32Array
        : Uint8Array;

export type TableSpec = { readonly [field: string]: ColumnType };

/** In-memory form: one typed array per field, all of length `count`. */
export type Columns<S extends TableSpec> = { readonly [K in keyof S]: ArrayFor<S[K]> };

/** Wire form: one exact-size ArrayBuffer per field. */
export interface WireTable<S extends TableSpec> {
  readonly count: number;
  readonly buffers: { readonly [K in keyof S]: ArrayBuffer };
}

import { chunkBounds, chunkCount, type ChunkBounds } from './chunkBounds';
import { packStateRuns, stateRunsOf, unpackStateRuns, type StateRuns } from './stateRuns';
export { TIME_CHUNK, chunkBounds, chunkCount, type ChunkBounds } from './chunkBounds';
export { stateRunsOf, type StateRuns } from './stateRuns';

export const FLAG_SHADOW = 1;
/** The drawable records a source location (click-through, issue 6). */
export const FLAG_HAS_SOURCE = 2;
/** Site marks (shown sites, code colourings): see core/model/siteFlags. */
export { FLAG_SITE_MATCH, MAX_SITE_COLOURINGS, SITE_COLOUR_SHIFT } from '../model/siteFlags';

export const STATE_SPEC = { start: 'f32', end: 'f32', row: 'u32', category: 'i32', depth: 'u8', flags: 'u8' } as const;
export const SHADOW_SPEC = { start: 'f32', end: 'f32', row: 'u32', depth: 'u8', count: 'f64', weightStart: 'u32', weightCount: 'u32' } as const;
export const SHADOW_WEIGHT_SPEC = { category: 'i32', excl: 'f32', incl: 'f32', count: 'f64' } as const;
export const ARROW_SPEC = { start: 'f32', end: 'f32', fromRow: 'u32', toRow: 'u32', category: 'i32', count: 'f64', flags: 'u8' } as const;
export const EVENT_SPEC = { time: 'f32', start: 'f32', end: 'f32', row: 'u32', category: 'i32', count: 'f64', flags: 'u8' } as const;

export type StateSpec = typeof STATE_SPEC;
export type ShadowSpec = typeof SHADOW_SPEC;
export type ShadowWeightSpec = typeof SHADOW_WEIGHT_SPEC;
export type ArrowSpec = typeof ARROW_SPEC;
export type EventSpec = typeof EVENT_SPEC;

/** Describes what a payload covers; everything a receiver needs to place and trust the columns. */
export interface WindowHeader {
  /** Absolute time (s, float64) that all f32 offsets are relative to (= t0). */
  readonly baseTime: number;
  /** Time span covered (absolute seconds, closed): everything overlapping it is included. */
  readonly t0: number;
  readonly t1: number;
  /** Row range covered, [rowStart, rowEnd). Arrows touching or crossing it are included. */
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly mapIndex: number;
  /** Lowest tree depth read: 0 = exact (real drawables only), > 0 = shadows summarise depth − 1. */
  readonly lowestDepth: number;
  /** Greatest nesting depth among states and shadows (for the nesting step in the row). */
  readonly maxNesting: number;
  /** True when a cap cut the payload short (drawn, but marked as incomplete). */
  readonly truncated: boolean;
  /** Host-side figures for diagnostics and the bench. */
  readonly nodesRead: number;
  readonly buildMs: number;
  /** Served through the rows × time index (only the rows asked were read). */
  readonly viaRowIndex?: boolean;
}

export interface WindowColumns {
  readonly header: WindowHeader;
  readonly states: Columns<StateSpec>;
  readonly shadows: Columns<ShadowSpec>;
  readonly shadowWeights: Columns<ShadowWeightSpec>;
  readonly arrows: Columns<ArrowSpec>;
  readonly events: Columns<EventSpec>;
  /** The time bounds of the tables' runs (chunkBounds.ts), as received; absent in an embedded window. */
  readonly chunks?: TableChunks;
}

/** Chunk bounds of the tables a frame culls by time (events: their span and their own time). */
export interface TableChunks {
  readonly states: ChunkBounds;
  readonly arrows: ChunkBounds;
  readonly events: ChunkBounds;
  /** The state table's runs by depth and row (stateRuns.ts); absent when it is not in that order. */
  readonly stateRuns?: StateRuns;
}

/** Wire form of ChunkBounds: two float32 buffers of chunkCount(table count) values. */
export interface WireChunkBounds {
  readonly lo: ArrayBuffer;
  readonly hi: ArrayBuffer;
}

export interface WireWindow {
  readonly header: WindowHeader;
  readonly states: WireTable<StateSpec>;
  readonly shadows: WireTable<ShadowSpec>;
  readonly shadowWeights: WireTable<ShadowWeightSpec>;
  readonly arrows: WireTable<ArrowSpec>;
  readonly events: WireTable<EventSpec>;
  /** Computed by encodeWindow, so the webview does not pass over every drawable on arrival. */
  readonly chunks?: { readonly states: WireChunkBounds; readonly arrows: WireChunkBounds; readonly events: WireChunkBounds; readonly stateRuns?: ArrayBuffer };
}

const BYTES: Record<ColumnType, number> = { f32: 4, f64: 8, u32: 4, i32: 4, u8: 1 };

function allocate<T extends ColumnType>(type: T, buffer: ArrayBuffer): ArrayFor<T> {
  switch (type) {
    case 'f32':
      return new Float32Array(buffer) as ArrayFor<T>;
    case 'f64':
      return new Float64Array(buffer) as ArrayFor<T>;
    case 'u32':
      return new Uint32Array(buffer) as ArrayFor<T>;
    case 'i32':
      return new Int32Array(buffer) as ArrayFor<T>;
    default:
      return new Uint8Array(buffer) as ArrayFor<T>;
  }
}

/** A table with `count` zeroed rows, each column in its own exact-size buffer. */
export function allocateTable<S extends TableSpec>(spec: S, count: number): Columns<S> {
  const out: Record<string, ArrayFor<ColumnType>> = {};
  for (const [name, type] of Object.entries(spec)) out[name] = allocate(type, new ArrayBuffer(count * BYTES[type]));
  return out as Columns<S>;
}

export function tableCount<S extends TableSpec>(spec: S, columns: Columns<S>): number {
  const first = Object.keys(spec)[0];
  return first === undefined ? 0 : (columns[first] as ArrayFor<ColumnType>).length;
}

/**
 * The wire form of a table. A column that is a view on part of a bigger buffer is copied into an
 * exact-size one (VS Code would otherwise ship — or a transfer would detach — the whole buffer).
 */
export function encodeTable<S extends TableSpec>(spec: S, columns: Columns<S>): WireTable<S> {
  const count = tableCount(spec, columns);
  const buffers: Record<string, ArrayBuffer> = {};
  for (const [name, type] of Object.entries(spec)) {
    const col = columns[name] as ArrayFor<ColumnType>;
    if (col.length !== count) throw new Error(`column ${name}: ${col.length} values, expected ${count}`);
    const exact = col.byteOffset === 0 && col.buffer instanceof ArrayBuffer && col.buffer.byteLength === count * BYTES[type];
    buffers[name] = exact ? (col.buffer as ArrayBuffer) : (col.slice().buffer as ArrayBuffer);
  }
  return { count, buffers: buffers as WireTable<S>['buffers'] };
}

/** Wraps received buffers without copying; throws if a buffer's size does not match the count. */
export function decodeTable<S extends TableSpec>(spec: S, wire: WireTable<S>, what: string): Columns<S> {
  if (!Number.isInteger(wire.count) || wire.count < 0) throw new Error(`${what}: bad count ${String(wire.count)}`);
  const out: Record<string, ArrayFor<ColumnType>> = {};
  for (const [name, type] of Object.entries(spec)) {
    const buf: unknown = (wire.buffers as Record<string, unknown>)[name];
    if (!(buf instanceof ArrayBuffer)) throw new Error(`${what}.${name}: missing buffer`);
    if (buf.byteLength !== wire.count * BYTES[type]) {
      throw new Error(`${what}.${name}: ${buf.byteLength} bytes, expected ${wire.count} × ${BYTES[type]}`);
    }
    out[name] = allocate(type, buf);
  }
  return out as Columns<S>;
}

export function encodeWindow(w: WindowColumns): WireWindow {
  const wire = (b: ChunkBounds): WireChunkBounds => ({ lo: b.lo.buffer as ArrayBuffer, hi: b.hi.buffer as ArrayBuffer });
  const runs = stateRunsOf(w.states.depth, w.states.row, w.states.start, w.states.end);
  return {
    header: w.header,
    states: encodeTable(STATE_SPEC, w.states),
    shadows: encodeTable(SHADOW_SPEC, w.shadows),
    shadowWeights: encodeTable(SHADOW_WEIGHT_SPEC, w.shadowWeights),
    arrows: encodeTable(ARROW_SPEC, w.arrows),
    events: encodeTable(EVENT_SPEC, w.events),
    chunks: {
      states: wire(chunkBounds(w.states.start, w.states.end)),
      arrows: wire(chunkBounds(w.arrows.start, w.arrows.end)),
      events: wire(chunkBounds(w.events.start, w.events.end, w.events.time)),
      ...(runs === undefined ? {} : { stateRuns: packStateRuns(runs, w.states.start.length) }),
    },
  };
}

/** Wraps received chunk bounds of a table of `count` drawables; throws if a size does not match. */
function decodeChunks(b: WireChunkBounds, count: number, what: string): ChunkBounds {
  const bytes = chunkCount(count) * 4;
  const side = (buf: unknown, name: string): Float32Array => {
    if (!(buf instanceof ArrayBuffer)) throw new Error(`chunks.${what}.${name}: missing buffer`);
    if (buf.byteLength !== bytes) throw new Error(`chunks.${what}.${name}: ${buf.byteLength} bytes, expected ${bytes}`);
    return new Float32Array(buf);
  };
  return { lo: side(b.lo, 'lo'), hi: side(b.hi, 'hi') };
}

export function decodeWindow(w: WireWindow): WindowColumns {
  const shadows = decodeTable(SHADOW_SPEC, w.shadows, 'shadows');
  const shadowWeights = decodeTable(SHADOW_WEIGHT_SPEC, w.shadowWeights, 'shadowWeights');
  for (let i = 0; i < w.shadows.count; i++) {
    if (shadows.weightStart[i]! + shadows.weightCount[i]! > w.shadowWeights.count) throw new Error(`shadows[${i}]: weights out of range`);
  }
  return {
    header: w.header,
    states: decodeTable(STATE_SPEC, w.states, 'states'),
    shadows,
    shadowWeights,
    arrows: decodeTable(ARROW_SPEC, w.arrows, 'arrows'),
    events: decodeTable(EVENT_SPEC, w.events, 'events'),
    ...(w.chunks === undefined
      ? {}
      : {
          chunks: {
            states: decodeChunks(w.chunks.states, w.states.count, 'states'),
            arrows: decodeChunks(w.chunks.arrows, w.arrows.count, 'arrows'),
            events: decodeChunks(w.chunks.events, w.events.count, 'events'),
            ...(w.chunks.stateRuns === undefined ? {} : { stateRuns: unpackStateRuns(w.chunks.stateRuns, w.states.count) }),
          },
        }),
  };
}

/** All buffers of a wire window (the transfer list). */
export function windowBuffers(w: WireWindow): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const t of [w.states, w.shadows, w.shadowWeights, w.arrows, w.events]) for (const b of Object.values(t.buffers) as ArrayBuffer[]) out.push(b);
  if (w.chunks) for (const b of [w.chunks.states, w.chunks.arrows, w.chunks.events]) out.push(b.lo, b.hi);
  if (w.chunks?.stateRuns) out.push(w.chunks.stateRuns);
  return out;
}

/** Independent copy (the host keeps its cached payload; what it posts may be detached). */
export function copyWire(w: WireWindow): WireWindow {
  const copy = <S extends TableSpec>(t: WireTable<S>): WireTable<S> => {
    const buffers: Record<string, ArrayBuffer> = {};
    for (const [k, b] of Object.entries(t.buffers) as [string, ArrayBuffer][]) buffers[k] = b.slice(0);
    return { count: t.count, buffers: buffers as WireTable<S>['buffers'] };
  };
  return {
    header: w.header,
    states: copy(w.states),
    shadows: copy(w.shadows),
    shadowWeights: copy(w.shadowWeights),
    arrows: copy(w.arrows),
    events: copy(w.events),
    ...(w.chunks === undefined
      ? {}
      : {
          chunks: {
            states: copyChunks(w.chunks.states),
            arrows: copyChunks(w.chunks.arrows),
            events: copyChunks(w.chunks.events),
            ...(w.chunks.stateRuns === undefined ? {} : { stateRuns: w.chunks.stateRuns.slice(0) }),
          },
        }),
  };
}

const copyChunks = (b: WireChunkBounds): WireChunkBounds => ({ lo: b.lo.slice(0), hi: b.hi.slice(0) });

export function wireBytes(w: WireWindow): number {
  return windowBuffers(w).reduce((n, b) => n + b.byteLength, 0);
}

/**
 * Offset of absolute time `t` from `base`, limited to ±`limit` (a few window spans): values beyond
 * are off-screen and clamping keeps the float32 precise where it matters.
 */
export function clampOffset(t: number, base: number, limit: number): number {
  const d = t - base;
  return d < -limit ? -limit : d > limit ? limit : d;
}
