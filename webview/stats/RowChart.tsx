// Jumpshot's histogram window as a bar chart, one bar group per timeline. Exclusive time is
// stacked (one segment per category, the rest as "other"; a bar is at most the range length);
// inclusive time is not stacked (nested states overlap): each category is its own bar, drawn from
// the widest (largest category) to the narrowest in front. Clicking a bar scrolls the timeline to that row.
import uPlot from 'uplot';
import { useMemo, useState } from 'preact/hooks';
import type { CategoryStat, RowStat } from '../../src/core/stats/types';
import { formatSeconds } from './format';
import { stackRows } from './model';
import type { Theme } from './theme';
import { barSlots, chartBase, xAxis, yAxis } from './chartOptions';
import { useUplot } from './useUplot';

const HEIGHT_PX = 220;

interface Props {
  readonly rows: readonly RowStat[];
  readonly categories: readonly CategoryStat[];
  readonly mode: 'inclusive' | 'exclusive';
  /** Range length (s): the y axis never needs more per timeline. */
  readonly range: number;
  readonly theme: Theme;
  readonly onRow: (lineID: number) => void;
}

export function RowChart(p: Props) {
  const stack = useMemo(() => stackRows(p.rows, p.categories, p.mode), [p.rows, p.categories, p.mode]);
  const [hover, setHover] = useState<number | undefined>(undefined);
  // uPlot draws series in order. Stacked: cumulative sums from the top segment down, so each bar
  // shows every segment at its own height. Unstacked: the largest category first (widest bar).
  const data = useMemo((): uPlot.AlignedData | undefined => {
    if (stack.segments.length === 0 || stack.labels.length === 0) return undefined;
    const xs = stack.labels.map((_, i) => i);
    if (!stack.stacked) return [xs, ...stack.segments.map((s) => s.values)];
    const cumulative: number[][] = [];
    let run = xs.map(() => 0);
    for (const s of stack.segments) {
      run = run.map((v, i) => v + s.values[i]!);
      cumulative.push(run);
    }
    return [xs, ...cumulative.reverse()];
  }, [stack]);
  const { container } = useUplot(
    (width) => ({
      ...chartBase(width, HEIGHT_PX, setHover),
      scales: {
        x: barSlots,
        // Up to the data, never beyond the range length (no bar can be longer).
        y: { range: (_u, _min, max) => [0, max > 0 ? Math.min(max * 1.05, p.range > 0 ? p.range : Infinity) : 1] },
      },
      axes: [
        xAxis(p.theme, {
          ticks: { stroke: p.theme.grid },
          // A tick per timeline while they fit (about 24 px each), else every k-th; uPlot's own
          // spacing skipped ranks even when there was room.
          splits: () => {
            const step = Math.max(1, Math.ceil(stack.labels.length / Math.max(1, Math.floor(width / 24))));
            return stack.labels.map((_, i) => i).filter((i) => i % step === 0);
          },
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? (stack.labels[v] ?? '') : '')),
        }),
        yAxis(p.theme, {
          // Wide enough for the longest label ("300.0 ms"), so none is cut at the panel's edge.
          size: (_u, values) => 18 + 8 * Math.max(8, ...(values ?? []).map((v) => String(v).length)),
          values: (_u, splits) => splits.map((v) => formatSeconds(v)),
        }),
      ],
      series: [
        {},
        ...(stack.stacked ? [...stack.segments].reverse() : stack.segments).map((s, k, all) => {
          // Unstacked bars narrow from the first (largest) to the last, so each stays visible.
          const f = stack.stacked ? 1 : 1 - k / (all.length + 1);
          return {
            label: s.name,
            fill: s.colour,
            stroke: p.theme.highContrast || !stack.stacked ? p.theme.foreground : s.colour,
            width: p.theme.highContrast || !stack.stacked ? 1 : 0,
            paths: uPlot.paths.bars!({ size: [0.7 * f, 60 * f] }),
            points: { show: false },
          };
        }),
      ],
    }),
    data,
    [p.theme, stack, p.range],
    (u) => {
      u.over.addEventListener('click', () => {
        const i = u.cursor.idx;
        if (i !== undefined && i !== null && stack.lineIDs[i] !== undefined) p.onRow(stack.lineIDs[i]!);
      });
      u.over.title = 'Click a bar to scroll the timeline to that row';
    },
  );
  if (data === undefined) return <p class="muted">No timed states in this range.</p>;
  return (
    <div>
      <div ref={container} class="chart" />
      <p class="muted hover-line">{hover === undefined ? 'Click a bar to scroll the timeline to that row.' : describeBar(stack, hover)}</p>
      <div class="legend">
        {stack.segments.map((s) => (
          <span key={s.name} class="legend-item">
            <span class="swatch" style={{ background: s.colour }} />
            {s.name}
          </span>
        ))}
      </div>
    </div>
  );
}

/** "3: 312.4 ms — MPI_Recv 180.1 ms, MPI_Waitall 90.2 ms, …" for the hovered bar (no total when unstacked). */
function describeBar(stack: ReturnType<typeof stackRows>, i: number): string {
  const parts = stack.segments
    .map((s) => [s.name, s.values[i] ?? 0] as const)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = parts.reduce((t, [, v]) => t + v, 0);
  const top = parts
    .slice(0, 3)
    .map(([n, v]) => `${n} ${formatSeconds(v)}`)
    .join(', ');
  return `${stack.labels[i] ?? i}: ${stack.stacked ? `${formatSeconds(total)} in states` : 'inclusive'} — ${top}${parts.length > 3 ? ', …' : ''}`;
}
