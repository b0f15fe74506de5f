/**
 * The payload's state shadows (preview boxes of a coarse tree depth), drawn after its states by
 * drawData.ts: per box a stack of category bands.
 *
 * Box sides and band edges lie on device pixels (Jumpshot, too, draws them on whole pixels), so no
 * two bands of a box share a pixel and the fills can go out grouped: per nesting depth, outermost
 * first (as the states), one fill style per colour, then the depth's outlines and its names. Set
 * per band, the fill style was most of a coarse frame: a whole-trace view of a 64-row trace draws
 * ~800 boxes of ~10 bands, and Chromium parses the colour string at each setting (~1 µs): 12 ms
 * of a 22 ms frame.
 */
import type { Paint2D } from './paint2d';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import { cssRgba } from './colour';
import { boxHeight, nestingInset, rowPad, slotLookup, snapY as snapYTo, visibleRows, type RowViewport } from './rowLayout';
import { BORDER_MIN_H_PX, labelFits, textOn, type TextFitter } from './drawStyle';
import { PREVIEW_STATE } from '../../src/protocol/wire';

/** One nesting depth's shapes: band rectangles by fill style, outlines, names. */
interface DepthShapes {
  /** Fill style → x, y, width, height of each band, in drawing order. */
  readonly fills: Map<string, number[]>;
  /** x, y, width, height of each outline. */
  readonly outlines: number[];
  /** Per name: its category, x, y, width it may take. */
  readonly names: number[];
}

/**
 * The shapes of the last frame by depth, emptied and refilled by the next (a frame's few thousand
 * numbers are not made anew each frame). A map that has seen many fill styles is dropped.
 */
const shapesByDepth = new Map<number, DepthShapes>();
const MOST_STYLES = 256;

function frameShapes(): Map<number, DepthShapes> {
  for (const [depth, shapes] of shapesByDepth) {
    if (shapes.fills.size > MOST_STYLES) shapesByDepth.delete(depth);
    for (const rects of shapes.fills.values()) rects.length = 0;
    shapes.outlines.length = 0;
    shapes.names.length = 0;
  }
  return shapesByDepth;
}

/**
 * State shadows (preview boxes): one band per category, height ∝ exclusion ratio, largest at the
 * bottom, the stack centred vertically (Jumpshot's CumulativeExclusionRatio); the largest
 * category's name in its band when it fits. Returns how many boxes it drew.
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
  const sh = c.shadows;
  if (sh.start.length === 0) return 0;
  const { first, end } = visibleRows(rows);
  const slotOf = slotLookup(rows);
  const rowH = rows.rowHeight;
  const boxH = boxHeight(rowH);
  const maxNest = c.header.maxNesting;
  const sw = c.shadowWeights;
  const m = ctx.getTransform();
  // user units → the nearest device pixel edge (the transform is a scale and a translation)
  const snapX = (v: number): number => (Math.round(v * m.a + m.e) - m.e) / m.a;
  const snapY = (v: number): number => snapYTo(m, v);
  const byDepth = frameShapes();
  let drawn = 0;
  for (let i = 0; i < sh.start.length; i++) {
    const slot = slotOf(sh.row[i]!);
    if (slot < first || slot >= end) continue;
    let x0 = x(sh.start[i]!);
    let x1 = x(sh.end[i]!);
    if (x1 < 0 || x0 > w) continue;
    x0 = Math.max(-1, x0);
    x1 = Math.min(w + 1, Math.max(x1, x0 + 1));
    const depth = sh.depth[i]!;
    let shapes = byDepth.get(depth);
    if (shapes === undefined) byDepth.set(depth, (shapes = { fills: new Map(), outlines: [], names: [] }));
    const inset = nestingInset(depth, maxNest, boxH);
    const top = slot * rowH - rows.scrollPx + rowPad(rowH) + inset;
    const bh = boxH - 2 * inset;
    const left = snapX(x0);
    const width = Math.max(snapX(x1) - left, 1 / m.a);
    const from = sh.weightStart[i]!;
    const n = sh.weightCount[i]!;
    let total = 0;
    for (let k = from; k < from + n; k++) total += sw.excl[k]!;
    const scaleBand = total > 1 ? 1 / total : 1;
    let y = top + bh - (bh - Math.min(1, total) * bh) / 2;
    let bottom = snapY(y);
    let biggest = -1;
    let biggestY = 0;
    let biggestH = 0;
    for (let k = from; k < from + n; k++) {
      const band = sw.excl[k]! * scaleBand * bh;
      if (band <= 0) continue;
      y -= band;
      const bandTop = snapY(y);
      const bandBottom = bottom;
      bottom = bandTop;
      // a hidden category leaves its share of the box empty (the others keep their places)
      if (p.hidden.has(sw.category[k]!)) continue;
      if (bandBottom > bandTop) {
        const style = p.fill.get(p.previewKey ? p.previewKey(sw.category[k]!) : sw.category[k]!) ?? p.muted;
        let rects = shapes.fills.get(style);
        if (rects === undefined) shapes.fills.set(style, (rects = []));
        rects.push(left, bandTop, width, bandBottom - bandTop);
      }
      if (band > biggestH) {
        biggest = sw.category[k]!;
        biggestY = y;
        biggestH = band;
      }
    }
    if (x1 - x0 >= 3 && bh >= BORDER_MIN_H_PX) {
      // inside the box's own pixels, so that no other box's bands lie under it
      const y0 = snapY(top);
      shapes.outlines.push(left + 0.5, y0 + 0.5, width - 1, snapY(top + bh) - y0 - 1);
    }
    if (names && biggest !== -1 && labelFits(Math.min(x1, w) - Math.max(x0, 0), biggestH)) {
      shapes.names.push(biggest, Math.max(x0, 0) + 3, biggestY + biggestH / 2, Math.min(x1, w) - Math.max(x0, 0));
    }
    drawn++;
  }
  const outline = p.fill.get(PREVIEW_STATE) ?? p.muted;
  for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
    const shapes = byDepth.get(depth)!;
    for (const [style, rects] of shapes.fills) {
      if (rects.length === 0) continue;
      ctx.fillStyle = style;
      for (let k = 0; k < rects.length; k += 4) ctx.fillRect(rects[k]!, rects[k + 1]!, rects[k + 2]!, rects[k + 3]!);
    }
    // one rect at a time: a path of many strokes its corners otherwise (Skia: other corner pixels)
    const o = shapes.outlines;
    if (o.length > 0) {
      ctx.strokeStyle = outline;
      ctx.lineWidth = 1;
      for (let k = 0; k < o.length; k += 4) ctx.strokeRect(o[k]!, o[k + 1]!, o[k + 2]!, o[k + 3]!);
    }
    const t = shapes.names;
    for (let k = 0; k < t.length; k += 4) {
      const category = t[k]!;
      const text = fit.fit(names?.get(category) ?? '', t[k + 3]!);
      if (text === undefined) continue;
      const rgb = p.fillRgb.get(category);
      ctx.fillStyle = rgb ? cssRgba(textOn(rgb)) : p.foreground;
      ctx.fillText(text, t[k + 1]!, t[k + 2]!);
    }
  }
  return drawn;
}
