/**
 * The order states go out in a payload (buildWindow.ts): outermost first (by nesting depth), so
 * drawing in array order paints enclosing states behind the states they contain; within a depth by
 * row, in drawing order per row, so a frame visits only shown rows, and within a row's runs finds
 * the states of a time range by binary search.
 */

/**
 * The states [0, n) stably by depth, from `byRow`: the states and shadows of the window grouped by
 * row (ascending), each row in drawing order (nestingDepths' `order`; indices ≥ n, the shadows,
 * are left out). So within a depth and row the states go out in drawing order: one after another
 * in time where they do not overlap (a trace's states of one depth and row), and a frame finds
 * those over a time range by binary search (StateRuns.timeOrdered). In the order they came (node
 * by node) a run's states went back in time at each node's.
 */
export function orderByDepth(byRow: Uint32Array, depth: ArrayLike<number>, n: number): Uint32Array {
  let maxDepth = 0;
  for (let i = 0; i < n; i++) maxDepth = Math.max(maxDepth, depth[i]!);
  const depthCounts = new Uint32Array(maxDepth + 2);
  for (let i = 0; i < n; i++) depthCounts[depth[i]! + 1]!++;
  for (let d = 1; d < depthCounts.length; d++) depthCounts[d]! += depthCounts[d - 1]!;
  const out = new Uint32Array(n);
  for (let k = 0; k < byRow.length; k++) {
    const i = byRow[k]!;
    if (i < n) out[depthCounts[depth[i]!]!++] = i;
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
