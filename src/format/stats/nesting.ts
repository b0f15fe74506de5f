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
  private pending: NestedState<C>[] = [];
  private readonly stack: NestedState<C>[] = [];

  add(state: NestedState<C>): void {
    this.pending.push(state);
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Sweeps the buffered states that start before `watermark` (all of them when undefined). */
  flush(watermark?: number): void {
    if (this.pending.length === 0) return;
    let ready: NestedState<C>[];
    if (watermark === undefined) {
      ready = this.pending;
      this.pending = [];
    } else {
      ready = [];
      const keep: NestedState<C>[] = [];
      for (const s of this.pending) (s.earliest < watermark ? ready : keep).push(s);
      this.pending = keep;
    }
    ready.sort(compareDrawingOrder);
    const stack = this.stack;
    for (const cur of ready) {
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
