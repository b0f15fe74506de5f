/**
 * Wide state boxes as pixels of the column strips' lines (columnStrips.ts), where canvas2d
 * rasterises on the CPU: a box of one row and depth spans the same device rows as that row's
 * strip, so its fill is the line's pixels over its columns, its left and right edges at the part
 * of the pixel they cover (the top and bottom edges are the strip's, as for the marks). In the
 * most zoomed-in frame of the viewport bench ~20 000 boxes as fillRects cost ~11 ms of raster
 * (flushed inside the frame's script), in lines they cost a fill each. No DOM (node tests).
 */
import { over, withAlpha } from './colour';

export class StripBoxes {
  /** The boxes in the order given: visible row, CSS x span, colour (rgbaOf). */
  private slot = new Int32Array(256);
  private x = new Float64Array(512);
  private rgba = new Uint32Array(256);
  private n = 0;
  /** Box indices by row (a counting sort: each row's in the order given), and each row's first. */
  private order = new Int32Array(0);
  private first = new Int32Array(0);
  private sortedRows = -1;

  get count(): number {
    return this.n;
  }

  /** A box of visible row `slot` over CSS x [x0, x1), in `rgba`; boxes of a row are painted in the order added. */
  add(slot: number, x0: number, x1: number, rgba: number): void {
    if (this.n === this.slot.length) this.grow();
    const k = this.n++;
    this.slot[k] = slot;
    this.x[2 * k] = x0;
    this.x[2 * k + 1] = x1;
    this.rgba[k] = rgba;
    this.sortedRows = -1;
  }

  clear(): void {
    this.n = 0;
    this.sortedRows = -1;
  }

  /**
   * Paints row `row`'s boxes into `lines` lines of `out`, line l at `at[l]`, each box at
   * `coverage[l]` there (1: the strip's whole device rows; less: a partly covered one), source-over
   * what the lines hold (unpremultiplied RGBA u32, ImageData byte order); the lines are `length`
   * pixels, `res` a CSS px. `rows`: the visible rows the boxes were added for. Whether any pixel
   * was painted.
   */
  into(row: number, rows: number, out: Uint32Array, at: ArrayLike<number>, coverage: ArrayLike<number>, lines: number, res: number, length: number): boolean {
    if (this.n === 0 || row < 0 || row >= rows) return false;
    if (this.sortedRows !== rows) this.sortByRow(rows);
    const { x, rgba, order } = this;
    let painted = false;
    // pixels from `clear` on (from the lines' starts) are untouched: a row's boxes come by start
    // time, each past the last but for a shared edge pixel, so a box's inside is one fill
    let clear = 0;
    for (let q = this.first[row]!; q < this.first[row + 1]!; q++) {
      const b = order[q]!;
      const x0 = Math.max(0, x[2 * b]! * res);
      const x1 = Math.min(length, x[2 * b + 1]! * res);
      if (!(x1 > x0)) continue;
      const colour = rgba[b]!;
      const a = Math.ceil(x0);
      const e = Math.floor(x1);
      // the parts of the pixels at either end covered (a rect's anti-aliased edges)
      const left = a > x0 ? Math.min(a, x1) - x0 : 0;
      const right = e >= a && x1 > e ? x1 - e : 0;
      for (let l = 0; l < lines; l++) {
        const start = at[l]!;
        const cov = coverage[l]!;
        if (left > 0) blendPixel(out, start + a - 1, colour, cov * left);
        if (e > a) {
          if (a >= clear) out.fill(withAlpha(colour, cov), start + a, start + e);
          else coverPixels(out, start + a, start + e, colour, cov);
        }
        if (right > 0) blendPixel(out, start + e, colour, cov * right);
      }
      clear = Math.max(clear, Math.ceil(x1));
      painted = true;
    }
    return painted;
  }

  private sortByRow(rows: number): void {
    if (this.first.length < rows + 1) this.first = new Int32Array(rows + 1);
    if (this.order.length < this.n) this.order = new Int32Array(this.slot.length);
    const first = this.first;
    first.fill(0, 0, rows + 1);
    for (let k = 0; k < this.n; k++) {
      const s = this.slot[k]!;
      if (s >= 0 && s < rows) first[s + 1]!++;
    }
    for (let r = 0; r < rows; r++) first[r + 1]! += first[r]!;
    const next = Int32Array.from(first.subarray(0, rows));
    for (let k = 0; k < this.n; k++) {
      const s = this.slot[k]!;
      if (s >= 0 && s < rows) this.order[next[s]!++] = k;
    }
    this.sortedRows = rows;
  }

  private grow(): void {
    const n = this.slot.length * 2;
    const slot = new Int32Array(n);
    slot.set(this.slot);
    const x = new Float64Array(2 * n);
    x.set(this.x);
    const rgba = new Uint32Array(n);
    rgba.set(this.rgba);
    this.slot = slot;
    this.x = x;
    this.rgba = rgba;
  }
}

/** `rgba` at `coverage` source-over out[from, to). */
export function coverPixels(out: Uint32Array, from: number, to: number, rgba: number, coverage: number): void {
  if (!(coverage > 0)) return;
  const onNothing = withAlpha(rgba, coverage);
  const replaces = coverage >= 1 && rgba >>> 24 === 255;
  for (let p = from; p < to; p++) {
    const under = out[p]!;
    out[p] = under === 0 ? onNothing : replaces ? rgba : over(rgba, coverage, under);
  }
}

/** `rgba` at `coverage` source-over out[p]. */
function blendPixel(out: Uint32Array, p: number, rgba: number, coverage: number): void {
  const under = out[p]!;
  out[p] = under === 0 ? withAlpha(rgba, coverage) : over(rgba, coverage, under);
}
