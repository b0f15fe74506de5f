/**
 * Time culling of a payload's tables: runs of CHUNK consecutive drawables with the earliest start
 * and latest end among them, so a frame skips whole runs outside the view instead of mapping every
 * drawable of the payload (a payload spans more than the view: its key is quantised, and it stays
 * while the view pans inside it). The order of the table, its drawing order, is kept. The bounds
 * come with the payload (src/core/query/chunkBounds.ts), or are built here once per table.
 */
import type { OffsetMap } from './timeScale';
import { TIME_CHUNK, chunkBounds, type WindowColumns } from '../../src/protocol/wire';
import { adoptStateRuns } from './stateRuns';

/** Drawables per chunk (shared with the payload's builder, which ships the bounds). */
export const CHUNK = TIME_CHUNK;

export interface TimeChunks {
  /** Earliest start (offset from the payload's base time) per chunk. */
  readonly lo: ArrayLike<number>;
  /** Latest end per chunk. */
  readonly hi: ArrayLike<number>;
  readonly count: number;
}

const cache = new WeakMap<ArrayLike<number>, TimeChunks>();

/**
 * The chunks of a table given by its start and end columns, and `also` a third time column (an
 * event's own time besides its span): the payload's own (adoptChunks), or computed here once.
 */
export function timeChunks(start: ArrayLike<number>, end: ArrayLike<number>, also: ArrayLike<number> = start): TimeChunks {
  let c = cache.get(start);
  if (c === undefined || c.count !== start.length) {
    c = { ...chunkBounds(start, end, also), count: start.length };
    cache.set(start, c);
  }
  return c;
}

/** Takes the chunk bounds a payload came with (computed where it was built) for its tables. */
export function adoptChunks(columns: WindowColumns): void {
  const ch = columns.chunks;
  if (ch === undefined) return;
  cache.set(columns.states.start, { ...ch.states, count: columns.states.start.length });
  cache.set(columns.arrows.start, { ...ch.arrows, count: columns.arrows.start.length });
  cache.set(columns.events.start, { ...ch.events, count: columns.events.start.length });
  adoptStateRuns(columns.states, ch.stateRuns);
}

/**
 * The index ranges of the chunks overlapping [o0, o1] (offsets), adjacent chunks merged, in table
 * order, as [from, to) pairs: loops over them stay plain loops (no callback per range).
 */
export function spansInView(c: TimeChunks, o0: number, o1: number): number[] {
  const spans: number[] = [];
  const k = c.lo.length;
  for (let i = 0; i < k; i++) {
    if (!(c.hi[i]! >= o0 && c.lo[i]! <= o1)) continue;
    const from = i * CHUNK;
    const to = Math.min(c.count, (i + 1) * CHUNK);
    if (spans.length > 0 && spans[spans.length - 1] === from) spans[spans.length - 1] = to;
    else spans.push(from, to);
  }
  return spans;
}

/** spansInView for the pixels [px0, px1] of a view (offsets mapped by `map`, k > 0). */
export function spansInPixels(c: TimeChunks, map: OffsetMap, px0: number, px1: number): number[] {
  return spansInView(c, (px0 - map.shift) / map.k, (px1 - map.shift) / map.k);
}

/**
 * The parts of the table range [from, to) in chunks overlapping [o0, o1], adjacent parts merged,
 * as [from, to) pairs written into `out` (cleared first; reused from call to call).
 */
export function spansInRange(c: TimeChunks, from: number, to: number, o0: number, o1: number, out: number[]): number[] {
  out.length = 0;
  if (from >= to) return out;
  const last = Math.floor((to - 1) / CHUNK);
  for (let i = Math.floor(from / CHUNK); i <= last; i++) {
    if (!(c.hi[i]! >= o0 && c.lo[i]! <= o1)) continue;
    const a = Math.max(from, i * CHUNK);
    const b = Math.min(to, (i + 1) * CHUNK);
    if (out.length > 0 && out[out.length - 1] === a) out[out.length - 1] = b;
    else out.push(a, b);
  }
  return out;
}

/**
 * The states [from, to) of a run in time order (StateRuns.timeOrdered: start and end never
 * decrease) that overlap [o0, o1] (offsets), as one [from, to) pair in `out` (or none): two binary
 * searches. spansInRange's chunks of CHUNK states are coarse for a run: a pan's frame, whose
 * uncovered columns hold a few states a run, scanned a chunk a run for them, and another for the
 * columns left (the viewport bench: ~200 000 states a frame, as many as a frame drawn afresh).
 */
export function spansInRun(start: ArrayLike<number>, end: ArrayLike<number>, from: number, to: number, o0: number, o1: number, out: number[]): number[] {
  out.length = 0;
  // the first state ending at or after o0 (ends never decrease)
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (end[mid]! >= o0) hi = mid;
    else lo = mid + 1;
  }
  const first = lo;
  // the first state from there starting after o1 (starts never decrease)
  hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (start[mid]! > o1) hi = mid;
    else lo = mid + 1;
  }
  if (lo > first) out.push(first, lo);
  return out;
}
