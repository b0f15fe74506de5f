/**
 * Rows thinner than a few pixels: states and preview boxes accumulated as colour density per pixel
 * row and column (density.ts) and drawn as one image — for the plot and the overview strip.
 */
import type { Paint2D } from './paint2d';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import type { Rgb } from './colour';
import { DensityRaster, mixColours } from './density';
import { slotLookup, visibleRows, type RowViewport } from './rowLayout';

type Ctx = Paint2D;

let raster: DensityRaster | undefined;
let image: ImageData | undefined;

/** Rows thinner than AGGREGATE_BELOW_PX: states and preview boxes as density per pixel row. */
export function drawAggregated(ctx: Ctx, w: number, h: number, x: (o: number) => number, rows: RowViewport, loaded: LoadedWindow, p: Palette): number {
  const W = Math.max(1, Math.ceil(w));
  const H = Math.max(1, Math.ceil(h));
  if (!raster || raster.width !== W || raster.height !== H) raster = new DensityRaster(W, H);
  const r = raster;
  r.clear();
  const n = paintDensity(r, x, rows, loaded, p);
  if (image?.width !== W || image.height !== H) image = new ImageData(W, H);
  r.toRgba(image.data);
  const off = scratchCanvas(W, H);
  off.getContext('2d')!.putImageData(image, 0, 0);
  ctx.drawImage(off, 0, 0, W, H);
  return n;
}

/** Adds the payload's states (per depth) and preview boxes to `r`; rows at slot × rowHeight − scroll. */
export function paintDensity(
  r: DensityRaster,
  x: (o: number) => number,
  rows: RowViewport,
  loaded: LoadedWindow,
  p: Pick<Palette, 'fillRgb' | 'hidden' | 'previewKey'>,
): number {
  const c = loaded.columns;
  const slotOf = slotLookup(rows);
  const rowH = rows.rowHeight;
  const { first, end } = visibleRows(rows);
  const st = c.states;
  let depth = -1;
  let drawn = 0;
  const grey: Rgb = [128, 128, 128];
  for (let i = 0; i < st.start.length; i++) {
    const slot = slotOf(st.row[i]!);
    if (slot < first || slot >= end) continue;
    const cat = st.category[i]!;
    if (p.hidden.has(cat)) continue;
    if (st.depth[i] !== depth) {
      r.flushLevel();
      depth = st.depth[i]!;
    }
    const y0 = slot * rowH - rows.scrollPx;
    r.add(x(st.start[i]!), Math.max(x(st.end[i]!), x(st.start[i]!) + 0.25), y0, y0 + rowH, p.fillRgb.get(cat) ?? grey);
    drawn++;
  }
  r.flushLevel();
  const sh = c.shadows;
  const sw = c.shadowWeights;
  const colours: Rgb[] = [];
  const weights: number[] = [];
  for (let i = 0; i < sh.start.length; i++) {
    const slot = slotOf(sh.row[i]!);
    if (slot < first || slot >= end) continue;
    colours.length = weights.length = 0;
    for (let k = sh.weightStart[i]!; k < sh.weightStart[i]! + sh.weightCount[i]!; k++) {
      if (p.hidden.has(sw.category[k]!)) continue;
      colours.push(p.fillRgb.get(p.previewKey ? p.previewKey(sw.category[k]!) : sw.category[k]!) ?? grey);
      weights.push(sw.excl[k]!);
    }
    const mix = mixColours(colours, weights);
    if (mix.total <= 0) continue;
    const y0 = slot * rowH - rows.scrollPx;
    r.add(x(sh.start[i]!), Math.max(x(sh.end[i]!), x(sh.start[i]!) + 0.25), y0, y0 + rowH, mix.rgb, Math.min(1, mix.total));
    drawn++;
  }
  r.flushLevel();
  return drawn;
}

let scratch: HTMLCanvasElement | undefined;
function scratchCanvas(w: number, h: number): HTMLCanvasElement {
  scratch ??= document.createElement('canvas');
  if (scratch.width !== w || scratch.height !== h) {
    scratch.width = w;
    scratch.height = h;
  }
  return scratch;
}
