/**
 * The order states go out in a payload (buildWindow.ts): outermost first (by nesting depth), so
 * drawing in array order paints enclosing states behind the states they contain; within a depth by
 * row, in drawing order per row, so a frame visits only shown rows.
 */

/** Row spans wider than this are ordered by a comparison sort (a counting sort's table would be too big). */
const COUNTING_ROWS_LIMIT = 1 << 20;

/**
 * Indices [0, n) stably sorted by depth[i], then by row[i] (≥ rowStart): two stable counting
 * passes, rows first (depths and shown rows are few).
 */
export function orderByDepthAndRow(depth: ArrayLike<number>, row: ArrayLike<number>, rowStart: number, n: number): Uint32Array {
  let maxDepth = 0;
  let maxRow = 0;
  for (let i = 0; i < n; i++) {
    maxDepth = Math.max(maxDepth, depth[i]!);
    maxRow = Math.max(maxRow, row[i]! - rowStart);
  }
  if (maxRow >= COUNTING_ROWS_LIMIT) {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort((a, b) => depth[a]! - depth[b]! || row[a]! - row[b]! || a - b);
  }
  // stable counting passes: by row, then (of that order) by depth
  const rowCounts = new Uint32Array(maxRow + 2);
  for (let i = 0; i < n; i++) rowCounts[row[i]! - rowStart + 1]!++;
  for (let r = 1; r < rowCounts.length; r++) rowCounts[r]! += rowCounts[r - 1]!;
  const byRow = new Uint32Array(n);
  for (let i = 0; i < n; i++) byRow[rowCounts[row[i]! - rowStart]!++] = i;
  const depthCounts = new Uint32Array(maxDepth + 2);
  for (let i = 0; i < n; i++) depthCounts[depth[i]! + 1]!++;
  for (let d = 1; d < depthCounts.length; d++) depthCounts[d]! += depthCounts[d - 1]!;
  const out = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const i = byRow[k]!;
    out[depthCounts[depth[i]!]!++] = i;
  }
  return out;
}

/**
 * Where each entry goes in `order` (order[k] = i ⇒ rank[i] = k). The tables are copied out in
 * entry order, each value written at its rank: read in `order` (by depth and row, 1 in 64 entries
 * a row apart), each of a state's columns was a cache miss, a quarter of a full-detail window's
 * build; written so, the writes go to a few hundred runs (depths × rows), each in order.
 */
export function ranksOf(order: Uint32Array): Uint32Array {
  const rank = new Uint32Array(order.length);
  for (let k = 0; k < order.length; k++) rank[order[k]!] = k;
  return rank;
}
