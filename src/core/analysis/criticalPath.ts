/**
 * The critical path (Scalasca's definition, ../shared/notes/analysis.md §2): start on the process
 * that finishes last, at its last exit, and walk backward; at the latest wait of the current
 * process that ended before the current time, the path continues on the process that caused the
 * wait, at the moment it released the waiter. The result is a chain of segments, contiguous in time,
 * from the end of the run back to the first event of the process where the walk stops. Waiting
 * time is never on the path (a segment starts where its process stopped waiting).
 */
import { stableOrder } from '../formats/slog2/stableOrder';
import type { HopColumns } from './hops';
import type { PathSegment } from './types';

export interface ProcessSpan {
  /** First and last time seen on each process (index = location). */
  readonly first: readonly number[];
  readonly last: readonly number[];
}

export interface RawSegment {
  readonly loc: number;
  readonly from: number;
  readonly to: number;
}

/** Hops of each process sorted by resume time, ties in slot order (index lists into the columns). */
function hopsByProcess(h: HopColumns, processes: number): Int32Array[] {
  const counts = new Int32Array(processes);
  for (let i = 0; i < h.length; i++) counts[h.waiter(i)]!++;
  const lists = Array.from(counts, (n) => new Int32Array(n));
  const fill = new Int32Array(processes);
  for (let i = 0; i < h.length; i++) {
    const w = h.waiter(i);
    lists[w]![fill[w]!++] = i;
  }
  // A stable merge of the runs the lists already have (waits are mostly recorded in time order);
  // a typed-array sort with a comparator took 50 MB of heap at the peak of a 1 GB analysis.
  // Plain loops: Float64Array.from with a map function went through the iterator protocol, a
  // third of a second of the serial step between the analysis's two passes.
  return lists.map((list) => {
    const n = list.length;
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) keys[k] = h.resume(list[k]!);
    const order = stableOrder(keys, n);
    const sorted = new Int32Array(n);
    for (let k = 0; k < n; k++) sorted[k] = list[order[k]!]!;
    return sorted;
  });
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
      if (h.resume(list[mid]!) <= end) lo = mid + 1;
      else hi = mid;
    }
    const first = span.first[cur]!;
    if (lo === 0 || h.resume(list[lo - 1]!) < first) {
      if (end > first) out.push({ loc: cur, from: first, to: end });
      break;
    }
    const hop = list[lo - 1]!;
    limit[cur] = lo - 1;
    const resume = h.resume(hop);
    if (end > resume) out.push({ loc: cur, from: resume, to: end });
    end = Math.min(h.causerTime(hop), resume);
    cur = h.causer(hop);
    if (cur >= processes) break;
  }
  return out.reverse();
}

export function labelSegments(raw: readonly RawSegment[], labels: readonly string[], lineOf: (loc: number) => number): PathSegment[] {
  return raw.map((s) => ({ rank: labels[s.loc] ?? String(s.loc), lineID: lineOf(s.loc), from: s.from, to: s.to }));
}
