/**
 * SLOG-1's preview statistics (SLOG1.md §10) as a table over time: one row per bin (start, end
 * in seconds) and one column per record type with the bin's summed overlap in bin widths — 4.0
 * means four ranks spent the whole bin in that state. What Jumpshot-3's preview window plotted;
 * `mpe-trace stats FILE.slog --preview` prints it.
 */
import type { Table } from '../core/stats/tables';
import type { Slog1PreviewStatistics } from '../core/formats/slog1/facts';

export function previewStatisticsTable(stats: Slog1PreviewStatistics): Table {
  const width = (stats.end - stats.start) / stats.bins;
  const rows: (string | number)[][] = [];
  for (let i = 0; i < stats.bins; i++) {
    const row: (string | number)[] = [stats.start + i * width, i === stats.bins - 1 ? stats.end : stats.start + (i + 1) * width];
    for (const s of stats.sets) row.push(s.bins[i]!);
    rows.push(row);
  }
  return { columns: ['start', 'end', ...stats.sets.map((s) => s.label)], rows };
}
