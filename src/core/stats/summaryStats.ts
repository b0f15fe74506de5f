/**
 * The instant whole-file result: SLOG-2 2.0.6 CategoryMap summaries (SLOG2.md §12.3) give, per
 * category, the count and the inclusive/exclusive ratios relative to the root's duration. Times are
 * ratio × duration; min/max are unknown; the mean is exact (Σ durations / count). The ratios are
 * f32, so the seconds carry ~1e-7 relative error. Returns undefined when the file has no summaries
 * (2.0.5) or no real category has a count.
 */
import type { Category, LineIDMap } from '../model/types';
import { stateShare } from './rangeStats';
import type { CategoryStat, RangeStats } from './types';

export function summaryStats(
  categories: ReadonlyMap<number, Category>,
  timeRange: readonly [number, number],
  lineIDMaps: readonly LineIDMap[] = [],
): RangeStats | undefined {
  // Timelines in scope as for exact results (the first map's line IDs; data rows are unknown here).
  const timelines = Math.max(1, new Set(lineIDMaps[0]?.rows.map((r) => r.lineID) ?? []).size);
  const duration = timeRange[1] - timeRange[0];
  const out: CategoryStat[] = [];
  let any = false;
  for (const c of categories.values()) {
    if (c.index < 0 || c.summary === undefined) continue;
    any = true;
    const { count, incl, excl } = c.summary;
    if (!(count > 0)) continue;
    const inclusive = Number.isFinite(incl) ? incl * duration : 0;
    const exclusive = c.topology === 'state' && Number.isFinite(excl) ? excl * duration : 0;
    out.push({
      index: c.index,
      name: c.name,
      kind: c.topology,
      rgba: c.rgba,
      count,
      inclusive,
      exclusive,
      mean: c.topology === 'event' ? 0 : inclusive / count,
      ...(c.topology === 'state' ? { share: stateShare(exclusive, duration, timelines) } : {}),
    });
  }
  if (!any || out.length === 0) return undefined;
  const arrows = out.filter((c) => c.kind === 'arrow').reduce((s, c) => s + c.count, 0);
  out.sort((a, b) => b.inclusive - a.inclusive || b.count - a.count || a.index - b.index);
  return {
    kind: 'summary',
    range: [timeRange[0], timeRange[1]],
    categories: out,
    rows: [],
    // Only the number of messages is known without reading nodes.
    messages: { count: arrows, bytes: 0, withoutSize: arrows, pairs: [], tags: [], comms: [], sizes: [] },
    durations: [],
    drawables: out.reduce((s, c) => s + c.count, 0),
    timelines,
    // Unknown without reading the nodes.
    clampedStates: 0,
  };
}
