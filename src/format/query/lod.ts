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
 * Node budget for a fetched span of `fetchedSpan` seconds when `pixelWidth` pixels show
 * `visibleSpan` seconds: pixels the fetched span would occupy / PIXELS_PER_NODE.
 */
export function nodeBudget(pixelWidth: number, visibleSpan: number, fetchedSpan: number): number {
  const scale = visibleSpan > 0 && fetchedSpan > 0 ? fetchedSpan / visibleSpan : 1;
  const pixels = Math.max(1, pixelWidth) * Math.min(Math.max(scale, 1), 16);
  return Math.max(MIN_NODE_BUDGET, Math.min(MAX_NODE_BUDGET, Math.ceil(pixels / PIXELS_PER_NODE)));
}
