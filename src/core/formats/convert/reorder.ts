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

/** Default bound: 2^16 drawables (about 15 MB of small primitives; normal traces hold a few). */
export const REORDER_CAPACITY = 1 << 16;

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

  /** p (arrival sp) comes before q (arrival sq). */
  private static before(p: Primitive, sp: number, q: Primitive, sq: number): boolean {
    if (p.latest !== q.latest) return p.latest < q.latest;
    if (p.earliest !== q.earliest) return p.earliest > q.earliest;
    return sp < sq;
  }

  push(p: Primitive): void {
    if (p.latest < this.watermark) this.lateArrivals++;
    const h = this.heap;
    const s = this.seqs;
    const seq = this.nextSeq++;
    // Sift up with a hole: parents move down, p is written once.
    let i = h.length;
    h.push(p);
    s.push(seq);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!ReorderBuffer.before(p, seq, h[parent]!, s[parent]!)) break;
      h[i] = h[parent]!;
      s[i] = s[parent]!;
      i = parent;
    }
    h[i] = p;
    s[i] = seq;
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
    const last = h.pop()!;
    const lastSeq = s.pop()!;
    const n = h.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && ReorderBuffer.before(h[r]!, s[r]!, h[l]!, s[l]!) ? r : l;
        if (!ReorderBuffer.before(h[c]!, s[c]!, last, lastSeq)) break;
        h[i] = h[c]!;
        s[i] = s[c]!;
        i = c;
      }
      h[i] = last;
      s[i] = lastSeq;
    }
    if (top.latest > this.watermark) this.watermark = top.latest;
    return top;
  }
}
