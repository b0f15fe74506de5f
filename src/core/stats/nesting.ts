/**
 * Exclusive time of states on one timeline (SLOG2.md §12.2/§16): states are visited in drawing
 * order (earliest ascending, latest descending, then category); a stack holds the chain of open
 * enclosing states; each state's own time is subtracted from the nearest enclosing one ("directly
 * nested", containment judged on the full bounds). Exactly Jumpshot's stack, so overlapping
 * siblings are handled the way the reference handles them.
 *
 * Streaming: states are buffered until the caller promises (a watermark) that no later state
 * starts before a time; everything starting before it is then swept and dropped, so memory is the
 * states of one batch plus the stack, not the whole range.
 */

/** What the sweep needs to know of a state; `own` is its time to subtract from its parent. */
export interface NestedState<C> {
  readonly earliest: number;
  readonly latest: number;
  readonly category: number;
  readonly finalLineID: number;
  /** Clipped duration (exact) or clipped minus shadow-covered time (approximate). */
  own: number;
  /** The accumulator cell credited with `own` and debited with its children's. */
  readonly cell: C;
}

export function compareDrawingOrder(
  a: { readonly earliest: number; readonly latest: number; readonly category: number; readonly finalLineID: number },
  b: { readonly earliest: number; readonly latest: number; readonly category: number; readonly finalLineID: number },
): number {
  return a.earliest - b.earliest || b.latest - a.latest || a.category - b.category || a.finalLineID - b.finalLineID;
}

export class RowNesting<C extends { exclusive: number }> {
  /** Binary min-heap in drawing order: adds and releases cost O(log n) however long states wait. */
  private readonly pending: NestedState<C>[] = [];
  private readonly stack: NestedState<C>[] = [];

  add(state: NestedState<C>): void {
    const h = this.pending;
    h.push(state);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareDrawingOrder(h[parent]!, state) <= 0) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = state;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  private popMin(): NestedState<C> {
    const h = this.pending;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && compareDrawingOrder(h[r]!, h[l]!) < 0 ? r : l;
        if (compareDrawingOrder(last, h[c]!) <= 0) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }

  /** Sweeps the buffered states that start before `watermark` (all of them when undefined). */
  flush(watermark?: number): void {
    const stack = this.stack;
    while (this.pending.length > 0 && (watermark === undefined || this.pending[0]!.earliest < watermark)) {
      const cur = this.popMin();
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        if (top.earliest <= cur.earliest && cur.latest <= top.latest) break;
        stack.pop();
      }
      cur.cell.exclusive += cur.own;
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.cell.exclusive -= cur.own;
      stack.push(cur);
    }
  }
}
