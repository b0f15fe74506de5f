/**
 * The order V8's built-in sort gives a short array, without its copies: the writer sorts each
 * written shadow's few weights by Java's ratio order, which is not consistent for NaN ratios, so
 * only V8's own steps give its result there (and a fresh work array per call was a quarter of a
 * wide conversion's garbage).
 */

type Slots<T> = (T | undefined)[];

/** Below this length V8's Array.prototype.sort (TimSort) is one run: CountAndMakeRun, then binary insertion. */
export const SHORT_SORT_MAX = 64;

/**
 * items[0..n), n < SHORT_SORT_MAX, in the order V8's built-in sort leaves them: the same steps
 * (V8's array-sort.tq for one run), so the same order even for a comparator that is not
 * consistent, as Java's weight order is for NaN ratios. Allocates nothing.
 */
export function sortShortLikeBuiltin<T>(items: Slots<T>, n: number, compare: (a: T, b: T) => number): void {
  if (n < 2) return;
  // CountAndMakeRun: the leading ascending (or strictly descending, then reversed) run.
  let run = 2;
  const descending = compare(items[1]!, items[0]!) < 0;
  for (let i = 2; i < n; i++) {
    const order = compare(items[i]!, items[i - 1]!);
    if (descending ? order >= 0 : order < 0) break;
    run++;
  }
  for (let lo = 0, hi = run - 1; descending && lo < hi; lo++, hi--) {
    const t = items[lo];
    items[lo] = items[hi];
    items[hi] = t;
  }
  // BinaryInsertionSort of the rest into it.
  for (let start = run; start < n; start++) {
    const pivot = items[start]!;
    let left = 0;
    let right = start;
    while (left < right) {
      const mid = left + ((right - left) >> 1);
      if (compare(pivot, items[mid]!) < 0) right = mid;
      else left = mid + 1;
    }
    for (let p = start; p > left; p--) items[p] = items[p - 1];
    items[left] = pivot;
  }
}
