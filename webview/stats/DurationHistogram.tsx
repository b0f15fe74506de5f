// Duration distribution of one category: log-scale buckets (BUCKETS_PER_DECADE per ×10) as bars.
import uPlot from 'uplot';
import { useMemo, useState } from 'preact/hooks';
import type { DurationHistogram as Histogram } from '../../src/core/stats/types';
import { formatSeconds } from './format';
import type { Theme } from './theme';
import { barSlots, chartBase, xAxis, yAxis } from './chartOptions';
import { useUplot } from './useUplot';

interface Props {
  readonly histogram: Histogram;
  readonly colour: string;
  readonly theme: Theme;
}

export function DurationHistogram(p: Props) {
  const [hover, setHover] = useState<number | undefined>(undefined);
  const data = useMemo((): uPlot.AlignedData | undefined => {
    const b = p.histogram.buckets;
    if (b.length === 0) return undefined;
    return [b.map((_, i) => i), b.map((x) => x.count)];
  }, [p.histogram]);
  const { container } = useUplot(
    (width) => ({
      ...chartBase(width, 160, setHover),
      scales: { x: barSlots, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] } },
      axes: [
        xAxis(p.theme, {
          values: (_u, splits) =>
            splits.map((v) => (Number.isInteger(v) && p.histogram.buckets[v] !== undefined ? formatSeconds(p.histogram.buckets[v]!.lower) : '')),
        }),
        yAxis(p.theme, { size: 50 }),
      ],
      series: [
        {},
        {
          label: 'count',
          fill: p.colour,
          stroke: p.theme.highContrast ? p.theme.foreground : p.colour,
          width: p.theme.highContrast ? 1 : 0,
          paths: uPlot.paths.bars!({ size: [0.9, 40] }),
          points: { show: false },
        },
      ],
    }),
    data,
    [p.theme, p.colour, p.histogram],
  );
  return (
    <div>
      {data === undefined ? <p class="muted">Every instance has zero duration.</p> : <div ref={container} class="chart" />}
      {hover !== undefined && p.histogram.buckets[hover] !== undefined ? (
        <p class="muted hover-line">
          {formatSeconds(p.histogram.buckets[hover]!.lower)} – {formatSeconds(p.histogram.buckets[hover]!.upper)}: {p.histogram.buckets[hover]!.count} instances
        </p>
      ) : undefined}
      {p.histogram.zero > 0 ? <p class="muted">{p.histogram.zero} instances of zero duration (not shown).</p> : undefined}
    </div>
  );
}
