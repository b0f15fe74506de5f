// The uPlot options every chart of the side panels shares: no legend (the panels draw their own),
// a hover cursor without drag-zoom, themed axes. Each chart adds its scales, series and hooks.
import type uPlot from 'uplot';
import type { Theme } from './theme';

/** Size, no legend, a cursor that reports the hovered index (no drag zoom, no points unless asked). */
export function chartBase(width: number, height: number, onHover?: (index: number | undefined) => void, points = false): uPlot.Options {
  return {
    width,
    height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, ...(points ? {} : { points: { show: false } }) },
    ...(onHover ? { hooks: { setCursor: [(u: uPlot) => onHover(u.cursor.idx ?? undefined)] } } : {}),
    series: [],
  };
}

/** The x axis in the theme's colours, without grid lines. */
export function xAxis(theme: Theme, extra: uPlot.Axis = {}): uPlot.Axis {
  return { stroke: theme.foreground, grid: { show: false }, font: theme.font, ...extra };
}

/** The y axis in the theme's colours, with grid lines. */
export function yAxis(theme: Theme, extra: uPlot.Axis = {}): uPlot.Axis {
  return { stroke: theme.foreground, grid: { stroke: theme.grid }, font: theme.font, ...extra };
}

/** Categorical x (bar index): half a slot of margin on each side. */
export const barSlots: uPlot.Scale = { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] };
