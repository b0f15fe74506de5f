// A dependence chain over the timeline: everything not in the chain under a veil of the
// background colour (greyed out), the chain's states outlined in a strong colour and each hop
// drawn as an arrow from its cause to its effect. Data: the host's `chain` answer.
import type { ChainInfo } from '../../src/protocol/webview';
import { rowPad, rowTop, slotOfRow, visibleRows, type RowViewport } from './rowLayout';
import type { Palette } from './theme';
import type { TimeScale } from './timeScale';

export const CHAIN_COLOUR = '#ff9f0a';
/** How much of the background covers what is not in the chain. */
const VEIL_ALPHA = 0.72;

interface ChainFrame {
  readonly shown: (row: number) => boolean;
  readonly box: (row: number, t0: number, t1: number) => { readonly x: number; readonly y: number; readonly w: number; readonly h: number };
}

function frameOf(w: number, scale: TimeScale, rows: RowViewport): ChainFrame {
  const pad = rowPad(rows.rowHeight);
  return {
    shown: (row) => row >= 0 && slotOfRow(rows, row) >= 0,
    // The state's outermost box (nested states sit inside it), at least 2 px wide.
    box: (row, t0, t1) => {
      const x0 = Math.max(-4, scale.timeToPx(t0));
      const x1 = Math.min(w + 4, Math.max(scale.timeToPx(t0) + 2, scale.timeToPx(t1)));
      return { x: x0, y: rowTop(rows, row) + pad, w: Math.max(2, x1 - x0), h: rows.rowHeight - 2 * pad };
    },
  };
}

/**
 * Greys out what is not in the chain: a veil of the background with the chain's states cut out
 * (also cutting out what is under the veil there). Clears the canvas first unless `keep`.
 */
export function drawChainVeil(
  ctx: CanvasRenderingContext2D,
  w: number,
  h: number,
  scale: TimeScale,
  rows: RowViewport,
  mapIndex: number,
  p: Palette,
  chain: ChainInfo,
  keep = false,
): void {
  const { shown, box } = frameOf(w, scale, rows);
  ctx.save();
  if (!keep) ctx.clearRect(0, 0, w, h);
  ctx.globalAlpha = VEIL_ALPHA;
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  ctx.globalAlpha = 1;
  // The chain's states show through the veil.
  ctx.globalCompositeOperation = 'destination-out';
  for (const n of chain.nodes) {
    const row = n.rows[mapIndex] ?? -1;
    if (!shown(row)) continue;
    const b = box(row, n.start, n.end);
    ctx.fillRect(b.x, b.y, b.w, b.h);
  }
  ctx.restore();
}

/** The chain's states outlined and its hops drawn as arrows from cause to effect. */
export function drawChain(ctx: CanvasRenderingContext2D, w: number, scale: TimeScale, rows: RowViewport, mapIndex: number, chain: ChainInfo): void {
  const { shown, box } = frameOf(w, scale, rows);
  const { first, end } = visibleRows(rows);
  ctx.save();
  ctx.strokeStyle = CHAIN_COLOUR;
  ctx.lineWidth = 2;
  for (const n of chain.nodes) {
    const row = n.rows[mapIndex] ?? -1;
    if (!shown(row)) continue;
    const slot = slotOfRow(rows, row);
    if (slot < first - 1 || slot > end) continue;
    const b = box(row, n.start, n.end);
    ctx.lineWidth = n.parent < 0 ? 3 : 2;
    ctx.strokeRect(b.x - 1, b.y - 1, b.w + 2, b.h + 2);
  }
  // Hops: from the cause (on the parent's row backward, on the node's row forward) to the effect.
  ctx.lineWidth = 2;
  ctx.fillStyle = CHAIN_COLOUR;
  for (const n of chain.nodes) {
    if (n.parent < 0 || n.causeTime === undefined || n.effectTime === undefined) continue;
    const parent = chain.nodes[n.parent]!;
    const [causeRow, effectRow] =
      chain.direction === 'backward' ? [n.rows[mapIndex] ?? -1, parent.rows[mapIndex] ?? -1] : [parent.rows[mapIndex] ?? -1, n.rows[mapIndex] ?? -1];
    if (!shown(causeRow) || !shown(effectRow)) continue;
    const mid = (row: number) => rowTop(rows, row) + rows.rowHeight / 2;
    arrow(ctx, scale.timeToPx(n.causeTime), mid(causeRow), scale.timeToPx(n.effectTime), mid(effectRow));
  }
  ctx.restore();
}

function arrow(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  const a = Math.atan2(y1 - y0, x1 - x0);
  const len = 8;
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - len * Math.cos(a - 0.4), y1 - len * Math.sin(a - 0.4));
  ctx.lineTo(x1 - len * Math.cos(a + 0.4), y1 - len * Math.sin(a + 0.4));
  ctx.closePath();
  ctx.fill();
}
