/**
 * A stable merge of runs whose bounds are known: a leaf window's refs, one ascending run per tree
 * node (columnStream.ts). Adjacent runs are merged, the pair with the fewest items first, so the
 * leaf's big run (pushed last) is moved about once, not once per level of a pairwise merge
 * (stableOrder.ts merged it log2(runs) times: 4 moves for the 14 nodes above a leaf). Keys and
 * refs move together, so no pass looks a key up through an index. Equal keys keep their push order.
 */

import { grown } from '../../bytes/grown';

/** Reused buffers: two of each (the merges go back and forth between them). */
export class RunMergeScratch {
  keys: [Float64Array, Float64Array] = [new Float64Array(0), new Float64Array(0)];
  refs: [Float64Array, Float64Array] = [new Float64Array(0), new Float64Array(0)];

  /** Room for `n` items in both buffers, buffer 0's items kept. */
  ensure(n: number): void {
    if (this.keys[0].length >= n) return;
    const k0 = grown(this.keys[0], n);
    const r0 = grown(this.refs[0], n);
    this.keys = [k0, new Float64Array(k0.length)];
    this.refs = [r0, new Float64Array(r0.length)];
  }
}

/**
 * Sorts items 0…n−1 of `scratch.keys[0]` / `scratch.refs[0]` by key, stably, given that each
 * [starts[i], starts[i+1]) (the last one up to n) is ascending. Returns the buffer index (0 or 1)
 * holding the result in its first n items.
 */
export function mergeRuns(scratch: RunMergeScratch, n: number, starts: readonly number[]): 0 | 1 {
  // Runs as [start, end, buffer]; empty ones dropped.
  const from: number[] = [];
  const to: number[] = [];
  const at: (0 | 1)[] = [];
  for (let i = 0; i < starts.length; i++) {
    const a = starts[i]!;
    const b = i + 1 < starts.length ? starts[i + 1]! : n;
    if (b > a) {
      from.push(a);
      to.push(b);
      at.push(0);
    }
  }
  while (from.length > 1) {
    // The adjacent pair with the fewest items.
    let best = 0;
    for (let i = 1; i + 1 < from.length; i++) if (to[i + 1]! - from[i]! < to[best + 1]! - from[best]!) best = i;
    const x = at[best]!;
    const y = at[best + 1]!;
    // Into the right run's buffer when the two differ (each write lands on a right item already
    // read), else into the other buffer.
    const out: 0 | 1 = x !== y ? y : x === 0 ? 1 : 0;
    mergeTwo(scratch, x, from[best]!, from[best + 1]!, y, to[best + 1]!, out);
    to[best] = to[best + 1]!;
    at[best] = out;
    from.splice(best + 1, 1);
    to.splice(best + 1, 1);
    at.splice(best + 1, 1);
  }
  return at[0] ?? 0;
}

/** Left [lo, mid) of buffer `x` and right [mid, hi) of buffer `y` into [lo, hi) of buffer `out`; ties take the left. */
function mergeTwo(s: RunMergeScratch, x: 0 | 1, lo: number, mid: number, y: 0 | 1, hi: number, out: 0 | 1): void {
  const lk = s.keys[x];
  const lr = s.refs[x];
  const rk = s.keys[y];
  const rr = s.refs[y];
  const ok = s.keys[out];
  const or = s.refs[out];
  let i = lo;
  let j = mid;
  let k = lo;
  while (i < mid && j < hi) {
    const a = lk[i]!;
    const b = rk[j]!;
    if (b < a) {
      ok[k] = b;
      or[k++] = rr[j++]!;
    } else {
      ok[k] = a;
      or[k++] = lr[i++]!;
    }
  }
  while (i < mid) {
    ok[k] = lk[i]!;
    or[k++] = lr[i++]!;
  }
  if (out !== y)
    while (j < hi) {
      ok[k] = rk[j]!;
      or[k++] = rr[j++]!;
    }
}
