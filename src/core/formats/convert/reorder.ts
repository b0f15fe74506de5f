/**
 * Puts drawables into SLOG-2 arrival order (SLOG2.md §8): non-decreasing latest time, ties by
 * decreasing earliest time. The converter completes drawables in record order, which is time order,
 * and every drawable completed at a record of time t has latest ≥ t; so a drawable can be released
 * once the record time has moved strictly past its latest time. A binary heap holds the few that
 * are waiting: memory is bounded by the drawables completed within one time step, not the file.
 */
import type { Primitive } from '../../model/types';

function before(a: Primitive, b: Primitive): boolean {
  return a.latest < b.latest || (a.latest === b.latest && a.earliest > b.earliest);
}

export class ReorderBuffer {
  private readonly heap: Primitive[] = [];
  /** Latest time of the last released drawable. */
  private watermark = -Infinity;
  /** Drawables that arrived after a later one had already been released (records out of time order). */
  lateArrivals = 0;

  get size(): number {
    return this.heap.length;
  }

  push(p: Primitive): void {
    if (p.latest < this.watermark) this.lateArrivals++;
    const h = this.heap;
    let i = h.length;
    h.push(p);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(p, h[parent]!)) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = p;
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
    const top = h[0]!;
    const last = h.pop()!;
    const n = h.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(h[r]!, h[l]!) ? r : l;
        if (!before(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    if (top.latest > this.watermark) this.watermark = top.latest;
    return top;
  }
}
