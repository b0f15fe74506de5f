// The wait-state analysis over the timeline: the waiting part of each state hatched, and the
// critical path as a strong bar along its segments with vertical joins where it changes rank.
// Data: (row, t0, t1) triples per Y map from the host's `analysisOverlay` message.
import type { AnalysisOverlayMessage } from '../../src/protocol/webview';
import { rowTop, visibleRows, type RowViewport } from './rowLayout';
import type { Palette } from './theme';
import type { TimeScale } from './timeScale';

export interface AnalysisOverlay {
  data: AnalysisOverlayMessage | undefined;
  showWaits: boolean;
  showPath: boolean;
}

const PATH_COLOUR = '#ff3b30';
/** Same inner padding of a row as the data layer (draw.ts). */
const ROW_PAD = 2;

let hatch: CanvasPattern | null | undefined;

function hatchPattern(ctx: CanvasRenderingContext2D, p: Palette): CanvasPattern | string {
  if (hatch === undefined) {
    const c = document.createElement('canvas');
    c.width = 6;
    c.height = 6;
    const g = c.getContext('2d')!;
    g.strokeStyle = p.highContrast ? '#ffffff' : 'rgba(0, 0, 0, 0.55)';
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(0, 6);
    g.lineTo(6, 0);
    g.moveTo(-1, 1);
    g.lineTo(1, -1);
    g.moveTo(5, 7);
    g.lineTo(7, 5);
    g.stroke();
    hatch = ctx.createPattern(c, 'repeat');
  }
  return hatch ?? 'rgba(0, 0, 0, 0.4)';
}

export function drawAnalysisOverlay(
  ctx: CanvasRenderingContext2D,
  w: number,
  scale: TimeScale,
  rows: RowViewport,
  mapIndex: number,
  p: Palette,
  o: AnalysisOverlay,
): void {
  const map = o.data?.byMap[mapIndex];
  if (map === undefined) return;
  const { first, end } = visibleRows(rows);
  const [t0, t1] = [scale.pxToTime(0), scale.pxToTime(w)];
  ctx.save();
  if (o.showWaits) {
    ctx.fillStyle = hatchPattern(ctx, p);
    const a = map.waits;
    for (let i = 0; i + 2 < a.length; i += 3) {
      const row = a[i]!;
      if (row < first || row >= end || a[i + 2]! < t0 || a[i + 1]! > t1) continue;
      const x0 = Math.max(-2, scale.timeToPx(a[i + 1]!));
      const x1 = Math.min(w + 2, scale.timeToPx(a[i + 2]!));
      if (x1 - x0 < 0.5) continue;
      ctx.fillRect(x0, rowTop(rows, row) + ROW_PAD, x1 - x0, rows.rowHeight - 2 * ROW_PAD);
    }
  }
  if (o.showPath) {
    const a = map.path;
    ctx.strokeStyle = PATH_COLOUR;
    ctx.lineWidth = 3;
    ctx.beginPath();
    let prev: { x: number; y: number } | undefined;
    for (let i = 0; i + 2 < a.length; i += 3) {
      const y = rowTop(rows, a[i]!) + rows.rowHeight - ROW_PAD - 1.5;
      const x0 = scale.timeToPx(a[i + 1]!);
      const x1 = scale.timeToPx(a[i + 2]!);
      if (prev !== undefined) {
        ctx.moveTo(prev.x, prev.y);
        ctx.lineTo(x0, y);
      }
      ctx.moveTo(x0, y);
      ctx.lineTo(x1, y);
      prev = { x: x1, y };
    }
    ctx.stroke();
  }
  ctx.restore();
}
