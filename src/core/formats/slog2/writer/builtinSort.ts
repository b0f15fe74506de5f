/**
 * The order V8's built-in sort gives a shadow's weights by Java's ratio order, without its
 * copies: that order is not consistent for NaN ratios (an event shadow's 0/0), so only V8's own
 * steps give the built-in's result there; and a fresh work array per shadow written was a
 * quarter of a wide conversion's garbage.
 */
import { compareInclRatio, W_INCL, WEIGHT_STRIDE } from './shadows';

/** Weights as WEIGHT_STRIDE numbers each (a buffer's arena, from an offset). */
type Weights = ArrayLike<number>;

/** Below this length V8's Array.prototype.sort (TimSort) is one run: CountAndMakeRun, then binary insertion. */
export const SHORT_SORT_MAX = 64;

const scratch = new Int32Array(SHORT_SORT_MAX);

/**
 * The positions 0..n−1 of the weights in `ws` in the order `positions.sort(by inclusive ratio)`
 * leaves them; n < SHORT_SORT_MAX takes V8's steps (array-sort.tq for one run) in a scratch
 * array (valid until the next call), longer lists the built-in sort.
 */
export function ratioOrderLikeBuiltin(ws: Weights, n: number, base = 0): ArrayLike<number> {
  if (n >= SHORT_SORT_MAX) return Array.from({ length: n }, (_, i) => i).sort((a, b) => compareInclRatio(incl(ws, base, a), incl(ws, base, b)));
  const items = scratch;
  for (let i = 0; i < n; i++) items[i] = i;
  if (n < 2) return items;
  // CountAndMakeRun: the leading ascending (or strictly descending, then reversed) run.
  let run = 2;
  const descending = compareInclRatio(incl(ws, base, items[1]!), incl(ws, base, items[0]!)) < 0;
  for (let i = 2; i < n; i++) {
    const order = compareInclRatio(incl(ws, base, items[i]!), incl(ws, base, items[i - 1]!));
    if (descending ? order >= 0 : order < 0) break;
    run++;
  }
  for (let lo = 0, hi = run - 1; descending && lo < hi; lo++, hi--) {
    const t = items[lo]!;
    items[lo] = items[hi]!;
    items[hi] = t;
  }
  // BinaryInsertionSort of the rest into it.
  for (let start = run; start < n; start++) {
    const pivot = items[start]!;
    const value = incl(ws, base, pivot);
    let left = 0;
    let right = start;
    while (left < right) {
      const mid = left + ((right - left) >> 1);
      if (compareInclRatio(value, incl(ws, base, items[mid]!)) < 0) right = mid;
      else left = mid + 1;
    }
    for (let p = start; p > left; p--) items[p] = items[p - 1]!;
    items[left] = pivot;
  }
  return items;
}

function incl(ws: Weights, base: number, position: number): number {
  return ws[base + position * WEIGHT_STRIDE + W_INCL]!;
}
