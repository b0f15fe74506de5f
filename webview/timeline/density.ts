/**
 * Aggregation when rows are thinner than a pixel (a 10 000-rank run fitted into the editor, the
 * overview strip): drawables are accumulated per pixel (row × column) with their exact fractional
 * coverage, so a pixel row shows the mix of what its ranks are doing instead of the last one drawn.
 * Within one nesting level items do not overlap (same row: disjoint in time; other rows: other
 * space), so coverage adds up; each level is then composited over the ones below it, as the
 * painter's order does for wide rows. Pure (no DOM): the result is RGBA bytes for an ImageData.
 */
import type { Rgb } from './colour';
import type { OffsetMap } from './timeScale';

export class DensityRaster {
  /** Premultiplied RGBA of the composited levels. */
  private readonly base: Float32Array;
  /** The level being accumulated (premultiplied RGBA, coverage adds up). */
  private readonly layer: Float32Array;
  private layerUsed = false;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.base = new Float32Array(width * height * 4);
    this.layer = new Float32Array(width * height * 4);
  }

  /** Clears everything (the raster is reused between frames of the same size). */
  clear(): void {
    this.base.fill(0);
    this.layer.fill(0);
    this.layerUsed = false;
  }

  /** Adds a box [x0, x1) × [y0, y1) (px, fractional) of colour `c` at opacity `alpha` to the level. */
  add(x0: number, x1: number, y0: number, y1: number, c: Rgb, alpha = 1): void {
    const W = this.width;
    const H = this.height;
    if (x1 <= 0 || y1 <= 0 || x0 >= W || y0 >= H || x1 <= x0 || y1 <= y0) return;
    x0 = Math.max(0, x0);
    y0 = Math.max(0, y0);
    x1 = Math.min(W, x1);
    y1 = Math.min(H, y1);
    const L = this.layer;
    const r = c[0] / 255;
    const g = c[1] / 255;
    const b = c[2] / 255;
    const cx0 = Math.floor(x0);
    const cx1 = Math.ceil(x1);
    for (let py = Math.floor(y0); py < Math.ceil(y1); py++) {
      const v = (Math.min(y1, py + 1) - Math.max(y0, py)) * alpha;
      if (v <= 0) continue;
      let o = (py * W + cx0) * 4;
      for (let px = cx0; px < cx1; px++, o += 4) {
        const a = v * (Math.min(x1, px + 1) - Math.max(x0, px));
        L[o] += r * a;
        L[o + 1] += g * a;
        L[o + 2] += b * a;
        L[o + 3] += a;
      }
    }
    this.layerUsed = true;
  }

  /** Composites the accumulated level over the ones before it (call when the nesting depth changes). */
  flushLevel(): void {
    if (!this.layerUsed) return;
    const B = this.base;
    const L = this.layer;
    for (let o = 0; o < L.length; o += 4) {
      const a = L[o + 3]!;
      if (a === 0) continue;
      // coverage can exceed 1 where float32 offsets make neighbours overlap a little: normalise
      const k = a > 1 ? 1 / a : 1;
      const keep = 1 - Math.min(1, a);
      B[o] = L[o]! * k + B[o]! * keep;
      B[o + 1] = L[o + 1]! * k + B[o + 1]! * keep;
      B[o + 2] = L[o + 2]! * k + B[o + 2]! * keep;
      B[o + 3] = Math.min(1, a) + B[o + 3]! * keep;
    }
    L.fill(0);
    this.layerUsed = false;
  }

  /** Straight (not premultiplied) RGBA bytes, as ImageData wants them. */
  toRgba(out = new Uint8ClampedArray(this.width * this.height * 4)): Uint8ClampedArray {
    this.flushLevel();
    const B = this.base;
    for (let o = 0; o < B.length; o += 4) {
      const a = B[o + 3]!;
      if (a <= 0) {
        out[o] = out[o + 1] = out[o + 2] = out[o + 3] = 0;
        continue;
      }
      out[o] = (B[o]! / a) * 255;
      out[o + 1] = (B[o + 1]! / a) * 255;
      out[o + 2] = (B[o + 2]! / a) * 255;
      out[o + 3] = a * 255;
    }
    return out;
  }

  /** Premultiplied RGBA of one pixel (tests). */
  pixel(x: number, y: number): readonly [number, number, number, number] {
    this.flushLevel();
    const o = (y * this.width + x) * 4;
    return [this.base[o]!, this.base[o + 1]!, this.base[o + 2]!, this.base[o + 3]!];
  }
}

/** The mean colour of a shadow's category bands, weighted by their exclusive ratios. */
export function mixColours(colours: readonly Rgb[], weights: readonly number[]): { readonly rgb: Rgb; readonly total: number } {
  let r = 0;
  let g = 0;
  let b = 0;
  let total = 0;
  colours.forEach((c, i) => {
    const w = Math.max(0, weights[i] ?? 0);
    r += c[0] * w;
    g += c[1] * w;
    b += c[2] * w;
    total += w;
  });
  if (total <= 0) return { rgb: [0, 0, 0], total: 0 };
  return { rgb: [Math.round(r / total), Math.round(g / total), Math.round(b / total)], total };
}

// ---- communication summary ----------------------------------------------------------------------

export interface ArrowDensity {
  readonly cols: number;
  readonly rows: number;
  readonly binPx: number;
  readonly blockPx: number;
  /** Messages per (row block × time bin), row-major; both ends of an arrow count. */
  readonly counts: Float32Array;
  readonly max: number;
  /**
   * The cells counted in, in cell order: `cells[0..cellCount)`. The rows' centre
   * lines cross about half the row blocks, and a dense view's arrows fill few of those cells
   * (the viewport bench: ~6 000 of ~23 000), so the marks are made from these alone.
   */
  readonly cells: Int32Array;
  readonly cellCount: number;
}

/** The arrow columns the density needs (the payload's arrows table). */
export interface ArrowColumns {
  readonly start: ArrayLike<number>;
  readonly end: ArrayLike<number>;
  readonly fromRow: ArrayLike<number>;
  readonly toRow: ArrayLike<number>;
  readonly count: ArrayLike<number>;
  readonly flags: ArrayLike<number>;
}

/** Per row of the payload, the first cell of its block (−1: hidden or out of view); grown, kept. */
let blockCell = new Int32Array(0);
/**
 * The counts and cells arrowDensity returns, reused from call to call: two fresh arrays of a dense
 * frame's ~23 000 cells took a quarter of its time (zeroed, and garbage a frame later).
 */
let countsScratch = new Float32Array(0);
let cellsScratch = new Int32Array(0);

/**
 * Arrow density per row block × time bin: each arrow adds its message count (1, or a preview
 * arrow's count: flag `shadowFlag`) at its send end (block of its from-row, bin of its start) and
 * at its receive end. `map` maps a payload time offset to px (shift + offset·k, inline: a dense
 * frame has over a hundred thousand arrows); `rowY[row]` is the row's centre in the viewport (NaN
 * when hidden). `skip(i)` leaves arrows out (hidden categories). The counts and cells returned are
 * scratch space, valid until the next call.
 */
export function arrowDensity(
  a: ArrowColumns,
  map: OffsetMap,
  rowY: ArrayLike<number>,
  w: number,
  h: number,
  shadowFlag: number,
  skip?: (i: number) => boolean,
  /** Only these index ranges, [from, to) pairs (timeChunks.ts); undefined: all. */
  spans?: readonly number[],
  binPx = 6,
  blockPx = 6,
): ArrowDensity {
  const cols = Math.max(1, Math.ceil(w / binPx));
  const rows = Math.max(1, Math.ceil(h / blockPx));
  const nCells = cols * rows;
  if (countsScratch.length < nCells) {
    countsScratch = new Float32Array(nCells);
    cellsScratch = new Int32Array(nCells);
  }
  const counts = countsScratch.subarray(0, nCells);
  counts.fill(0);
  const ranges = spans ?? [0, a.start.length];
  const { shift, k: pxPerOffset } = map;
  const { start, end, fromRow, toRow, flags, count } = a;
  // a row's block worked out once, not per arrow end (a row lookup, a compare and a divide each)
  if (blockCell.length < rowY.length) blockCell = new Int32Array(rowY.length);
  const rowCell = blockCell;
  for (let r = 0; r < rowY.length; r++) {
    const y = rowY[r]!;
    // floors of non-negative values in integers (Math.floor per row is a call here)
    rowCell[r] = y >= 0 && y < h ? ((y / blockPx) | 0) * cols : -1;
  }
  const rowsKnown = rowY.length;
  for (let sp = 0; sp < ranges.length; sp += 2)
    for (let i = ranges[sp]!, last = ranges[sp + 1]!; i < last; i++) {
      if (skip !== undefined && skip(i)) continue;
      const k = (flags[i]! & shadowFlag) !== 0 ? Math.max(1, count[i]!) : 1;
      // each message counts at its send end and at its receive end (a cell per end in view)
      const sx = shift + start[i]! * pxPerOffset;
      const from = fromRow[i]!;
      const sc = from < rowsKnown ? rowCell[from]! : -1;
      if (sx >= 0 && sx < w && sc >= 0) counts[sc + ((sx / binPx) | 0)] += k;
      const rx = shift + end[i]! * pxPerOffset;
      const to = toRow[i]!;
      const rc = to < rowsKnown ? rowCell[to]! : -1;
      if (rx >= 0 && rx < w && rc >= 0) counts[rc + ((rx / binPx) | 0)] += k;
    }
  // the cells counted in and the largest count, in one pass over the cells (a compare per arrow
  // end in the loop above cost more: a dense frame has ~20 arrow ends a cell counted in)
  const cells = cellsScratch;
  let cellCount = 0;
  let max = 0;
  for (let c = 0; c < counts.length; c++) {
    const v = counts[c]!;
    if (v === 0) continue;
    cells[cellCount++] = c;
    if (v > max) max = v;
  }
  return { cols, rows, binPx, blockPx, counts, max, cells, cellCount };
}

/** Opacity of a density cell: logarithmic, so a single message still shows next to thousands. */
export function densityAlpha(count: number, max: number): number {
  if (count <= 0 || max <= 0) return 0;
  return 0.2 + 0.75 * (Math.log1p(count) / Math.log1p(max));
}

/**
 * Row labels when rows are thinner than a label: one label per band of about `bandPx` px naming
 * the range of slots it covers ("0–15"), from the slot's own labels.
 */
export function labelBands(
  slotCount: number,
  rowHeight: number,
  scrollPx: number,
  heightPx: number,
  labelOfSlot: (slot: number) => string,
  bandPx = 18,
): { readonly y0: number; readonly y1: number; readonly text: string }[] {
  const out: { y0: number; y1: number; text: string }[] = [];
  const perBand = Math.max(1, Math.ceil(bandPx / rowHeight));
  const first = Math.max(0, Math.floor(scrollPx / rowHeight / perBand) * perBand);
  for (let s = first; s < slotCount; s += perBand) {
    const y0 = s * rowHeight - scrollPx;
    if (y0 > heightPx) break;
    const last = Math.min(slotCount, s + perBand) - 1;
    const a = labelOfSlot(s);
    const b = labelOfSlot(last);
    out.push({ y0, y1: (last + 1) * rowHeight - scrollPx, text: last === s ? a : `${a}–${b}` });
  }
  return out;
}
