// Per-iteration lengths of runs A and B (uPlot lines); outlier iterations of either run marked.
import uPlot from 'uplot';
import { useMemo } from 'preact/hooks';
import type { RunIterations } from '../../src/protocol/compare';
import { formatSeconds } from '../stats/format';
import type { Theme } from '../stats/theme';
import { chartBase, xAxis, yAxis } from '../stats/chartOptions';
import { useUplot } from '../stats/useUplot';

interface Props {
  readonly a: RunIterations;
  readonly b: RunIterations;
  readonly theme: Theme;
  /** Clicking iteration k aligns the runs there. */
  readonly onPick: (iteration: number) => void;
}

const COLOUR_A = 'rgb(55, 148, 255)';
const COLOUR_B = 'rgb(241, 76, 76)';

export function IterationChart(p: Props) {
  const data = useMemo((): uPlot.AlignedData | undefined => {
    const n = Math.max(p.a.durations.length, p.b.durations.length);
    if (n === 0) return undefined;
    const xs = Array.from({ length: n }, (_, k) => k + 1);
    const ys = (d: readonly number[]) => xs.map((_, k) => (k < d.length ? d[k]! : null));
    return [xs, ys(p.a.durations), ys(p.b.durations)];
  }, [p.a, p.b]);
  const outliers = useMemo(() => [new Set(p.a.outlierIterations), new Set(p.b.outlierIterations)], [p.a, p.b]);
  const { container } = useUplot(
    (width) => ({
      ...chartBase(width, 150, undefined, true),
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [xAxis(p.theme), yAxis(p.theme, { size: 60, values: (_u, splits) => splits.map((v) => formatSeconds(v)) })],
      series: [
        {},
        { label: 'A', stroke: COLOUR_A, width: 1.5, points: { show: true, size: 4, fill: COLOUR_A } },
        { label: 'B', stroke: COLOUR_B, width: 1.5, points: { show: true, size: 4, fill: COLOUR_B } },
      ],
      hooks: {
        ready: [
          (u) => {
            u.over.addEventListener('click', () => {
              const idx = u.cursor.idx;
              if (idx !== null && idx !== undefined) p.onPick(idx);
            });
          },
        ],
        draw: [
          (u) => {
            // Outlier iterations: a ring around the point.
            const ctx = u.ctx;
            ctx.save();
            ctx.lineWidth = 2 * devicePixelRatio;
            for (const [series, set, colour] of [
              [1, outliers[0]!, COLOUR_A],
              [2, outliers[1]!, COLOUR_B],
            ] as const) {
              ctx.strokeStyle = colour;
              for (const k of set) {
                const y = u.data[series][k];
                if (y === null || y === undefined) continue;
                ctx.beginPath();
                ctx.arc(u.valToPos(k + 1, 'x', true), u.valToPos(y, 'y', true), 6 * devicePixelRatio, 0, 2 * Math.PI);
                ctx.stroke();
              }
            }
            ctx.restore();
          },
        ],
      },
    }),
    data,
    [p.theme, outliers],
  );
  if (data === undefined) return <p class="muted">No repeated structure found (no iterations).</p>;
  return (
    <div>
      <div ref={container} class="chart" />
      <p class="muted">
        Iteration length (marker {p.a.marker ?? '–'}): <span style={{ color: COLOUR_A }}>A</span>, <span style={{ color: COLOUR_B }}>B</span>; ringed: outliers.
        Click an iteration to align both runs there.
      </p>
      {p.a.outlierRanks.length + p.b.outlierRanks.length > 0 ? (
        <p class="warning">
          Slow ranks: {p.a.outlierRanks.length > 0 ? `A ${p.a.outlierRanks.join(', ')}` : ''}{' '}
          {p.b.outlierRanks.length > 0 ? `B ${p.b.outlierRanks.join(', ')}` : ''}
        </p>
      ) : null}
    </div>
  );
}
