/**
 * Drawables of a streamed conversion (which come in end-time order) handed out in start order
 * (drawing order, like the SLOG-2 path) with bounded memory. A window that fits under `cap` is
 * collected in one pass and sorted. A bigger one is cut by start time into slices of at most `cap`
 * drawables, one further pass over the file per slice (the file is re-read, never held): pass 2
 * counts start times per bin, then each slice is collected, sorted and handed out. A bin that
 * alone holds more than `cap` drawables is split again by its own start range; if all of them start
 * at the same instant (or the split depth runs out) they are handed out in file order, with a
 * warning — their drawing order cannot be decided without holding them all.
 */
import type { Primitive } from '../core/model/types';
import { drawingOrderCompare } from '../core/formats/slog2/drawingOrder';

/** One full pass over the file's drawables (a fresh conversion each call). */
export type ConversionPass = () => AsyncIterable<readonly Primitive[]>;

export const START_ORDER_CAP = 1 << 18;
const BINS = 4096;
const MAX_SPLIT_DEPTH = 3;

export interface StartOrderResult {
  readonly drawables: AsyncGenerator<Primitive>;
  /** Filled while streaming: what could not be ordered exactly. */
  readonly warnings: string[];
}

export function inStartOrder(pass: ConversionPass, t0: number, t1: number, cap = START_ORDER_CAP): StartOrderResult {
  const warnings: string[] = [];
  const inWindow = (d: Primitive): boolean => d.earliest <= t1 && t0 <= d.latest;

  async function* sliceOut(lo: number, hi: number, lastSlice: boolean, depth: number): AsyncGenerator<Primitive> {
    const inSlice = (d: Primitive): boolean => inWindow(d) && d.earliest >= lo && (d.earliest < hi || (lastSlice && d.earliest === hi));
    // Count per bin (and each bin's own start range) over [lo, hi].
    const counts = new Float64Array(BINS);
    const mins = new Float64Array(BINS).fill(Infinity);
    const maxs = new Float64Array(BINS).fill(-Infinity);
    const width = hi > lo ? (hi - lo) / BINS : 0;
    const binOf = (t: number): number => (width > 0 ? Math.min(BINS - 1, Math.floor((t - lo) / width)) : 0);
    let total = 0;
    for await (const batch of pass()) {
      for (const d of batch) {
        if (!inSlice(d)) continue;
        const b = binOf(d.earliest);
        counts[b]!++;
        if (d.earliest < mins[b]!) mins[b] = d.earliest;
        if (d.earliest > maxs[b]!) maxs[b] = d.earliest;
        total++;
      }
    }
    if (total === 0) return;
    let b = 0;
    while (b < BINS) {
      if (counts[b] === 0) {
        b++;
        continue;
      }
      if (counts[b]! > cap) {
        // One bin too big: split it by its own range, or hand it out in file order.
        const bLo = mins[b]!;
        const bHi = maxs[b]!;
        if (bLo < bHi && depth < MAX_SPLIT_DEPTH) yield* sliceOut(bLo, bHi, true, depth + 1);
        else {
          warnings.push(`${counts[b]} drawables start within [${bLo}, ${bHi}] s: more than ${cap} to sort at once, listed in file order`);
          for await (const batch of pass()) for (const d of batch) if (inSlice(d) && binOf(d.earliest) === b) yield d;
        }
        b++;
        continue;
      }
      // Consecutive bins up to `cap` drawables form one slice.
      let n = 0;
      let e = b;
      while (e < BINS && (counts[e] === 0 || n + counts[e]! <= cap)) n += counts[e++]!;
      const first = b;
      const last = e - 1;
      const kept: Primitive[] = [];
      for await (const batch of pass()) {
        for (const d of batch) {
          if (!inSlice(d)) continue;
          const k = binOf(d.earliest);
          if (k >= first && k <= last) kept.push(d);
        }
      }
      kept.sort(drawingOrderCompare);
      yield* kept;
      b = e;
    }
  }

  async function* all(): AsyncGenerator<Primitive> {
    // Pass 1: most windows fit; collect and sort. Otherwise remember the start range and go on in slices.
    let kept: Primitive[] | undefined = [];
    let lo = Infinity;
    let hi = -Infinity;
    for await (const batch of pass()) {
      for (const d of batch) {
        if (!inWindow(d)) continue;
        if (d.earliest < lo) lo = d.earliest;
        if (d.earliest > hi) hi = d.earliest;
        if (kept !== undefined) {
          kept.push(d);
          if (kept.length > cap) kept = undefined;
        }
      }
    }
    if (kept !== undefined) {
      kept.sort(drawingOrderCompare);
      yield* kept;
      return;
    }
    yield* sliceOut(lo, hi, true, 0);
  }

  return { drawables: all(), warnings };
}
