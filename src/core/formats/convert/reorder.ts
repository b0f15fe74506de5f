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
 *
 * The heap orders slot numbers; what a slot holds is the subclass's: drawable objects
 * (`ReorderBuffer`) or columns of a converter's primitives (`pendingPrimitives.ts`), which spare the
 * converter an object per drawable.
 */
import type { Primitive } from '../../model/types';
import { grown } from '../../bytes/grown';

/** Default bound: 2^16 drawables (about 15 MB of small primitives; normal traces hold a few). */
export const REORDER_CAPACITY = 1 << 16;

export abstract class ArrivalOrder {
  /** Slot numbers, a binary heap in arrival order. */
  private heap = new Int32Array(64);
  private count = 0;
  /** By slot: the ordering keys (seq: arrival number, the stable tie-break). */
  protected earliestOf = new Float64Array(64);
  protected latestOf = new Float64Array(64);
  private seqOf = new Float64Array(64);
  /** Slots handed out so far; released ones wait in `freeSlots` for reuse. */
  private slots = 0;
  private freeSlots = new Int32Array(64);
  private free = 0;
  private nextSeq = 0;
  /** Latest time of the last released drawable. */
  protected watermark = -Infinity;
  /** Drawables that arrived after a later one had already been released (records out of time order). */
  lateArrivals = 0;
  /** Times the bound forced an early release (equal or non-advancing times). */
  forcedReleases = 0;

  constructor(readonly capacity = REORDER_CAPACITY) {}

  get size(): number {
    return this.count;
  }

  /** Hands one released slot to the subclass's output (its contents stay valid until the call returns). */
  protected abstract release(slot: number): void;

  /** The subclass's columns must hold at least `slots` slots. */
  protected abstract growColumns(slots: number): void;

  /** A slot for the subclass to fill, then `enqueue`. */
  protected takeSlot(): number {
    if (this.free > 0) return this.freeSlots[--this.free]!;
    const slot = this.slots++;
    if (slot === this.earliestOf.length) this.grow(slot * 2);
    return slot;
  }

  /**
   * Puts a filled slot into the heap; beyond the bound, releases the smallest half. `counted`: its
   * lateness was counted already (a drawable held out of the heap until now).
   */
  protected enqueue(slot: number, earliest: number, latest: number, counted = false): void {
    if (!counted && latest < this.watermark) this.lateArrivals++;
    const seq = this.nextSeq++;
    this.earliestOf[slot] = earliest;
    this.latestOf[slot] = latest;
    this.seqOf[slot] = seq;
    const h = this.heap;
    // Sift up with a hole: parents move down, the slot is written once.
    let i = this.count++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(slot, h[parent]!)) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = slot;
    if (this.count > this.capacity) {
      this.forcedReleases++;
      while (this.count > this.capacity >> 1) this.releaseTop();
    }
  }

  /** Releases every drawable with latest < time, in order. */
  protected releaseUntil(time: number): void {
    while (this.count > 0 && this.latestOf[this.heap[0]!]! < time) this.releaseTop();
  }

  /** Releases everything, in order (end of input). */
  protected releaseRest(): void {
    while (this.count > 0) this.releaseTop();
  }

  /** Slot a comes before slot b. */
  private before(a: number, b: number): boolean {
    const la = this.latestOf[a]!;
    const lb = this.latestOf[b]!;
    if (la !== lb) return la < lb;
    const ea = this.earliestOf[a]!;
    const eb = this.earliestOf[b]!;
    if (ea !== eb) return ea > eb;
    return this.seqOf[a]! < this.seqOf[b]!;
  }

  private releaseTop(): void {
    const h = this.heap;
    const top = h[0]!;
    const last = h[--this.count]!;
    const n = this.count;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.before(h[r]!, h[l]!) ? r : l;
        if (!this.before(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    const latest = this.latestOf[top]!;
    if (latest > this.watermark) this.watermark = latest;
    this.release(top);
    this.freeSlots[this.free++] = top;
  }

  private grow(slots: number): void {
    this.earliestOf = grown(this.earliestOf, slots);
    this.latestOf = grown(this.latestOf, slots);
    this.seqOf = grown(this.seqOf, slots);
    this.heap = grown(this.heap, slots);
    this.freeSlots = grown(this.freeSlots, slots);
    this.growColumns(slots);
  }
}

/** The arrival order of drawable objects (SLOG-1 records, tests). */
export class ReorderBuffer extends ArrivalOrder {
  private objects: (Primitive | undefined)[] = [];
  private out: { push(p: Primitive): void };

  constructor(
    /** Where released drawables go when the bound forces a release during push. */
    private readonly overflow: Primitive[] | { push(p: Primitive): void } = [],
    capacity = REORDER_CAPACITY,
  ) {
    super(capacity);
    this.out = overflow;
  }

  push(p: Primitive): void {
    const slot = this.takeSlot();
    this.objects[slot] = p;
    this.out = this.overflow;
    this.enqueue(slot, p.earliest, p.latest);
  }

  /** Moves every drawable with latest < time to `out`, in order. */
  releaseBefore(time: number, out: Primitive[]): void {
    this.out = out;
    this.releaseUntil(time);
  }

  /** Moves everything to `out`, in order (end of input). */
  releaseAll(out: Primitive[]): void {
    this.out = out;
    this.releaseRest();
  }

  protected release(slot: number): void {
    this.out.push(this.objects[slot]!);
    this.objects[slot] = undefined;
  }

  protected growColumns(): void {}
}
