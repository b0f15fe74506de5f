// Pure data shaping for the panel's table and charts (tested without a DOM).
import type { CategoryStat, RowStat } from '../../src/core/stats/types';
import { rgbaCss } from './format';

export type SortKey = 'name' | 'count' | 'inclusive' | 'exclusive' | 'min' | 'mean' | 'max' | 'share' | 'bytes';

/** Segments per bar in the per-timeline chart; the rest is summed as "other". */
export const MAX_SEGMENTS = 12;

function sortValue(c: CategoryStat, key: SortKey): number | string {
  if (key === 'name') return c.name.toLowerCase();
  return c[key] ?? -Infinity;
}

export function sortCategories(categories: readonly CategoryStat[], key: SortKey, descending: boolean): CategoryStat[] {
  const sign = descending ? -1 : 1;
  return [...categories].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    return (x < y ? -1 : x > y ? 1 : 0) * sign || a.index - b.index;
  });
}

export interface Stack {
  readonly labels: string[];
  readonly lineIDs: number[];
  readonly segments: { name: string; colour: string; values: number[] }[];
  /** Whether the segments add up (exclusive) or overlap (inclusive). */
  readonly stacked: boolean;
}

/**
 * Per row, the state time of the top categories by the chosen measure. Exclusive times add up
 * (≤ range length per row), so they are stacked and the rest is summed as "other". Inclusive times
 * of nested states overlap, so they are not stacked (the chart draws them side by side) and there
 * is no "other". Arrows are left out: their "time" is message flight time, not time in a state.
 */
export function stackRows(rows: readonly RowStat[], categories: readonly CategoryStat[], mode: 'inclusive' | 'exclusive'): Stack {
  const timed = categories.filter((c) => c.kind === 'state');
  const top = [...timed].sort((a, b) => b[mode] - a[mode]).slice(0, MAX_SEGMENTS);
  const topIndex = new Map(top.map((c, i) => [c.index, i]));
  const timedSet = new Set(timed.map((c) => c.index));
  const segments = top.map((c) => ({ name: c.name, colour: rgbaCss(c.rgba), values: rows.map(() => 0) }));
  const other = { name: 'other', colour: 'rgba(128,128,128,0.6)', values: rows.map(() => 0) };
  rows.forEach((r, i) => {
    for (const c of r.categories) {
      if (!timedSet.has(c.index)) continue;
      const seg = topIndex.get(c.index);
      (seg === undefined ? other : segments[seg]!).values[i]! += c[mode];
    }
  });
  if (mode === 'exclusive' && other.values.some((v) => v > 0)) segments.push(other);
  return { labels: rows.map((r) => r.label), lineIDs: rows.map((r) => r.lineID), segments, stacked: mode === 'exclusive' };
}
