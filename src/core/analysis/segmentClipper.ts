/** Per process, the critical path's segments as sorted [from, to] pairs: how much of a span lies on the path. */
import { stableOrder } from '../formats/slog2/stableOrder';
import type { RawSegment } from './criticalPath';

/** Segments as columns: process (location), start, end. */
export interface SegmentColumns {
  readonly loc: Int32Array;
  readonly from: Float64Array;
  readonly to: Float64Array;
}

export function segmentColumns(raw: readonly RawSegment[]): SegmentColumns {
  return { loc: Int32Array.from(raw, (s) => s.loc), from: Float64Array.from(raw, (s) => s.from), to: Float64Array.from(raw, (s) => s.to) };
}

export class SegmentClipper {
  /** Per location: from, to, from, to … by start (typed: 190 k segments as pair arrays were 10 MB of heap). */
  private readonly byLoc: (Float64Array | undefined)[] = [];
  private readonly next: number[] = [];
  /** Per location, where the last `touches` search ended. */
  private readonly touchHint: Int32Array;

  constructor(s: SegmentColumns) {
    const count: number[] = [];
    for (const loc of s.loc) count[loc] = (count[loc] ?? 0) + 1;
    const members: Int32Array[] = [];
    const filled: number[] = [];
    s.loc.forEach((loc, i) => {
      const list = (members[loc] ??= new Int32Array(count[loc]!));
      list[(filled[loc] = (filled[loc] ?? 0) + 1) - 1] = i;
    });
    members.forEach((list, loc) => {
      const order = stableOrder(
        Float64Array.from(list, (i) => s.from[i]!),
        list.length,
      );
      const pairs = new Float64Array(2 * list.length);
      order.forEach((k, j) => {
        pairs[2 * j] = s.from[list[k]!]!;
        pairs[2 * j + 1] = s.to[list[k]!]!;
      });
      this.byLoc[loc] = pairs;
    });
    this.touchHint = new Int32Array(this.byLoc.length);
  }

  /**
   * Whether [a, b] overlaps a segment of `loc`, in any order of calls. The search starts where the
   * last one for `loc` ended and gallops from there: calls come nearly in time order (a node's
   * drawables, one node after another), and a binary search over a process's 10^4 segments from
   * the start each time, across the cache, was half the decoding of the analysis's pass 2.
   */
  touches(loc: number, a: number, b: number): boolean {
    const list = this.byLoc[loc];
    if (list === undefined) return false;
    const n = list.length / 2;
    // First segment ending after a; it overlaps when it starts before b.
    const hint = Math.min(this.touchHint[loc]!, n);
    let i: number;
    if (hint > 0 && !(list[2 * hint - 1]! <= a)) i = firstEndingAfter(list, a, 0, hint);
    else {
      let lo = hint;
      let hi = hint;
      for (let step = 1; hi < n && list[2 * hi + 1]! <= a; step *= 2) {
        lo = hi + 1;
        hi += step;
      }
      i = firstEndingAfter(list, a, lo, Math.min(hi, n));
    }
    this.touchHint[loc] = i;
    return i < n && list[2 * i]! < b;
  }

  /** Time of [a, b] on the path of `loc`; calls must come in non-decreasing `a` per process. */
  overlap(loc: number, a: number, b: number): number {
    const list = this.byLoc[loc];
    if (list === undefined) return 0;
    let i = this.next[loc] ?? 0;
    while (i < list.length && list[i + 1]! <= a) i += 2;
    this.next[loc] = i;
    let sum = 0;
    for (let j = i; j < list.length && list[j]! < b; j += 2) sum += Math.max(0, Math.min(b, list[j + 1]!) - Math.max(a, list[j]!));
    return sum;
  }
}

/** The first segment in [lo, hi) of `list` (from, to pairs) ending after `a`, else hi (binary search). */
function firstEndingAfter(list: Float64Array, a: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[2 * mid + 1]! <= a) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
