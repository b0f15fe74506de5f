/**
 * Level of detail: how many tree nodes one window may read, from the pixel width. A leaf holds
 * ~64 KiB of drawables (1–2 thousand), so reading about one leaf per PIXELS_PER_NODE pixels keeps
 * the drawables per pixel column and row around one; when more leaves overlap the fetched span
 * the query stops at a higher level and the shadows of that level summarise the rest
 * (SLOG2.md §13: "pick L so that the overlapping nodes number ≈ pixels / a few hundred").
 */

export const PIXELS_PER_NODE = 100;
export const MIN_NODE_BUDGET = 2;
export const MAX_NODE_BUDGET = 256;
/**
 * The fetched span is 4–8× the visible one; the budget grows with it only up to 3×, so a deep
 * over-fetch costs a coarser level rather than many more node reads.
 */
export const MAX_OVERFETCH_FOR_BUDGET = 3;
/** A first, coarse answer reads at most this many nodes (all depths ≥ its depth together)… */
export const COARSE_NODE_LIMIT = 4;
/**
 * …and at most this many node bytes, the root excepted: parsing is what a first answer costs
 * (~10 ms per 256 KiB in a fresh process), and top nodes range from a few KiB to 15 MB (16 384
 * ranks). The 1.7 GB bench file's root alone is 245 KiB, its next level two more of that size.
 */
export const COARSE_BYTE_LIMIT = 512 * 1024;

/** What the coarse-depth choice needs from a reader (Slog2File satisfies it). */
export interface TreeLevels {
  readonly maxDepth: number;
  countOverlapping(depth: number, t0: number, t1: number): number;
  bytesOverlapping(depth: number, t0: number, t1: number): number;
}

/**
 * The depth of a quick first answer: the lowest depth ≥ `target` whose nodes, together with all
 * the nodes above it that a query also reads, number at most COARSE_NODE_LIMIT and hold at most
 * COARSE_BYTE_LIMIT bytes (the root's depth at least). Equal to `target` when the target itself is
 * that cheap (then no coarse answer is needed).
 */
export function coarseDepth(tree: TreeLevels, t0: number, t1: number, target: number): number {
  let count = 0;
  let bytes = 0;
  for (let d = tree.maxDepth; d >= target; d--) {
    count += tree.countOverlapping(d, t0, t1);
    if (count > COARSE_NODE_LIMIT) return Math.min(tree.maxDepth, d + 1);
    bytes += tree.bytesOverlapping(d, t0, t1);
    if (bytes > COARSE_BYTE_LIMIT) return Math.min(tree.maxDepth, d + 1);
  }
  return target;
}

/**
 * Node budget for a fetched span of `fetchedSpan` seconds when `pixelWidth` pixels show
 * `visibleSpan` seconds: pixels the fetched span would occupy / PIXELS_PER_NODE.
 */
export function nodeBudget(pixelWidth: number, visibleSpan: number, fetchedSpan: number): number {
  const scale = visibleSpan > 0 && fetchedSpan > 0 ? fetchedSpan / visibleSpan : 1;
  const pixels = Math.max(1, pixelWidth) * Math.min(Math.max(scale, 1), MAX_OVERFETCH_FOR_BUDGET);
  return Math.max(MIN_NODE_BUDGET, Math.min(MAX_NODE_BUDGET, Math.ceil(pixels / PIXELS_PER_NODE)));
}
