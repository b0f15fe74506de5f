/**
 * Time culling of a payload's tables: runs of CHUNK consecutive drawables with the earliest start
 * and latest end among them, so a frame skips whole runs outside the view instead of mapping every
 * drawable of the payload (a payload spans more than the view: its key is quantised, and it stays
 * while the view pans inside it). The order of the table, its drawing order, is kept. Built once
 * per table and kept with it.
 */
import type { OffsetMap } from './timeScale';

/** Drawables per chunk: a skipped chunk saves CHUNK mappings for two comparisons. */
export const CHUNK = 256;

export interface TimeChunks {
  /** Earliest start (offset from the payload's base time) per chunk. */
  readonly lo: Float64Array;
  /** Latest end per chunk. */
  readonly hi: Float64Array;
  readonly count: number;
}

const cache = new WeakMap<ArrayLike<number>, TimeChunks>();

/**
 * The chunks of a table given by its start and end columns, and `also` a third time column (an
 * event's own time besides its span).
 */
export function timeChunks(start: ArrayLike<number>, end: ArrayLike<number>, also: ArrayLike<number> = start): TimeChunks {
  let c = cache.get(start);
  if (c === undefined || c.count !== start.length) {
    c = buildChunks(start, end, also);
    cache.set(start, c);
  }
  return c;
}

function buildChunks(start: ArrayLike<number>, end: ArrayLike<number>, also: ArrayLike<number>): TimeChunks {
  const n = start.length;
  const k = Math.ceil(n / CHUNK);
  const lo = new Float64Array(k);
  const hi = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    let a = Infinity;
    let b = -Infinity;
    const e = Math.min(n, (c + 1) * CHUNK);
    for (let i = c * CHUNK; i < e; i++) {
      // a start after its end (bad clocks) still spans both
      const s = start[i]!;
      const t = end[i]!;
      const u = also[i]!;
      a = Math.min(a, s, t, u);
      b = Math.max(b, s, t, u);
    }
    // NaN times compare false both ways: such a chunk is never skipped
    lo[c] = Number.isNaN(a) ? -Infinity : a;
    hi[c] = Number.isNaN(b) ? Infinity : b;
  }
  return { lo, hi, count: n };
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
