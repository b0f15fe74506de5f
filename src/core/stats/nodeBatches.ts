/**
 * Turns a window query's node slices (SLOG-2 reader: root first, then each level down, each level
 * in time order) into statistics batches with watermarks. Once the leaves (depth 0) start, every
 * later drawable lies in this or a later leaf, so the current leaf's earliest time is a safe
 * watermark — if the file keeps the tree invariants (SLOG2.md §9). That is checked as we go: on the
 * first leaf out of order or drawable outside its leaf, watermarks stop (the result stays exact;
 * only the memory bound is lost).
 */
import type { Drawable, Shadow } from '../model/types';
import type { StatsBatch } from './rangeStats';

/** The part of a SLOG-2 NodeSlice this needs. */
export interface NodeSliceLike {
  readonly depth: number;
  readonly earliest: number;
  readonly latest: number;
  readonly drawables: readonly Drawable[];
  readonly shadows?: readonly Shadow[];
}

export async function* nodeBatches(slices: AsyncIterable<NodeSliceLike> | Iterable<NodeSliceLike>): AsyncGenerator<StatsBatch> {
  let trusted = true;
  let lastLeafStart = -Infinity;
  let sawLeaf = false;
  for await (const s of slices) {
    const base = { drawables: s.drawables, ...(s.shadows !== undefined ? { shadows: s.shadows } : {}) };
    if (s.depth !== 0) {
      // An upper node after a leaf means some other order: watermarks would not be safe.
      if (sawLeaf) trusted = false;
      yield base;
      continue;
    }
    sawLeaf = true;
    if (trusted && s.earliest < lastLeafStart) trusted = false;
    if (trusted) for (const d of s.drawables) if (d.earliest < s.earliest) trusted = false;
    lastLeafStart = s.earliest;
    // Only leaves tell progress: upper nodes span most of the range and come first.
    yield trusted ? { ...base, latest: s.latest, watermark: s.earliest } : { ...base, latest: s.latest };
  }
}
