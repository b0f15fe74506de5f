/**
 * The protocol between a whole-file pass (the wait-state analysis) and its decoder thread
 * (src/worker/decoder.ts): the decoder thread reads and decodes a SLOG-2 file's leaves in drawing
 * order (columnStream.ts) and posts each batch's columns (buffers transferred, not copied); the
 * pass sends each batch back once used, which is both buffer reuse and flow control — the
 * decoder keeps at most a few batches in flight, so memory stays bounded however fast it runs.
 */
import type { PathProfile, PathWindow } from '../core/analysis/pathProfile';
import type { PackedRows } from '../core/formats/slog2/columnStream';
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
}

/** A batch the pass is done with (the decoder reuses it; one more batch may be sent). */
export interface DecoderRecycle {
  readonly kind: 'recycle';
  readonly batch: WireBatch;
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

export interface DecoderFailed {
  readonly kind: 'error';
  readonly error: SerializedError;
}

export type DecoderToPass = DecoderBatch | DecoderDone | DecoderProfiled | DecoderFailed;

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

export function isPassToDecoder(m: unknown): m is PassToDecoder {
  if (!isRecord(m)) return false;
  if (m.kind === 'start')
    return (
      typeof m.path === 'string' &&
      typeof m.t0 === 'number' &&
      typeof m.t1 === 'number' &&
      typeof m.withLastAndInfo === 'boolean' &&
      typeof m.withinNodes === 'boolean' &&
      (m.profile === undefined || isPathWindow(m.profile))
    );
  if (m.kind === 'stop') return true;
  return m.kind === 'recycle' && isWireBatch(m.batch);
}

export function isDecoderToPass(m: unknown): m is DecoderToPass {
  if (!isRecord(m)) return false;
  if (m.kind === 'batch') return isWireBatch(m.batch);
  if (m.kind === 'done') return true;
  if (m.kind === 'profile') return isPathProfile(m.profile);
  return m.kind === 'error' && isSerializedError(m.error);
}
