/**
 * Level of detail over rows as well as time: for a view of thousands of rows, the density of
 * each row block (the index's level-0 key blocks) in each time bin, from the row index's tables
 * alone (cost: blocks × leaves × 8 bytes, no drawable decoded). Density = bytes of the states and
 * events of those rows in the leaves overlapping the bin, spread over each leaf's time span in
 * proportion to overlap. Long drawables kept in upper tree nodes and arrows across blocks are not
 * counted (they are not in level 0): an activity estimate for painting, not a statistic.
 */
import type { RowIndex, ReadStats } from '../index/rowIndex';
import { emptyStats } from '../index/rowIndex';

export interface RowDensity {
  /** Keys per block (the webview maps rows → keys → blocks). */
  readonly blockKeys: number;
  readonly firstBlock: number;
  readonly bins: number;
  readonly t0: number;
  readonly t1: number;
  /** [block - firstBlock][bin]: drawable bytes. */
  readonly bytes: readonly Float32Array[];
  readonly stats: ReadStats;
}

export async function rowDensity(index: RowIndex, t0: number, t1: number, bins: number, keys: readonly [number, number]): Promise<RowDensity> {
  const file = index.slog;
  const blockKeys = index.header.blockKeys;
  const b0 = Math.floor(keys[0] / blockKeys);
  const b1 = Math.floor(keys[1] / blockKeys);
  const leaves = file.nodesOverlapping(0, t0, t1);
  const stats = emptyStats();
  const perNode = await index.blockBytes(
    leaves.map((l) => index.ordinalOf(l)),
    b0,
    b1,
    stats,
  );
  const width = (t1 - t0) / bins;
  const bytes = perNode.map((row) => {
    const out = new Float32Array(bins);
    leaves.forEach((leaf, i) => {
      const n = row[i]!;
      if (n === 0) return;
      const span = Math.max(leaf.latest - leaf.earliest, 1e-300);
      const first = Math.max(0, Math.floor((leaf.earliest - t0) / width));
      const last = Math.min(bins - 1, Math.floor((leaf.latest - t0) / width));
      for (let b = first; b <= last; b++) {
        const a = Math.max(leaf.earliest, t0 + b * width);
        const z = Math.min(leaf.latest, t0 + (b + 1) * width);
        if (z >= a) out[b]! += n * (leaf.latest > leaf.earliest ? (z - a) / span : 1);
      }
    });
    return out;
  });
  return { blockKeys, firstBlock: b0, bins, t0, t1, bytes, stats };
}
