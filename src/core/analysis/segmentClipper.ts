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
  }

  /** Whether [a, b] overlaps a segment of `loc` (any order of calls; binary search). */
  touches(loc: number, a: number, b: number): boolean {
    const list = this.byLoc[loc];
    if (list === undefined) return false;
    // First segment ending after a; it overlaps when it starts before b.
    let lo = 0;
    let hi = list.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[2 * mid + 1]! <= a) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length / 2 && list[2 * lo]! < b;
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
