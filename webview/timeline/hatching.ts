/**
 * Hatching of what the data layer cannot draw yet: the loading stripes over what the loaded payload
 * does not cover (its time span, shown rows outside its row span), and over the part of a run a
 * preview has not converted yet.
 */
import type { Paint2D } from './paint2d';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import type { TimeScale } from './timeScale';
import type { InitMessage } from '../../src/protocol/webview';
import { rowOfSlot, visibleRows, type RowViewport } from './rowLayout';

type Ctx = Paint2D;

/** The stripe pattern per context (a pattern belongs to the context that made it). */
const stripeCache = new WeakMap<Ctx, { colour: string; pattern: CanvasPattern | null }>();

/** A diagonal-stripe pattern marking areas whose data is still loading. */
export function loadingPattern(ctx: Ctx, colour: string): CanvasPattern | string {
  let cached = stripeCache.get(ctx);
  if (cached?.colour !== colour) {
    const c = document.createElement('canvas');
    c.width = c.height = 12;
    const g = c.getContext('2d')!;
    g.strokeStyle = colour;
    g.lineWidth = 3;
    g.beginPath();
    g.moveTo(-3, 15);
    g.lineTo(15, -3);
    g.stroke();
    stripeCache.set(ctx, (cached = { colour, pattern: ctx.createPattern(c, 'repeat') }));
  }
  return cached.pattern ?? colour;
}

/**
 * A preview whose time axis spans the whole run (`init.preview.runEnd`): the part it has not
 * converted yet, after its last drawable, is hatched as loading.
 */
export function hatchNotConverted(ctx: Ctx, init: InitMessage, scale: TimeScale, w: number, h: number, p: Palette): void {
  const runEnd = init.preview?.runEnd;
  const convertedEnd = init.timeRange[1];
  if (runEnd === undefined || !(runEnd > convertedEnd)) return;
  const x0 = Math.max(0, scale.timeToPx(convertedEnd));
  if (!(x0 < w)) return;
  ctx.fillStyle = loadingPattern(ctx, p.loading);
  ctx.fillRect(x0, 0, w - x0, h);
}

export /** Hatches what the payload does not cover (time, or shown rows outside its row span); true when nothing is. */
function hatchUncovered(ctx: Ctx, w: number, h: number, x: (o: number) => number, rows: RowViewport, loaded: LoadedWindow, p: Palette): boolean {
  const hd = loaded.columns.header;
  ctx.fillStyle = loadingPattern(ctx, p.loading);
  const cx0 = x(0);
  const cx1 = x(hd.t1 - hd.baseTime);
  let complete = true;
  if (cx0 > 0) {
    ctx.fillRect(0, 0, cx0, h);
    complete = false;
  }
  if (cx1 < w) {
    ctx.fillRect(cx1, 0, w - cx1, h);
    complete = false;
  }
  const { first, end } = visibleRows(rows);
  let runStart = -1;
  for (let s = first; s <= end; s++) {
    const row = s < end ? rowOfSlot(rows, s) : -1;
    const missing = s < end && (row < hd.rowStart || row >= hd.rowEnd);
    if (missing && runStart < 0) runStart = s;
    if (!missing && runStart >= 0) {
      ctx.fillRect(0, runStart * rows.rowHeight - rows.scrollPx, w, (s - runStart) * rows.rowHeight);
      complete = false;
      runStart = -1;
    }
  }
  return complete;
}
