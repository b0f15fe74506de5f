/**
 * The critical path (Scalasca's definition, ../shared/notes/analysis.md §2): start on the process
 * that finishes last, at its last exit, and walk backward; at the latest wait of the current
 * process that ended before the current time, the path continues on the process that caused the
 * wait, at the moment it released the waiter. The result is a chain of segments, contiguous in time,
 * from the end of the run back to the first event of the process where the walk stops. Waiting
 * time is never on the path (a segment starts where its process stopped waiting).
 */
import type { HopColumns } from './recorder';
import type { PathSegment } from './types';

export interface ProcessSpan {
  /** First and last time seen on each process (index = location). */
  readonly first: readonly number[];
  readonly last: readonly number[];
}

interface RawSegment {
  readonly loc: number;
  readonly from: number;
  readonly to: number;
}

/** Hops of each process sorted by resume time (index lists into the columns). */
function hopsByProcess(h: HopColumns, processes: number): Int32Array[] {
  const counts = new Int32Array(processes);
  for (let i = 0; i < h.length; i++) counts[h.waiter[i]!]!++;
  const lists = Array.from(counts, (n) => new Int32Array(n));
  const fill = new Int32Array(processes);
  for (let i = 0; i < h.length; i++) {
    const w = h.waiter[i]!;
    lists[w]![fill[w]!++] = i;
  }
  for (const list of lists) list.sort((a, b) => h.resume[a]! - h.resume[b]! || a - b);
  return lists;
}

export function walkCriticalPath(h: HopColumns, span: ProcessSpan): RawSegment[] {
  const processes = span.last.length;
  let cur = -1;
  let end = -Infinity;
  for (let p = 0; p < processes; p++) {
    const t = span.last[p]!;
    if (t > end) {
      end = t;
      cur = p;
    }
  }
  if (cur < 0) return [];
  const lists = hopsByProcess(h, processes);
  /** Hops at index ≥ limit[p] of lists[p] are used or later than the path. */
  const limit = lists.map((l) => l.length);
  const out: RawSegment[] = [];
  for (;;) {
    const list = lists[cur]!;
    // Last hop (below the limit) whose resume time ≤ end.
    let lo = 0;
    let hi = limit[cur]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (h.resume[list[mid]!]! <= end) lo = mid + 1;
      else hi = mid;
    }
    const first = span.first[cur]!;
    if (lo === 0 || h.resume[list[lo - 1]!]! < first) {
      if (end > first) out.push({ loc: cur, from: first, to: end });
      break;
    }
    const hop = list[lo - 1]!;
    limit[cur] = lo - 1;
    const resume = h.resume[hop]!;
    if (end > resume) out.push({ loc: cur, from: resume, to: end });
    end = Math.min(h.causerTime[hop]!, resume);
    cur = h.causer[hop]!;
    if (cur >= processes) break;
  }
  return out.reverse();
}

export function labelSegments(raw: readonly RawSegment[], labels: readonly string[], lineOf: (loc: number) => number): PathSegment[] {
  return raw.map((s) => ({ rank: labels[s.loc] ?? String(s.loc), lineID: lineOf(s.loc), from: s.from, to: s.to }));
}

/** Per process: its segments as sorted [from, to] pairs, for clipping spans in one forward pass. */
export class SegmentClipper {
  private readonly byLoc: number[][] = [];
  private readonly next: number[] = [];

  constructor(raw: readonly RawSegment[]) {
    for (const s of raw) (this.byLoc[s.loc] ??= []).push(s.from, s.to);
    for (const list of this.byLoc) {
      if (list === undefined) continue;
      const pairs: [number, number][] = [];
      for (let i = 0; i < list.length; i += 2) pairs.push([list[i]!, list[i + 1]!]);
      pairs.sort((a, b) => a[0] - b[0]);
      list.length = 0;
      for (const [a, b] of pairs) list.push(a, b);
    }
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
