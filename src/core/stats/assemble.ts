/**
 * The result of a statistics run (RangeStats) from its counted sums: per row and category from the
 * cells, per category totals across rows (shortest/longest ties to the earlier instance), each
 * state category's share of all timelines' time, and the message and duration sums as counted.
 */
import type { Category, Topology } from '../model/types';
import { instanceBefore, type CellTable } from './cellTable';
import type { StatsMeta } from './rangeStats';
import type { RowNaming } from './rowLabels';
import type { CategoryStat, DurationHistogram, InstanceRef, MessageStats, RangeStats, RowCategoryStat, RowStat, StatsKind } from './types';

/** What a run counted, besides its kind and range. */
export interface CountedSums {
  readonly meta: StatsMeta;
  readonly cells: CellTable;
  readonly naming: RowNaming;
  readonly messages: MessageStats;
  readonly durations: DurationHistogram[];
  readonly drawables: number;
  readonly clampedStates: number;
}

interface Total {
  count: number;
  /** Arrows: Σ message sizes. */
  bytes: number;
  inclusive: number;
  exclusive: number;
  /** Real drawables whose full duration went into sum/min/max. */
  durations: number;
  sum: number;
  min: number;
  max: number;
  shortest?: InstanceRef;
  longest?: InstanceRef;
}

function newTotal(): Total {
  return { count: 0, bytes: 0, inclusive: 0, exclusive: 0, durations: 0, sum: 0, min: Infinity, max: -Infinity };
}

function categoryInfo(meta: StatsMeta, index: number): { name: string; kind: Topology; rgba: Category['rgba'] } {
  const c = meta.categories.get(index);
  if (c !== undefined) return { name: c.name, kind: c.topology, rgba: c.rgba };
  return { name: `UnknownType-${index}`, kind: 'state', rgba: [128, 128, 128, 255] };
}

export function assembleStats(kind: StatsKind, range: readonly [number, number], sums: CountedSums): RangeStats {
  const { meta, cells, naming } = sums;
  const width = range[1] - range[0];
  const byCategory = new Map<number, Total>();
  const rows: RowStat[] = [];
  for (const lineID of cells.lineIDs()) {
    const cats: RowCategoryStat[] = [];
    for (const c of cells.cellsOf(lineID)) {
      const index = cells.category[c]!;
      const info = categoryInfo(meta, index);
      const exclusive = info.kind === 'state' ? cells.exclusive[c]! : 0;
      cats.push({ index, name: info.name, count: cells.count[c]!, inclusive: cells.inclusive[c]!, exclusive });
      let total = byCategory.get(index);
      if (total === undefined) byCategory.set(index, (total = newTotal()));
      total.count += cells.count[c]!;
      total.bytes += cells.bytes[c]!;
      total.inclusive += cells.inclusive[c]!;
      total.exclusive += exclusive;
      total.durations += cells.durations[c]!;
      total.sum += cells.sum[c]!;
      if (cells.min[c]! < total.min || (cells.min[c] === total.min && instanceBefore(cells.shortestOf(c), total.shortest))) {
        total.min = cells.min[c]!;
        total.shortest = cells.shortestOf(c);
      }
      if (cells.max[c]! > total.max || (cells.max[c] === total.max && instanceBefore(cells.longestOf(c), total.longest))) {
        total.max = cells.max[c]!;
        total.longest = cells.longestOf(c);
      }
    }
    cats.sort((a, b) => b.inclusive - a.inclusive || a.index - b.index);
    const comm = naming.commOf(lineID);
    rows.push({ lineID, label: naming.labelOf(lineID), ...(comm !== undefined ? { comm } : {}), categories: cats });
  }
  const timelines = timelinesInScope(meta, cells);
  const categories: CategoryStat[] = [];
  for (const [index, c] of byCategory) {
    const info = categoryInfo(meta, index);
    categories.push({
      index,
      ...info,
      count: c.count,
      inclusive: c.inclusive,
      exclusive: c.exclusive,
      ...(info.kind === 'state' ? { share: stateShare(c.exclusive, width, timelines) } : {}),
      // Shadow arrows carry no sizes: bytes only for exact results.
      ...(info.kind === 'arrow' && kind === 'exact' ? { bytes: c.bytes } : {}),
      // Shadow-based results know durations of a few real drawables only: no min/mean/max then.
      ...(c.durations > 0 && kind === 'exact' ? { min: c.min, mean: c.sum / c.durations, max: c.max, shortest: c.shortest!, longest: c.longest! } : {}),
    });
  }
  categories.sort((a, b) => b.inclusive - a.inclusive || b.count - a.count || a.index - b.index);
  return {
    kind,
    range: [range[0], range[1]],
    categories,
    rows,
    messages: sums.messages,
    durations: sums.durations,
    drawables: sums.drawables,
    timelines,
    clampedStates: sums.clampedStates,
  };
}

/** The first LineIDMap's line IDs plus any other line ID that has data; at least 1. */
function timelinesInScope(meta: StatsMeta, cells: CellTable): number {
  const ids = new Set<number>(meta.lineIDMaps[0]?.rows.map((r) => r.lineID) ?? []);
  for (const lineID of cells.lineIDs()) ids.add(lineID);
  return Math.max(1, ids.size);
}

/**
 * The share of a state category: its exclusive time ÷ (range length × timelines in scope). Over
 * the states of a range these add up to the busy fraction of all timelines (≤ 1 for properly
 * nested states).
 */
export function stateShare(exclusive: number, width: number, timelines: number): number {
  return width > 0 && timelines > 0 ? exclusive / (width * timelines) : 0;
}
