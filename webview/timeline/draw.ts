/**
 * Canvas painters of the timeline layers except the data layer (drawData.ts): grid and axis (with
 * the cursor's time), row labels (rank ranges when rows are thinner than a label), the overview
 * strip (aggregated per pixel row) and the overlay. Each takes a 2D context already scaled to CSS
 * pixels.
 */
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import { TimeScale, formatTime, niceTicks } from './timeScale';
import { AGGREGATE_BELOW_PX, rowOfSlot, visibleRows, type RowViewport } from './rowLayout';
import { DensityRaster, labelBands } from './density';
import { loadingPattern } from './hatching';
import { paintDensity } from './drawDensity';

export { drawData, type DataFrame, type DataOptions } from './drawData';
export { hatchNotConverted } from './hatching';

type Ctx = CanvasRenderingContext2D;

/** Row labels are drawn one per row while rows are at least this tall, else as rank ranges. */
const LABEL_ROW_MIN_PX = 9;
/** Rows lower than this get their labels in a smaller font. */
const LABEL_SMALL_BELOW_PX = 14;

export function drawGrid(ctx: Ctx, w: number, h: number, scale: TimeScale, rows: RowViewport, p: Palette): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  if (rows.rowHeight >= AGGREGATE_BELOW_PX * 2) {
    const { first, end } = visibleRows(rows);
    ctx.fillStyle = p.rowAlt;
    for (let s = first; s < end; s++) if (s % 2 === 1) ctx.fillRect(0, s * rows.rowHeight - rows.scrollPx, w, rows.rowHeight);
  }
  ctx.fillStyle = p.grid;
  for (const t of niceTicks(scale, 90).times) ctx.fillRect(Math.round(scale.timeToPx(t)), 0, 1, h);
}

/** The time axis; with `cursorX`, the cursor's time in a box on the axis (over the tick labels). */
export function drawAxis(ctx: Ctx, w: number, h: number, scale: TimeScale, p: Palette, cursorX?: number): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  const ticks = niceTicks(scale, 90);
  ctx.fillStyle = p.foreground;
  ctx.font = p.font;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  for (const t of ticks.times) {
    const x = Math.round(scale.timeToPx(t));
    ctx.fillRect(x, h - 6, 1, 6);
    ctx.fillText(formatTime(t, ticks.step), x + 3, h / 2 - 2);
  }
  ctx.fillStyle = p.border;
  ctx.fillRect(0, h - 1, w, 1);
  if (cursorX !== undefined && cursorX >= 0 && cursorX <= w) {
    const label = formatTime(scale.pxToTime(cursorX), ticks.step, ticks.step / 100);
    const tw = ctx.measureText(label).width;
    const lx = Math.max(0, Math.min(w - tw - 8, cursorX - tw / 2 - 4));
    ctx.fillStyle = p.accent;
    ctx.fillRect(lx, 1, tw + 8, h - 4);
    ctx.fillRect(Math.round(cursorX), 0, 1, h);
    ctx.fillStyle = p.accentForeground;
    ctx.fillText(label, lx + 4, h / 2 - 1);
  }
}

/** One label per row, or rank ranges ("0–122") when rows are thinner than a line of text. */
export function drawLabels(ctx: Ctx, w: number, h: number, rows: RowViewport, labels: readonly string[], p: Palette, hoverRow: number | undefined): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  ctx.font = p.font;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const rh = rows.rowHeight;
  if (rh < LABEL_ROW_MIN_PX) {
    for (const band of labelBands(rows.rowCount, rh, rows.scrollPx, h, (s) => labels[rowOfSlot(rows, s)] ?? '', Math.max(LABEL_ROW_MIN_PX + 5, 18))) {
      ctx.fillStyle = p.border;
      ctx.fillRect(w - 6, band.y0, 4, 1);
      ctx.fillStyle = p.foreground;
      ctx.fillText(band.text, w - 8, Math.min(h - 6, Math.max(6, (band.y0 + band.y1) / 2)), w - 12);
    }
  } else {
    if (rh < LABEL_SMALL_BELOW_PX) ctx.font = p.font.replace(/^\s*[\d.]+px/, `${Math.max(8, Math.floor(rh - 1))}px`);
    const { first, end } = visibleRows(rows);
    for (let s = first; s < end; s++) {
      const row = rowOfSlot(rows, s);
      const y = s * rh - rows.scrollPx;
      if (row === hoverRow) {
        ctx.fillStyle = p.selection;
        ctx.fillRect(0, y, w, rh);
      } else if (s % 2 === 1) {
        ctx.fillStyle = p.rowAlt;
        ctx.fillRect(0, y, w, rh);
      }
      ctx.fillStyle = p.foreground;
      ctx.fillText(labels[row] ?? '', w - 8, y + rh / 2, w - 12);
    }
  }
  ctx.fillStyle = p.border;
  ctx.fillRect(w - 1, 0, 1, h);
}

/**
 * The whole-trace overview: all rows squeezed into the strip height, aggregated per pixel row
 * (states per nesting level, preview boxes as the mix of their categories).
 */
export function drawOverviewData(ctx: Ctx, w: number, h: number, scale: TimeScale, rowCount: number, loaded: LoadedWindow | undefined, p: Palette): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  if (!loaded || rowCount === 0) {
    ctx.fillStyle = loadingPattern(ctx, p.loading);
    ctx.fillRect(0, 0, w, h);
    return;
  }
  const W = Math.max(1, Math.ceil(w));
  const H = Math.max(1, Math.ceil(h));
  const r = new DensityRaster(W, H);
  const x = scale.offsetMapper(loaded.columns.header.baseTime);
  paintDensity(r, x, { rowCount, rowHeight: h / rowCount, scrollPx: 0, heightPx: h }, loaded, p);
  const image = new ImageData(W, H);
  r.toRgba(image.data);
  const off = document.createElement('canvas');
  off.width = W;
  off.height = H;
  off.getContext('2d')!.putImageData(image, 0, 0);
  ctx.drawImage(off, 0, 0, W, H);
}

/** The cursor line, the drag-select rectangle and the loading note. */
export function drawOverlay(
  ctx: Ctx,
  w: number,
  h: number,
  scale: TimeScale,
  p: Palette,
  hoverX: number | undefined,
  select: readonly [number, number] | undefined,
  note: string | undefined,
  /** Something is already drawn under the overlay (a dependence chain's veil). */
  keep = false,
): void {
  if (!keep) ctx.clearRect(0, 0, w, h);
  ctx.font = p.font;
  if (select) {
    const [a, b] = select[0] < select[1] ? select : [select[1], select[0]];
    ctx.fillStyle = p.selection;
    ctx.fillRect(a, 0, b - a, h);
    ctx.fillStyle = p.accent;
    ctx.fillRect(a, 0, 1, h);
    ctx.fillRect(b, 0, 1, h);
    ctx.fillStyle = p.foreground;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    const d = scale.pxToTime(b) - scale.pxToTime(a);
    ctx.fillText(`Δ ${formatTime(d, d / 10)}`, b + 4, 4);
  }
  if (hoverX !== undefined) {
    // the cursor line; its time is on the axis (drawAxis)
    ctx.fillStyle = p.accent;
    ctx.fillRect(Math.round(hoverX), 0, 1, h);
  }
  if (note) {
    ctx.textBaseline = 'bottom';
    ctx.textAlign = 'right';
    const tw = ctx.measureText(note).width;
    ctx.fillStyle = p.backgroundCss;
    ctx.fillRect(w - tw - 12, h - 20, tw + 10, 18);
    ctx.fillStyle = p.muted;
    ctx.fillText(note, w - 7, h - 5);
  }
}
