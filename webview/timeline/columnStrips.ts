/**
 * Paints per-pixel-column marks (a colour key per column per visible row, 0 = nothing) as image
 * strips: each row's marks become a one-pixel line of colours, drawn down the row's box. A dense
 * view has tens of thousands of column runs, and a fillRect per run cost ~20 ms a frame (the
 * viewport bench's 271 k drawables). Columns are whole CSS pixels either way, and a box's top and
 * bottom rows are covered as a rect's, so the pixels are the runs' (dataLayerPixels.test.ts).
 *
 * At a whole number of device pixels per CSS pixel the lines are one image and each box is drawn
 * from its line (`drawFromSheet`); otherwise each line is a pattern filled as a rect. A pattern
 * fill is ~3× the raster of a drawImage of the same pixels: in a browser bench of the dense
 * frame's strips (4 depths × 32 rows × 1207 columns, fractional box edges) 4.1–4.4 ms as patterns,
 * 1.9–2.0 ms drawn from one image.
 *
 * Drawn from one image, the lines are in device pixels, and a depth's wide boxes can go into them
 * too (`addBox`, stripBoxes.ts: where canvas2d rasterises on the CPU), under its marks, as they
 * were filled before the marks were painted.
 */
import type { Paint2D } from './paint2d';
import { over, packCss, withAlpha } from './colour';
import { StripBoxes } from './stripBoxes';

type Ctx = Paint2D;

/** Lines of pixels in an image and the canvas they are put in, to be drawn from. */
interface Sheet {
  readonly canvas: HTMLCanvasElement;
  readonly image: ImageData;
}

export class ColumnStrips {
  private canvas: HTMLCanvasElement | undefined;
  private image: ImageData | undefined;
  /** All rows' lines (drawFromSheet), and the columns each row uses. */
  private readonly sheets: (Sheet | undefined)[] = [];
  private span = new Int32Array(0);
  /** The last mark met and its colour (marks come in runs: the colour is looked up per run). */
  private lastMark = 0;
  private lastPx = 0;
  /** lineOver's terms of the current mark, per line. */
  private readonly onNothing = new Uint32Array(3);
  private readonly replaces = new Uint8Array(3);
  /**
   * The colours of the marks met in this paint, direct-mapped by a mark's low bits. A dense row
   * changes colour every few columns (~25 000 runs a frame in the viewport bench), and each
   * `colourOf` is a map lookup to a CSS colour and another to its pixel.
   */
  private readonly memoMark = new Int32Array(MEMO_SLOTS);
  private readonly memoPx = new Uint32Array(MEMO_SLOTS);
  /** Wide boxes of the depth being drawn, painted with its marks (addBox). */
  private readonly boxes = new StripBoxes();

  /** Whether `addBox` can be used with `ctx`: canvas2d at a whole-number scale (the lines are drawn from one image). */
  takesBoxes(ctx: Ctx): boolean {
    return !ctx.pixelLine && wholeScale(ctx) !== undefined;
  }

  /** Boxes added since the last paint. */
  get boxCount(): number {
    return this.boxes.count;
  }

  /**
   * A wide box of visible row `slot`, CSS x [x0, x1), in `rgba` (rgbaOf), painted by the next
   * `paint` in its row's strip (the same device rows), under the marks; only where `takesBoxes`.
   */
  addBox(slot: number, x0: number, x1: number, rgba: number): void {
    this.boxes.add(slot, x0, x1, rgba);
  }

  /**
   * Paints the boxes added (addBox) and `marks` (`slots` rows of `cols` columns) into `ctx`: row
   * r's boxes and marked columns from y = `top(r)` to `bottom(r)`, marks in the colour `colourOf(mark)`.
   * Rows whose edges are whole device rows (drawData snaps them) take one line each, others three.
   */
  paint(
    ctx: Ctx,
    marks: Int32Array,
    slots: number,
    cols: number,
    colourOf: (mark: number) => string,
    top: (r: number) => number,
    bottom: (r: number) => number,
  ): void {
    try {
      this.paintAll(ctx, marks, slots, cols, colourOf, top, bottom);
    } finally {
      // the boxes are this paint's, drawn or not
      this.boxes.clear();
    }
  }

  private paintAll(...[ctx, marks, slots, cols, colourOf, top, bottom]: Parameters<ColumnStrips['paint']>): void {
    if (slots <= 0 || cols <= 0) return;
    // colourOf is this paint's: nothing remembered from another (mark 0 is never looked up)
    this.lastMark = 0;
    this.memoMark.fill(0);
    if (!ctx.pixelLine && this.drawFromSheet(ctx, marks, slots, cols, colourOf, top, bottom)) return;
    if (this.boxes.count > 0) throw new Error('ColumnStrips: boxes added where the lines are not drawn from one image (see takesBoxes)');
    const image = this.imageOf(cols);
    const px = new Uint32Array(image.data.buffer, image.data.byteOffset, cols);
    const line = this.canvas!.getContext('2d')!;
    const smoothing = ctx.imageSmoothingEnabled;
    ctx.imageSmoothingEnabled = false;
    for (let r = 0; r < slots; r++) {
      const height = bottom(r) - top(r);
      if (!(height > 0) || !this.lineOf(marks, r * cols, cols, colourOf, px, 0)) continue;
      if (ctx.pixelLine) {
        ctx.pixelLine(px, 0, cols, top(r), height);
        continue;
      }
      // The line repeated down the box, filled as a rect: its top and bottom edges anti-aliased
      // as the runs' fillRects were, its columns sampled as theirs at any scale.
      line.putImageData(image, 0, 0);
      const pattern = ctx.createPattern(this.canvas!, 'repeat-y');
      if (pattern === null) continue;
      ctx.fillStyle = pattern;
      ctx.fillRect(0, top(r), cols, height);
    }
    ctx.imageSmoothingEnabled = smoothing;
  }

  /** Row marks[from, from + cols) as colours into out[at…]; whether any column is marked. */
  private lineOf(marks: Int32Array, from: number, cols: number, colourOf: (mark: number) => string, out: Uint32Array, at: number): boolean {
    let used = false;
    for (let c = 0; c < cols; c++) {
      const m = marks[from + c]!;
      if (m === 0) {
        out[at + c] = 0;
        continue;
      }
      if (m !== this.lastMark) {
        this.lastMark = m;
        this.lastPx = this.pixelOf(m, colourOf);
      }
      out[at + c] = this.lastPx;
      used = true;
    }
    return used;
  }

  /**
   * lineOf into `lines` lines (line l at `at[l]`, `res` device pixels a column), each mark at
   * `coverage[l]`, source-over what they hold (boxes), unmarked columns kept; whether any column
   * is marked. coverPixels' terms (the colour on nothing, whether it replaces what is under) are
   * worked out once per run of a mark, not per column and line: a call per column and line took
   * ~2 ms of the viewport bench's deepest frame (32 rows × 3 lines × 1 206 columns).
   */
  private lineOver(
    marks: Int32Array,
    from: number,
    cols: number,
    colourOf: (mark: number) => string,
    out: Uint32Array,
    at: ArrayLike<number>,
    coverage: ArrayLike<number>,
    lines: number,
    res: number,
  ): boolean {
    let used = false;
    const { onNothing, replaces } = this;
    let termsOf = 0;
    for (let c = 0; c < cols; c++) {
      const m = marks[from + c]!;
      if (m === 0) continue;
      if (m !== this.lastMark) {
        this.lastMark = m;
        this.lastPx = this.pixelOf(m, colourOf);
      }
      const rgba = this.lastPx;
      if (m !== termsOf) {
        termsOf = m;
        for (let l = 0; l < lines; l++) {
          const cov = coverage[l]!;
          onNothing[l] = withAlpha(rgba, cov);
          replaces[l] = cov >= 1 && rgba >>> 24 === 255 ? 1 : 0;
        }
      }
      for (let l = 0; l < lines; l++) {
        const cov = coverage[l]!;
        if (!(cov > 0)) continue;
        const p0 = at[l]! + c * res;
        for (let p = p0; p < p0 + res; p++) {
          const under = out[p]!;
          out[p] = under === 0 ? onNothing[l]! : replaces[l] === 1 ? rgba : over(rgba, cov, under);
        }
      }
      used = true;
    }
    return used;
  }

  /**
   * Every row's line in one image (row r = line r), each box drawn from its line (drawSheetRows);
   * false, painting nothing, where that cannot be. With boxes (addBox) the lines are in device
   * pixels (`res` a CSS px), up to three a row: its whole device rows, and its partly covered top
   * and bottom rows, where each box and mark is blended at the part covered, one over the other,
   * as their rects were (the whole line blended at that part is not that where they overlap). A
   * row whose edges are whole device rows (drawData snaps them) has the first only: a third of the
   * blending and one drawImage (the viewport bench's ~20 000-box frame: 3 lines a row cost ~6 ms).
   */
  private drawFromSheet(...[ctx, marks, slots, cols, colourOf, top, bottom]: Parameters<ColumnStrips['paint']>): boolean {
    const k = wholeScale(ctx);
    if (k === undefined) return false;
    const boxed = this.boxes.count > 0;
    const res = boxed ? k : 1;
    const length = cols * res;
    const f = (ctx as CanvasRenderingContext2D).getTransform().f;
    // three lines a row where some row has a partly covered edge, else one (nothing more to put)
    const perRow = boxed && !edgesWhole(slots, top, bottom, k, f) ? 3 : 1;
    const sheet = this.sheetOf(boxed ? perRow : 0, length, slots * perRow);
    const px = new Uint32Array(sheet.image.data.buffer, sheet.image.data.byteOffset, length * slots * perRow);
    const span = this.spanOf(slots);
    const at = [0, 0, 0];
    const coverage = [1, 1, 1];
    for (let r = 0; r < slots; r++) {
      span[2 * r] = 0;
      if (!boxed) {
        span[2 * r + 1] = this.lineOf(marks, r * cols, cols, colourOf, px, r * cols) ? cols : 0;
        continue;
      }
      // the lines this row's strip draws from: whole device rows, a partly covered top, bottom
      const { y0, y1, a, b } = deviceRows(top(r), bottom(r), k, f);
      const row = perRow * r * length;
      let lines = 0;
      if (b > a) {
        at[lines] = row;
        coverage[lines++] = 1;
      }
      if (a > y0) {
        at[lines] = row + length;
        coverage[lines++] = Math.min(a, y1) - y0;
      }
      if (y1 > b && b >= a) {
        at[lines] = row + 2 * length;
        coverage[lines++] = y1 - b;
      }
      px.fill(0, row, row + perRow * length);
      const boxes = this.boxes.into(r, slots, px, at, coverage, lines, res, length);
      span[2 * r + 1] = this.lineOver(marks, r * cols, cols, colourOf, px, at, coverage, lines, res) || boxes ? cols : 0;
    }
    sheet.canvas.getContext('2d')!.putImageData(sheet.image, 0, 0);
    return drawSheetRows(ctx, sheet.canvas, slots, span, top, bottom, res, perRow === 3);
  }

  private spanOf(slots: number): Int32Array {
    if (this.span.length < 2 * slots) this.span = new Int32Array(2 * slots);
    return this.span;
  }

  /**
   * A sheet of `cols` × `rows` pixels and its canvas, one per layout (`lines` a row with boxes,
   * 1 or 3, or marks alone: 0): depths take turns within a frame, and a canvas resized each
   * time gets a new backing store, while one larger than its lines costs more each time its
   * pixels are put after it was drawn from (copied on write).
   */
  private sheetOf(lines: 0 | 1 | 3, cols: number, rows: number): Sheet {
    const i = lines === 3 ? 2 : lines;
    let sheet = this.sheets[i];
    if (sheet?.image.width !== cols || sheet.image.height !== rows) {
      const canvas = sheet?.canvas ?? document.createElement('canvas');
      canvas.width = cols;
      canvas.height = rows;
      this.sheets[i] = sheet = { canvas, image: new ImageData(cols, rows) };
    }
    return sheet;
  }

  private imageOf(cols: number): ImageData {
    if (this.image?.width !== cols) {
      this.canvas ??= document.createElement('canvas');
      this.canvas.width = cols;
      this.canvas.height = 1;
      this.image = new ImageData(cols, 1);
    }
    return this.image;
  }

  /** Mark `m`'s colour as a pixel, remembered for this paint. */
  private pixelOf(m: number, colourOf: (mark: number) => string): number {
    const slot = m & (MEMO_SLOTS - 1);
    if (this.memoMark[slot] === m) return this.memoPx[slot]!;
    const px = rgbaOf(colourOf(m));
    this.memoMark[slot] = m;
    this.memoPx[slot] = px;
    return px;
  }
}

/** Slots of the marks' colour memo (a power of two): a frame's marks are its shown categories. */
const MEMO_SLOTS = 256;

const packed = new Map<string, number>();
let probe: CanvasRenderingContext2D | undefined;

/** A CSS colour as ImageData bytes, read as a little-endian u32 (the canvas parses it: any CSS colour the painters use). */
export function rgbaOf(css: string): number {
  let v = packed.get(css);
  if (v === undefined) {
    const g = (probe ??= document.createElement('canvas').getContext('2d')!);
    g.fillStyle = '#000000';
    g.fillStyle = css;
    v = packCss(String(g.fillStyle));
    if (packed.size > 4096) packed.clear();
    packed.set(css, v);
  }
  return v;
}

/** The context's scale when it is a canvas2d context whose transform is a whole-number scale (and translation). */
export function wholeScale(ctx: Ctx): number | undefined {
  // a canvas2d context (the WebGL2 painter takes pixel lines)
  if (!(ctx instanceof CanvasRenderingContext2D)) return undefined;
  const t = ctx.getTransform();
  const k = t.a;
  return k > 0 && t.d === k && t.b === 0 && t.c === 0 && Number.isInteger(k) && Number.isInteger(t.e) && Number.isInteger(t.f) ? k : undefined;
}

/** Where a strip over CSS y [top, bottom) falls in device rows (y = user y · k + f): its edges, and the whole rows [a, b) inside. */
function deviceRows(top: number, bottom: number, k: number, f: number): { y0: number; y1: number; a: number; b: number } {
  const y0 = onEdge(top * k + f);
  const y1 = Math.max(y0, onEdge(bottom * k + f));
  return { y0, y1, a: Math.ceil(y0), b: Math.floor(y1) };
}

/** A device y within rounding of a pixel edge is on it (an edge snapped in CSS px at a scale of 3 comes back a ulp off). */
function onEdge(y: number): number {
  const n = Math.round(y);
  return Math.abs(y - n) < 1e-6 ? n : y;
}

/** Whether every row's strip has its top and bottom on device pixel edges (rowLayout.deviceBand). */
function edgesWhole(rows: number, top: (r: number) => number, bottom: (r: number) => number, k: number, f: number): boolean {
  for (let r = 0; r < rows; r++) {
    const { y0, y1, a, b } = deviceRows(top(r), bottom(r), k, f);
    if (y0 !== a || y1 !== b) return false;
  }
  return true;
}

/**
 * Draws row r of `sheet` (one line of pixels a row, `res` a column), columns [span[2r], span[2r+1]), down y =
 * `top(r)` to `bottom(r)`: the whole device rows inside stretched from the line without smoothing,
 * a partly covered row at the top or bottom at the part it covers (globalAlpha), as a rect's
 * anti-aliased edge; with `edgeLines`, the sheet has three lines a row (whole rows, top, bottom),
 * the top and bottom ones blended already. Only at a whole-number scale (wholeScale: columns then
 * fall on device pixels, as a pattern's do); false, drawing nothing, otherwise.
 */
export function drawSheetRows(
  painter: Ctx,
  sheet: HTMLCanvasElement,
  rows: number,
  span: Int32Array,
  top: (r: number) => number,
  bottom: (r: number) => number,
  res = 1,
  edgeLines = false,
): boolean {
  const k = wholeScale(painter);
  if (k === undefined) return false;
  const ctx = painter as CanvasRenderingContext2D;
  const smoothing = ctx.imageSmoothingEnabled;
  const alpha = ctx.globalAlpha;
  ctx.imageSmoothingEnabled = false;
  // device row y is user y·k + f
  const f = ctx.getTransform().f;
  const userY = (y: number): number => (y - f) / k;
  for (let r = 0; r < rows; r++) {
    const c0 = span[2 * r]!;
    const c1 = span[2 * r + 1]!;
    if (c1 <= c0) continue;
    const w = c1 - c0;
    const { y0, y1, a, b } = deviceRows(top(r), bottom(r), k, f);
    const s0 = c0 * res;
    const sw = w * res;
    const whole = edgeLines ? 3 * r : r;
    if (b > a) ctx.drawImage(sheet, s0, whole, sw, 1, c0, userY(a), w, (b - a) / k);
    if (a > y0) {
      // the top row, or the whole box when it lies within one device row
      ctx.globalAlpha = edgeLines ? alpha : alpha * (Math.min(a, y1) - y0);
      ctx.drawImage(sheet, s0, edgeLines ? whole + 1 : whole, sw, 1, c0, userY(a - 1), w, 1 / k);
    }
    if (y1 > b && b >= a) {
      ctx.globalAlpha = edgeLines ? alpha : alpha * (y1 - b);
      ctx.drawImage(sheet, s0, edgeLines ? whole + 2 : whole, sw, 1, c0, userY(b), w, 1 / k);
    }
    ctx.globalAlpha = alpha;
  }
  ctx.imageSmoothingEnabled = smoothing;
  return true;
}
