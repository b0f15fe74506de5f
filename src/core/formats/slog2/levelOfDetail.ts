/** Picks how deep a window query should read (SLOG2.md §13 "choose the lowest depth"). */
import type { Slog2File } from './slog2File';

/**
 * The lowest (most detailed) depth L such that at most `maxNodes` nodes of depth L overlap
 * [t0, t1], from the TreeDir only. Returns the root depth when even that level has too many.
 */
export function chooseLowestDepth(file: Pick<Slog2File, 'maxDepth' | 'countOverlapping'>, t0: number, t1: number, maxNodes: number): number {
  for (let depth = 0; depth < file.maxDepth; depth++) {
    if (file.countOverlapping(depth, t0, t1) <= maxNodes) return depth;
  }
  return file.maxDepth;
}
