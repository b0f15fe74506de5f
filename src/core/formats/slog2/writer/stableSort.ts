/**
 * A stable merge sort of items[from..to), through a scratch array the caller keeps: the built-in
 * sort copies the array into fresh work space on every call, and the writer sorts each written
 * node's child shadows (those copies were a fifth of a wide conversion's garbage). For a
 * consistent comparator, any stable sort gives the built-in's order exactly. Slots may hold
 * undefined outside the range (kept arrays, emptied after use).
 */

/** Runs this short are sorted by insertion before merging. */
const RUN = 16;

type Slots<T> = (T | undefined)[];

export function sortStable<T>(items: Slots<T>, from: number, to: number, compare: (a: T, b: T) => number, scratch: Slots<T>): void {
  for (let lo = from; lo < to; lo += RUN) insertionSort(items, lo, Math.min(to, lo + RUN), compare);
  let src = items;
  let dst = scratch;
  for (let width = RUN; width < to - from; width *= 2) {
    for (let lo = from; lo < to; lo += 2 * width) merge(src, dst, lo, Math.min(to, lo + width), Math.min(to, lo + 2 * width), compare);
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== items) for (let i = from; i < to; i++) items[i] = src[i];
  scratch.fill(undefined, from, to);
}

function insertionSort<T>(a: Slots<T>, from: number, to: number, compare: (a: T, b: T) => number): void {
  for (let k = from + 1; k < to; k++) {
    const item = a[k]!;
    let j = k - 1;
    while (j >= from && compare(a[j]!, item) > 0) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = item;
  }
}

/** Merges src[lo..mid) and src[mid..hi) into dst[lo..hi); ties take the left run first (stable). */
function merge<T>(src: Slots<T>, dst: Slots<T>, lo: number, mid: number, hi: number, compare: (a: T, b: T) => number): void {
  let i = lo;
  let j = mid;
  let k = lo;
  // Runs already in order (shadows mostly come in time order) are copied: no comparison per item.
  if (j < hi && compare(src[j]!, src[j - 1]!) >= 0) while (i < mid) dst[k++] = src[i++];
  while (i < mid && j < hi) dst[k++] = compare(src[j]!, src[i]!) < 0 ? src[j++] : src[i++];
  while (i < mid) dst[k++] = src[i++];
  while (j < hi) dst[k++] = src[j++];
}

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
