/**
 * Which tree level's shadows give a cheap first look at a range (SLOG2.md §16, Jumpshot's way):
 * the finest level that needs at most `nodeBudget` nodes; undefined when the exact pass is cheap
 * anyway (the range covers at most `exactLeaves` leaves) or the tree has a single level.
 */
export interface LevelOptions {
  readonly exactLeaves?: number;
  readonly nodeBudget?: number;
}

export const DEFAULT_EXACT_LEAVES = 256;
export const DEFAULT_NODE_BUDGET = 64;

export function chooseApproximateLevel(maxDepth: number, nodesOverlapping: (depth: number) => number, options: LevelOptions = {}): number | undefined {
  if (maxDepth <= 0 || nodesOverlapping(0) <= (options.exactLeaves ?? DEFAULT_EXACT_LEAVES)) return undefined;
  const budget = options.nodeBudget ?? DEFAULT_NODE_BUDGET;
  for (let depth = 1; depth <= maxDepth; depth++) if (nodesOverlapping(depth) <= budget) return depth;
  return maxDepth;
}
