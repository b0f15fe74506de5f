/** Overlay marks: the selected drawable's outline and the time markers of pinned popups. */
import type { Palette } from './theme';
import { formatDuration, type TimeScale } from './timeScale';
import { boxHeight, deviceBand, nestingInset, rowPad, rowTop, slotOfRow, visibleRows, type RowViewport } from './rowLayout';
import type { Selection } from './selection';

export function drawMarks(
  ctx: CanvasRenderingContext2D,
  w: number,
  h: number,
  scale: TimeScale,
  rows: RowViewport,
  p: Palette,
  selected: Selection | undefined,
  maxNesting: number,
  markers: readonly number[],
  range: readonly [number, number] | undefined,
  /** A region's rows (slot order): the band covers only them. */
  rangeRows?: readonly number[],
): void {
  ctx.save();
  if (range) {
    // the selected range: a shaded band with its duration (the ruler); a region: over its rows only
    const a = scale.timeToPx(range[0]);
    const b = scale.timeToPx(range[1]);
    let top = 0;
    let bottom = h;
    if (rangeRows && rangeRows.length > 0) {
      let lo = Infinity;
      let hi = -Infinity;
      for (const r of rangeRows) {
        const s = slotOfRow(rows, r);
        if (s < 0) continue;
        lo = Math.min(lo, s);
        hi = Math.max(hi, s);
      }
      if (lo <= hi) {
        top = lo * rows.rowHeight - rows.scrollPx;
        bottom = (hi + 1) * rows.rowHeight - rows.scrollPx;
      }
    }
    ctx.fillStyle = p.selection;
    ctx.globalAlpha = 0.5;
    ctx.fillRect(a, top, b - a, bottom - top);
    ctx.globalAlpha = 1;
    ctx.fillStyle = p.accent;
    ctx.fillRect(Math.round(a), top, 1, bottom - top);
    ctx.fillRect(Math.round(b), top, 1, bottom - top);
    const label = `range ${formatDuration(range[1] - range[0])}`;
    ctx.font = p.font;
    ctx.textBaseline = 'bottom';
    ctx.textAlign = 'left';
    const tw = ctx.measureText(label).width;
    const lx = Math.min(Math.max(2, a + 4), w - tw - 4);
    ctx.fillStyle = p.backgroundCss;
    const ly = Math.min(h, bottom);
    ctx.fillRect(lx - 2, ly - 20, tw + 4, 18);
    ctx.fillStyle = p.foreground;
    ctx.fillText(label, lx, ly - 5);
  }
  ctx.setLineDash([4, 3]);
  ctx.strokeStyle = p.foreground;
  ctx.lineWidth = 1;
  for (const t of markers) {
    const x = Math.round(scale.timeToPx(t)) + 0.5;
    if (x < 0 || x > w) continue;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, h);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  if (selected) {
    const { first, end } = visibleRows(rows);
    const x0 = scale.timeToPx(selected.start);
    const x1 = Math.max(scale.timeToPx(selected.end), x0 + 1);
    ctx.strokeStyle = p.accent;
    ctx.lineWidth = 2;
    if (selected.kind === 'arrow') {
      const mid = rows.rowHeight / 2;
      ctx.beginPath();
      ctx.moveTo(x0, rowTop(rows, selected.row) + mid);
      ctx.lineTo(scale.timeToPx(selected.end), rowTop(rows, selected.toRow) + mid);
      ctx.stroke();
    } else if (slotOfRow(rows, selected.row) >= first && slotOfRow(rows, selected.row) < end) {
      const boxH = boxHeight(rows.rowHeight);
      const inset = selected.kind === 'event' ? 0 : nestingInset(selected.depth, maxNesting, boxH);
      let top = rowTop(rows, selected.row) + rowPad(rows.rowHeight) + inset;
      let height = boxH - 2 * inset;
      // around a state's box as drawn: on whole device rows (rowLayout.deviceBand)
      if (selected.kind !== 'event') {
        const [t, b] = deviceBand(ctx.getTransform(), top, height, [0, 0]);
        top = t;
        height = b - t;
      }
      const pad = selected.kind === 'event' ? 4 : 1;
      ctx.strokeRect(Math.max(-2, x0 - pad), top - 1, Math.min(w + 4, x1 - x0 + 2 * pad), height + 2);
    }
  }
  ctx.restore();
}
