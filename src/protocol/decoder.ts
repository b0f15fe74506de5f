/**
 * The protocol between a whole-file pass (the wait-state analysis) and its decoder thread
 * (src/worker/decoder.ts): the decoder thread reads and decodes a SLOG-2 file's leaves in drawing
 * order (columnStream.ts) and posts each batch's columns (buffers transferred, not copied); the
 * pass sends each batch back once used, which is both buffer reuse and flow control — the
 * decoder keeps at most a few batches in flight, so memory stays bounded however fast it runs.
 */
import type { PathProfile, PathWindow } from '../core/analysis/pathProfile';
import type { PackedRows } from '../core/formats/slog2/columnStream';
import type { LeafPart } from '../core/formats/slog2/slog2File';
import type { CellsPart, HistogramPart, MessagesPart, StatsPart } from '../core/stats/statsPart';
import { isRecord, isSerializedError, type SerializedError } from './threadMessages';

/**
 * A leaf's rows packed for posting (PackedRows: typed columns, sites as indices into the file's
 * site table), `capacity` long; the first `rows` are the batch, `infoUsed` bytes of `info`. The
 * last vertex and the info columns are filled only when the start asked for them (statistics; the
 * analysis does not read them).
 */
export type WireBatch = PackedRows & {
  readonly rows: number;
  readonly infoUsed: number;
};

/** Each column's array type. */
export const WIRE_COLUMN_TYPES = {
  category: Int32Array,
  vertexCount: Int32Array,
  time0: Float64Array,
  line0: Int32Array,
  time1: Float64Array,
  line1: Int32Array,
  earliest: Float64Array,
  latest: Float64Array,
  drawableEarliest: Float64Array,
  site: Int32Array,
  timeLast: Float64Array,
  lineLast: Int32Array,
  infoStart: Int32Array,
  infoLength: Int32Array,
} as const;

export const WIRE_COLUMNS = Object.keys(WIRE_COLUMN_TYPES) as (keyof typeof WIRE_COLUMN_TYPES)[];

/** Empty columns for `capacity` rows and `infoCapacity` info bytes. */
export function wireBatch(capacity: number, infoCapacity: number): WireBatch {
  return {
    rows: 0,
    infoUsed: 0,
    info: new Uint8Array(infoCapacity),
    timeLast: new Float64Array(capacity),
    lineLast: new Int32Array(capacity),
    infoStart: new Int32Array(capacity),
    infoLength: new Int32Array(capacity),
    category: new Int32Array(capacity),
    vertexCount: new Int32Array(capacity),
    time0: new Float64Array(capacity),
    line0: new Int32Array(capacity),
    time1: new Float64Array(capacity),
    line1: new Int32Array(capacity),
    earliest: new Float64Array(capacity),
    latest: new Float64Array(capacity),
    drawableEarliest: new Float64Array(capacity),
    site: new Int32Array(capacity),
  };
}

/** The buffers to transfer with a batch. */
export function wireBuffers(b: WireBatch): ArrayBuffer[] {
  return [...WIRE_COLUMNS.map((k) => b[k].buffer as ArrayBuffer), b.info.buffer as ArrayBuffer];
}

//#region pass → decoder

export interface DecoderStart {
  readonly kind: 'start';
  /** The SLOG-2 file on disk (the thread opens it itself). */
  readonly path: string;
  readonly t0: number;
  readonly t1: number;
  /** Fill the last vertex and info columns (ColumnStreamOptions.withLastAndInfo). */
  readonly withLastAndInfo: boolean;
  /** Fail with DrawableOutsideNode on a node holding drawables beyond its bounds (ColumnStreamOptions.withinNodes). */
  readonly withinNodes: boolean;
  /**
   * Instead of posting batches, profile this window of the critical path over them (the analysis's
   * pass 2: src/core/analysis/pathProfile.ts) and post the profile; [t0, t1] is the window's.
   */
  readonly profile?: PathWindow;
  /**
   * Instead of posting batches, count the statistics of `range` owned from t0 on (the later half
   * of a range split in two: src/core/stats/columnStats.ts statsPartOfFile) and post their sums;
   * [t0, t1] is the half's.
   */
  readonly stats?: { readonly range: readonly [number, number] };
  /**
   * Instead of posting batches, dump these parts of the drawables of [t0, t1] (leaf ranges of
   * Slog2File.timeOrderLeaves: src/core/info/dumpLines.ts) as UTF-8 text, part after part; the pass
   * dumps the parts between them meanwhile.
   */
  readonly dump?: {
    readonly json: boolean;
    readonly parts: readonly LeafPart[];
    /** The file as the pass opened it: its size and the range's leaves (the thread opens it again by path). */
    readonly fileSize: number;
    readonly leafCount: number;
  };
}

/** A batch (or a dump's text) the pass is done with (the decoder reuses it; one more may be sent). */
export interface DecoderRecycle {
  readonly kind: 'recycle';
  readonly batch: WireBatch | Uint8Array;
}

/** Stop decoding and let the thread end by itself (terminate() is only the fallback: see converter.ts). */
export interface DecoderStop {
  readonly kind: 'stop';
}

export type PassToDecoder = DecoderStart | DecoderRecycle | DecoderStop;

//#endregion

//#region decoder → pass

export interface DecoderBatch {
  readonly kind: 'batch';
  readonly batch: WireBatch;
}

/** Every batch of the range has been sent. */
export interface DecoderDone {
  readonly kind: 'done';
}

/** The profile a `profile` start asked for (then `done`). */
export interface DecoderProfiled {
  readonly kind: 'profile';
  readonly profile: PathProfile;
}

/** The sums a `stats` start asked for (then `done`). */
export interface DecoderStatsPart {
  readonly kind: 'statsPart';
  readonly part: StatsPart;
}

/** Text of dump part `part` (an index into the start's parts); `last`: the part is complete. */
export interface DecoderDumpText {
  readonly kind: 'dumpText';
  readonly part: number;
  readonly bytes: Uint8Array;
  readonly last: boolean;
}

/** The warnings of the thread's reading, after the last part of a dump (then `done`). */
export interface DecoderDumpWarnings {
  readonly kind: 'dumpWarnings';
  readonly warnings: readonly string[];
}

export interface DecoderFailed {
  readonly kind: 'error';
  readonly error: SerializedError;
}

export type DecoderToPass = DecoderBatch | DecoderDone | DecoderProfiled | DecoderStatsPart | DecoderDumpText | DecoderDumpWarnings | DecoderFailed;

//#endregion

export function isWireBatch(b: unknown): b is WireBatch {
  if (!isRecord(b) || typeof b.rows !== 'number' || !Number.isInteger(b.rows) || b.rows < 0) return false;
  if (!(b.info instanceof Uint8Array) || typeof b.infoUsed !== 'number' || !(b.infoUsed >= 0 && b.infoUsed <= b.info.length)) return false;
  const rows = b.rows;
  return WIRE_COLUMNS.every((k) => {
    const c = b[k];
    return c instanceof WIRE_COLUMN_TYPES[k] && c.length >= rows;
  });
}

function isPathWindow(w: unknown): w is PathWindow {
  if (!isRecord(w) || typeof w.from !== 'number' || typeof w.to !== 'number') return false;
  const { segmentLoc, segmentFrom, segmentTo, stateFirst, stateLast, lineIDs, locations } = w;
  return (
    segmentLoc instanceof Int32Array &&
    segmentFrom instanceof Float64Array &&
    segmentTo instanceof Float64Array &&
    segmentFrom.length === segmentLoc.length &&
    segmentTo.length === segmentLoc.length &&
    stateFirst instanceof Float64Array &&
    stateLast instanceof Float64Array &&
    lineIDs instanceof Int32Array &&
    locations instanceof Int32Array &&
    locations.length === lineIDs.length
  );
}

function isSums(x: unknown): x is readonly (readonly [string, number])[] {
  return Array.isArray(x) && x.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && typeof e[1] === 'number');
}

function isPathProfile(p: unknown): p is PathProfile {
  return isRecord(p) && isSums(p.byCategory) && isSums(p.bySite);
}

const CELL_COLUMNS = ['lineID', 'category', 'count', 'bytes', 'inclusive', 'exclusive', 'durations', 'sum', 'min', 'max'] as const;

function isCellsPart(c: unknown): c is CellsPart {
  if (!isRecord(c) || !(c.lineID instanceof Float64Array)) return false;
  const n = c.lineID.length;
  return (
    CELL_COLUMNS.every((k) => c[k] instanceof Float64Array && (c[k] as Float64Array).length === n) &&
    c.shortest instanceof Float64Array &&
    c.shortest.length === 3 * n &&
    c.longest instanceof Float64Array &&
    c.longest.length === 3 * n
  );
}

function isHistogramPart(h: unknown): h is HistogramPart {
  return isRecord(h) && typeof h.category === 'number' && typeof h.zero === 'number' && Number.isInteger(h.first) && h.counts instanceof Float64Array;
}

function isMessagesPart(m: unknown): m is MessagesPart {
  return (
    isRecord(m) &&
    typeof m.count === 'number' &&
    typeof m.bytes === 'number' &&
    typeof m.withoutSize === 'number' &&
    m.pairs instanceof Float64Array &&
    m.pairs.length % 4 === 0 &&
    m.tags instanceof Float64Array &&
    m.tags.length % 3 === 0 &&
    m.comms instanceof Float64Array &&
    m.comms.length % 3 === 0 &&
    m.sizeBuckets instanceof Float64Array
  );
}

function isStatsPart(p: unknown): p is StatsPart {
  return (
    isRecord(p) &&
    isRange(p.range) &&
    isCellsPart(p.cells) &&
    Array.isArray(p.histograms) &&
    p.histograms.every(isHistogramPart) &&
    isMessagesPart(p.messages) &&
    typeof p.drawables === 'number' &&
    typeof p.clampedStates === 'number'
  );
}

function isRange(r: unknown): r is readonly [number, number] {
  return Array.isArray(r) && r.length === 2 && typeof r[0] === 'number' && typeof r[1] === 'number';
}

function isDumpJob(d: unknown): d is DecoderStart['dump'] {
  return (
    isRecord(d) &&
    typeof d.json === 'boolean' &&
    typeof d.fileSize === 'number' &&
    Number.isInteger(d.leafCount) &&
    Array.isArray(d.parts) &&
    d.parts.every(
      (p) =>
        isRecord(p) &&
        Number.isInteger(p.from) &&
        Number.isInteger(p.to) &&
        0 <= (p.from as number) &&
        (p.from as number) <= (p.to as number) &&
        typeof p.start === 'number',
    )
  );
}

export function isPassToDecoder(m: unknown): m is PassToDecoder {
  if (!isRecord(m)) return false;
  if (m.kind === 'start')
    return (
      typeof m.path === 'string' &&
      typeof m.t0 === 'number' &&
      typeof m.t1 === 'number' &&
      typeof m.withLastAndInfo === 'boolean' &&
      typeof m.withinNodes === 'boolean' &&
      (m.profile === undefined || isPathWindow(m.profile)) &&
      (m.stats === undefined || (isRecord(m.stats) && isRange(m.stats.range))) &&
      (m.dump === undefined || isDumpJob(m.dump))
    );
  if (m.kind === 'stop') return true;
  return m.kind === 'recycle' && (m.batch instanceof Uint8Array || isWireBatch(m.batch));
}

export function isDecoderToPass(m: unknown): m is DecoderToPass {
  if (!isRecord(m)) return false;
  if (m.kind === 'batch') return isWireBatch(m.batch);
  if (m.kind === 'done') return true;
  if (m.kind === 'profile') return isPathProfile(m.profile);
  if (m.kind === 'statsPart') return isStatsPart(m.part);
  if (m.kind === 'dumpText') return Number.isInteger(m.part) && m.bytes instanceof Uint8Array && typeof m.last === 'boolean';
  if (m.kind === 'dumpWarnings') return Array.isArray(m.warnings) && m.warnings.every((w) => typeof w === 'string');
  return m.kind === 'error' && isSerializedError(m.error);
}
