/**
 * What a timeline needs to know about an opened trace before its first window: time range,
 * categories (with whole-trace summaries when the file has them), the Y maps as rows, the default
 * map, the tree depth and the reader's warnings. The host wraps it in its `init` message.
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import { defaultMapIndex, type RowLayout } from './rows';
import { summaryStats } from '../stats/summaryStats';

/** What the webview needs to know about a category to draw and label it. */
export interface CategoryInfo {
  readonly index: number;
  readonly name: string;
  readonly topology: 'event' | 'state' | 'arrow';
  readonly rgba: readonly [number, number, number, number];
  readonly width: number;
  /** Whole-trace figures from the file's category summaries (seconds), when it has them. */
  readonly summary?: { readonly count: number; readonly inclusive: number; readonly exclusive: number };
}

/** One Y-axis view ("Process View", …) as rows: row i is labelled `rows[i]`. */
export interface YMapInfo {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly string[];
}

/** The description of one opened trace. */
export interface TraceDescription {
  readonly timeRange: readonly [number, number];
  readonly categories: readonly CategoryInfo[];
  readonly yMaps: readonly YMapInfo[];
  /** Index of the Y map to show first (Process View when present). */
  readonly defaultMap: number;
  readonly treeDepth: number;
  readonly warnings: readonly string[];
}

export function describeTrace(file: Slog2File, layouts: readonly RowLayout[]): TraceDescription {
  const summaries = new Map((summaryStats(file.categories, file.timeRange, file.lineIDMaps)?.categories ?? []).map((s) => [s.index, s]));
  const categories: CategoryInfo[] = [...file.categories.values()].map((c) => {
    const s = summaries.get(c.index);
    return {
      index: c.index,
      name: c.name,
      topology: c.topology,
      rgba: [c.rgba[0], c.rgba[1], c.rgba[2], c.rgba[3]],
      width: c.width,
      ...(s ? { summary: { count: s.count, inclusive: s.inclusive, exclusive: s.exclusive } } : {}),
    };
  });
  return {
    timeRange: [file.timeRange[0], file.timeRange[1]],
    categories,
    yMaps: layouts.map((l) => ({ title: l.title, columns: l.columns, rows: l.labels })),
    defaultMap: defaultMapIndex(file.lineIDMaps),
    treeDepth: file.maxDepth,
    warnings: file.warnings.slice(0, 50),
  };
}
