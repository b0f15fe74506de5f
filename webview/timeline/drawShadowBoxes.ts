/**
 * The payload's state shadows (preview boxes of a coarse tree depth), drawn after its states by
 * drawData.ts: per box a stack of category bands.
 */
import type { Paint2D } from './paint2d';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import { cssRgba } from './colour';
import { boxHeight, nestingInset, rowPad, slotLookup, visibleRows, type RowViewport } from './rowLayout';
import { BORDER_MIN_H_PX, labelFits, textOn, type TextFitter } from './drawStyle';
import { PREVIEW_STATE } from '../../src/protocol/wire';

/**
 * State shadows (preview boxes): one band per category, height ∝ exclusion ratio, largest at the
 * bottom, the stack centred vertically (Jumpshot's CumulativeExclusionRatio); the largest
 * category's name in its band when it fits.
 */
export function drawShadowBoxes(
  ctx: Paint2D,
  w: number,
  x: (o: number) => number,
  rows: RowViewport,
  loaded: LoadedWindow,
  p: Palette,
  names: ReadonlyMap<number, string> | undefined,
  fit: TextFitter,
): number {
  const c = loaded.columns;
  const { first, end } = visibleRows(rows);
  const slotOf = slotLookup(rows);
  const rowH = rows.rowHeight;
  const boxH = boxHeight(rowH);
  const maxNest = c.header.maxNesting;
  const sh = c.shadows;
  const sw = c.shadowWeights;
  const outline = p.fill.get(PREVIEW_STATE) ?? p.muted;
  let drawn = 0;
  for (let i = 0; i < sh.start.length; i++) {
    const slot = slotOf(sh.row[i]!);
    if (slot < first || slot >= end) continue;
    let x0 = x(sh.start[i]!);
    let x1 = x(sh.end[i]!);
    if (x1 < 0 || x0 > w) continue;
    x0 = Math.max(-1, x0);
    x1 = Math.min(w + 1, Math.max(x1, x0 + 1));
    const inset = nestingInset(sh.depth[i]!, maxNest, boxH);
    const top = slot * rowH - rows.scrollPx + rowPad(rowH) + inset;
    const bh = boxH - 2 * inset;
    const from = sh.weightStart[i]!;
    const n = sh.weightCount[i]!;
    let total = 0;
    for (let k = from; k < from + n; k++) total += sw.excl[k]!;
    const scaleBand = total > 1 ? 1 / total : 1;
    let y = top + bh - (bh - Math.min(1, total) * bh) / 2;
    let biggest = -1;
    let biggestY = 0;
    let biggestH = 0;
    for (let k = from; k < from + n; k++) {
      const band = sw.excl[k]! * scaleBand * bh;
      if (band <= 0) continue;
      y -= band;
      // a hidden category leaves its share of the box empty (the others keep their places)
      if (p.hidden.has(sw.category[k]!)) continue;
      ctx.fillStyle = p.fill.get(p.previewKey ? p.previewKey(sw.category[k]!) : sw.category[k]!) ?? p.muted;
      ctx.fillRect(x0, y, x1 - x0, band);
      if (band > biggestH) {
        biggest = sw.category[k]!;
        biggestY = y;
        biggestH = band;
      }
    }
    if (x1 - x0 >= 3 && bh >= BORDER_MIN_H_PX) {
      ctx.strokeStyle = outline;
      ctx.lineWidth = 1;
      ctx.strokeRect(Math.round(x0) + 0.5, Math.round(top) + 0.5, Math.max(1, Math.round(x1 - x0) - 1), Math.max(1, Math.round(bh) - 1));
    }
    if (names && biggest !== -1 && labelFits(Math.min(x1, w) - Math.max(x0, 0), biggestH)) {
      const text = fit.fit(names.get(biggest) ?? '', Math.min(x1, w) - Math.max(x0, 0));
      const rgb = p.fillRgb.get(biggest);
      if (text !== undefined) {
        ctx.fillStyle = rgb ? cssRgba(textOn(rgb)) : p.foreground;
        ctx.fillText(text, Math.max(x0, 0) + 3, biggestY + biggestH / 2);
      }
    }
    drawn++;
  }
  return drawn;
}
