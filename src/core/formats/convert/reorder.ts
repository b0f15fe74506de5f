/**
 * Puts drawables into SLOG-2 arrival order (SLOG2.md §8): non-decreasing latest time, ties by
 * decreasing earliest time, then by arrival (stable). The converter completes drawables in record
 * order, which is time order, and every drawable completed at a record of time t has latest ≥ t; so
 * a drawable can be released once the record time has moved strictly past its latest time. A binary
 * heap holds the few that are waiting.
 *
 * The heap is bounded (`capacity`): records with equal times (millions of events at one instant),
 * or times that never advance (descending), would otherwise keep every drawable. Beyond the bound
 * the smallest half is released at once: equal-time ties come out in a stable order, and a drawable
 * that then arrives with an earlier end time is counted in `lateArrivals` (the file was out of order).
 */
import type { Primitive } from '../../model/types';

/** Default bound: 2^18 drawables (about 50 MB of small primitives). */
export const REORDER_CAPACITY = 1 << 18;

export class ReorderBuffer {
  private readonly heap: Primitive[] = [];
  /** Arrival number of each heap entry (same index): the stable tie-break. */
  private readonly seqs: number[] = [];
  private nextSeq = 0;
  /** Latest time of the last released drawable. */
  private watermark = -Infinity;
  /** Drawables that arrived after a later one had already been released (records out of time order). */
  lateArrivals = 0;
  /** Times the bound forced an early release (equal or non-advancing times). */
  forcedReleases = 0;

  constructor(
    /** Where released drawables go when the bound forces a release during push. */
    private readonly overflow: Primitive[] | { push(p: Primitive): void } = [],
    readonly capacity = REORDER_CAPACITY,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  private before(i: number, j: number): boolean {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    if (a.latest !== b.latest) return a.latest < b.latest;
    if (a.earliest !== b.earliest) return a.earliest > b.earliest;
    return this.seqs[i]! < this.seqs[j]!;
  }

  private swap(i: number, j: number): void {
    const h = this.heap;
    const s = this.seqs;
    const p = h[i]!;
    h[i] = h[j]!;
    h[j] = p;
    const q = s[i]!;
    s[i] = s[j]!;
    s[j] = q;
  }

  push(p: Primitive): void {
    if (p.latest < this.watermark) this.lateArrivals++;
    const h = this.heap;
    let i = h.length;
    h.push(p);
    this.seqs.push(this.nextSeq++);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
    if (h.length > this.capacity) {
      this.forcedReleases++;
      while (h.length > this.capacity >> 1) this.overflow.push(this.pop());
    }
  }

  /** Moves every drawable with latest < time to `out`, in order. */
  releaseBefore(time: number, out: Primitive[]): void {
    const h = this.heap;
    while (h.length > 0 && h[0]!.latest < time) out.push(this.pop());
  }

  /** Moves everything to `out`, in order (end of input). */
  releaseAll(out: Primitive[]): void {
    while (this.heap.length > 0) out.push(this.pop());
  }

  private pop(): Primitive {
    const h = this.heap;
    const s = this.seqs;
    const top = h[0]!;
    const n = h.length - 1;
    h[0] = h[n]!;
    s[0] = s[n]!;
    h.pop();
    s.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.before(r, l) ? r : l;
      if (!this.before(c, i)) break;
      this.swap(i, c);
      i = c;
    }
    if (top.latest > this.watermark) this.watermark = top.latest;
    return top;
  }
}
