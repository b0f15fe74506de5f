/**
 * Nesting depth of states per row, as Jumpshot computes it (SLOG2.md §13): walk the states (real
 * ones and state shadows together) in drawing order — earliest ascending, latest descending, so an
 * enclosing state comes before the states it contains — keeping one stack per row; pop until the
 * top covers the current state; the depth is the number of enclosing states left on the stack.
 * A state that only partly overlaps its predecessor is not nested in it (depth of the covering
 * ancestor + 1, or 0), so the drawing stays readable for badly nested input.
 *
 * Rows are independent, so the states are grouped by row (a counting pass), their times copied
 * beside them (a row's states are ~1 in 64 of the input: read in place, each was a cache miss,
 * three times over), and each row put in drawing order by merging the runs already in order (a
 * window's states come node by node: ~500 breaks in 1.2 M states of the viewport bench's trace). A
 * comparison sort of all of them through a callback was a tenth of a full-detail window's build.
 */

/** Row spans wider than this many per state are grouped by a comparison sort (a counting table would be too big). */
const COUNTING_ROWS_PER_STATE = 4;

/** States as grouped and ordered: index, earliest and latest side by side. */
interface Grouped {
  readonly index: Uint32Array;
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
}

/**
 * Depth per item (same indexing as the inputs), plus the greatest depth found, and `order`: the
 * items grouped by row (ascending), each row in drawing order (what the depths were found in).
 */
export function nestingDepths(
  earliest: ArrayLike<number>,
  latest: ArrayLike<number>,
  row: ArrayLike<number>,
): { readonly depth: Uint32Array; readonly maxDepth: number; readonly order: Uint32Array } {
  const n = earliest.length;
  const depth = new Uint32Array(n);
  if (n === 0) return { depth, maxDepth: 0, order: new Uint32Array(0) };
  const order = new Uint32Array(n);
  const rowEnds = groupByRow(row, n, order);
  const g: Grouped = { index: order, earliest: new Float64Array(n), latest: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    g.earliest[k] = earliest[i]!;
    g.latest[k] = latest[i]!;
  }
  const room: Grouped = { index: new Uint32Array(n), earliest: new Float64Array(n), latest: new Float64Array(n) };
  const runStarts = new Int32Array(n + 1);
  const { earliest: e, latest: l } = g;
  /** The enclosing states of the current one: positions in g. */
  const stack = new Uint32Array(n);
  let maxDepth = 0;
  let from = 0;
  for (const to of rowEnds) {
    inDrawingOrder(g, room, from, to, runStarts);
    let top = 0;
    for (let k = from; k < to; k++) {
      while (top > 0) {
        const s = stack[top - 1]!;
        if (e[s]! <= e[k]! && l[k]! <= l[s]!) break;
        top--;
      }
      depth[order[k]!] = top;
      if (top > maxDepth) maxDepth = top;
      stack[top++] = k;
    }
    from = to;
  }
  return { depth, maxDepth, order };
}

/** Indices [0, n) into `order`, grouped by row (ascending), in index order within a row; where each row's group ends. */
function groupByRow(row: ArrayLike<number>, n: number, order: Uint32Array): number[] {
  let lo = row[0]!;
  let hi = lo;
  let integral = true;
  for (let i = 0; i < n; i++) {
    const r = row[i]!;
    if (r < lo) lo = r;
    if (r > hi) hi = r;
    if (!Number.isInteger(r)) integral = false;
  }
  const rowEnds: number[] = [];
  if (integral && hi - lo <= COUNTING_ROWS_PER_STATE * n) {
    const counts = new Uint32Array(hi - lo + 2);
    for (let i = 0; i < n; i++) counts[row[i]! - lo + 1]!++;
    for (let r = 1; r < counts.length; r++) {
      if (counts[r] !== 0) rowEnds.push(counts[r - 1]! + counts[r]!);
      counts[r]! += counts[r - 1]!;
    }
    for (let i = 0; i < n; i++) order[counts[row[i]! - lo]!++] = i;
    return rowEnds;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => row[a]! - row[b]! || a - b);
  for (let k = 1; k <= n; k++) if (k === n || row[order[k]!] !== row[order[k - 1]!]) rowEnds.push(k);
  return rowEnds;
}

/**
 * g[from, to) stably in drawing order (earliest ↑, latest ↓): its runs already in order found,
 * then merged pairwise through `room` until one is left. `runStarts` is scratch of to − from + 1.
 */
function inDrawingOrder(g: Grouped, room: Grouped, from: number, to: number, runStarts: Int32Array): void {
  let runs = 0;
  runStarts[runs++] = from;
  const { earliest: e, latest: l } = g;
  for (let k = from + 1; k < to; k++) if (e[k]! < e[k - 1]! || (e[k] === e[k - 1] && l[k]! > l[k - 1]!)) runStarts[runs++] = k;
  if (runs === 1) return;
  runStarts[runs] = to;
  let src = g;
  let dst = room;
  while (runs > 1) {
    let merged = 0;
    for (let r = 0; r < runs; r += 2) {
      const lo = runStarts[r]!;
      // written at merged ≤ r / 2: no start not yet read is overwritten
      runStarts[merged++] = lo;
      if (r + 1 === runs) {
        copy(src, dst, lo, to);
        break;
      }
      merge(src, dst, lo, runStarts[r + 1]!, runStarts[r + 2]!);
    }
    runs = merged;
    runStarts[runs] = to;
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== g) copy(src, g, from, to);
}

function copy(src: Grouped, dst: Grouped, from: number, to: number): void {
  dst.index.set(src.index.subarray(from, to), from);
  dst.earliest.set(src.earliest.subarray(from, to), from);
  dst.latest.set(src.latest.subarray(from, to), from);
}

/** src[lo, mid) and src[mid, hi), each in drawing order, as one into dst[lo, hi) (the left first on ties). */
function merge(src: Grouped, dst: Grouped, lo: number, mid: number, hi: number): void {
  const { index: si, earliest: se, latest: sl } = src;
  const { index: di, earliest: de, latest: dl } = dst;
  let i = lo;
  let j = mid;
  let k = lo;
  while (i < mid && j < hi) {
    // the right one first only when drawn before: it starts earlier, or as early and ends later
    const right = se[j]! < se[i]! || (se[j] === se[i] && sl[j]! > sl[i]!);
    const q = right ? j++ : i++;
    di[k] = si[q]!;
    de[k] = se[q]!;
    dl[k++] = sl[q]!;
  }
  for (; i < mid; i++, k++) {
    di[k] = si[i]!;
    de[k] = se[i]!;
    dl[k] = sl[i]!;
  }
  for (; j < hi; j++, k++) {
    di[k] = si[j]!;
    de[k] = se[j]!;
    dl[k] = sl[j]!;
  }
}
