/**
 * The pixels of the data layer's pixel layers (eventHeads.ts draws them), where canvas2d rasterises
 * on the CPU: the arrows' density marks (anti-aliased rects, `fillRect`, composed into one tile per
 * sub-pixel offset and stamped, `stamp`), and the event heads in a layer of their own, kept while
 * the view pans (`scroll`) and drawn over the marks (`drawLayer`).
 * Each head is a triangle (xe ± tri at the row's top + 1, its tip tri × 1.4 below), stamped from a
 * sample mask (headMask.ts: 8 × 8 samples a pixel as 64 bits, computed once per size and eighth-of-a-pixel
 * offset) into one layer of device pixels. Within a colour run the heads are one shape, as a
 * path's union: a pixel's samples are OR-ed and its colour is the run's at their coverage over
 * what was under the run; runs go source-over in order. No DOM: the node tests check it
 * (headLayer.test.ts).
 */
import { ColourMemo, MEMO_SHIFT } from './colourMemo';
import { over } from './colour';
import { STEPS, bits, headMask, type Mask } from './headMask';
import { EventMarks } from './eventMarks';
import { HeadsKernel, type RowSpan } from './headsKernel';

/** Runs before the cells are cleared (run numbers stay small integers). */
const RUN_LIMIT = 2 ** 30;
/** A rect of a stamped shape (HeadLayer.stamp): CSS px from the place, its colour (rgbaOf). */
export interface StampRect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly rgba: number;
}

export interface HeadLayerOptions {
  /** Heads composed by the WebAssembly kernel (headsKernel.ts) where there is one; the JS loop otherwise. */
  readonly kernel?: boolean;
}

export class HeadLayer {
  protected px = new Uint32Array(0);
  /**
   * Per pixel, four words side by side (one cache line for the four): the run that last covered
   * it, its samples in that run (rows 0–3, rows 4–7), the pixel before that run.
   */
  protected cell = new Int32Array(0);
  /** Runs count on across frames, so a cell of an earlier frame never matches (no clearing). */
  protected run = 1;
  protected cols = 0;
  protected rowsPx = 0;
  protected scale = 1;
  /** Device rows touched this frame: [y0, y1). */
  protected y0 = 0;
  protected y1 = 0;
  /**
   * Per device row, whether any of its pixels may be set (a row not marked is all 0): heads sit
   * at the rows' tops and density marks on their centre lines, so about half the rows in [y0, y1)
   * hold nothing, and clearing, scrolling and compositing skip them.
   */
  protected used = new Uint8Array(0);
  /** The device columns heads are drawn in this frame, [clip0, clip1): all, or what a scroll uncovered. */
  private clip0 = 0;
  private clip1 = 0;
  private readonly memo = new ColourMemo();
  /** Masks of the current head size, by sub-pixel offset (fx · (STEPS + 1) + fy). */
  private masks: (Mask | undefined)[] = [];
  /** Where stamp() composes its tiles. */
  private tileLayer: HeadLayer | undefined;
  private maskHalf = -1;
  /** add()'s one head. */
  private one: EventMarks | undefined;
  /** The kernel holding px and the cells, when composing there (asked for, and WebAssembly at hand). */
  private kernel: HeadsKernel | undefined;
  private readonly span: RowSpan = { y0: 0, y1: 0 };

  constructor(options: HeadLayerOptions = {}) {
    if (options.kernel === true) this.kernel = HeadsKernel.create();
  }

  /** Whether the heads are composed by the WebAssembly kernel. */
  get composesInKernel(): boolean {
    return this.kernel !== undefined;
  }

  /** Starts a frame `width` × `height` CSS px at `scale` device pixels per CSS pixel. */
  begin(width: number, height: number, scale: number): void {
    this.scale = scale > 0 ? scale : 1;
    const cols = Math.max(0, Math.ceil(width * this.scale));
    const rows = Math.max(0, Math.ceil(height * this.scale));
    if (cols !== this.cols || rows !== this.rowsPx || this.run > RUN_LIMIT) {
      // the kernel's pixels and cells are in its memory (the JS loop's cells stay empty)
      this.px = this.kernel ? this.kernel.layout(cols, rows) : new Uint32Array(cols * rows);
      this.cell = new Int32Array(this.kernel ? 0 : cols * rows * 4);
      this.used = this.kernel ? this.kernel.used : new Uint8Array(rows);
      this.cols = cols;
      this.rowsPx = rows;
      this.run = 1;
    } else {
      for (let y = this.y0; y < this.y1; y++) {
        if (this.used[y] === 0) continue;
        this.px.fill(0, y * cols, (y + 1) * cols);
        this.used[y] = 0;
      }
    }
    this.y0 = rows;
    this.y1 = 0;
    this.clip0 = 0;
    this.clip1 = cols;
    this.run++;
  }

  /**
   * Starts a frame that keeps the last one's pixels, moved `dx` device pixels (a whole number,
   * |dx| < the width: the view panned and nothing else changed): the columns it uncovers are
   * cleared, and heads added this frame are drawn in those columns only (the others hold them
   * already). Rects (fillRect, stamp) are not clipped: a layer of them is begun afresh.
   */
  scroll(dx: number): void {
    const { px, cols } = this;
    for (let y = this.y0; y < this.y1; y++) {
      if (this.used[y] === 0) continue;
      const row = y * cols;
      if (dx > 0) {
        px.copyWithin(row + dx, row, row + cols - dx);
        px.fill(0, row, row + dx);
      } else if (dx < 0) {
        px.copyWithin(row, row - dx, row + cols);
        px.fill(0, row + cols + dx, row + cols);
      }
    }
    this.clip0 = dx < 0 ? cols + dx : 0;
    this.clip1 = dx > 0 ? dx : dx < 0 ? cols : 0;
    this.run++;
  }

  /** The pixels of `top` (a layer of the same size and scale) source-over these. */
  drawLayer(top: HeadLayer): void {
    if (top.cols !== this.cols || top.rowsPx !== this.rowsPx) throw new RangeError('drawLayer: layers of different sizes');
    const { px, cols } = this;
    const src = top.px;
    for (let y = top.y0; y < top.y1; y++) {
      if (top.used[y] === 0) continue;
      const from = y * cols;
      // a row this layer holds nothing in (all 0) takes the top's pixels as they are: the heads sit
      // at the rows' tops, the density marks on their centre lines, so most of the heads' rows are
      // copied, not blended
      if (this.used[y] === 0) px.set(src.subarray(from, from + cols), from);
      else overRow(px, src, from, from + cols, this.memo);
      this.used[y] = 1;
    }
    if (top.y1 > top.y0) {
      this.y0 = Math.min(this.y0, top.y0);
      this.y1 = Math.max(this.y1, top.y1);
    }
  }

  /** The next heads are another colour run. */
  nextRun(): void {
    this.run++;
  }

  /** A head at CSS x `xe`, its base at CSS y `top`, half width `tri`, in colour `rgba` (rgbaOf), in this run. */
  add(xe: number, top: number, tri: number, rgba: number): void {
    const one = (this.one ??= new EventMarks());
    one.begin();
    if (one.xe.length === 0) one.grow();
    one.xe[0] = xe;
    one.top[0] = top;
    one.rgba[0] = rgba;
    one.count = 1;
    this.heads(one, tri, false);
  }

  /** The heads of `marks` (xe, top, colour, run), in order, half width `tri`: a new run where a mark's run changes. */
  addMarks(marks: EventMarks, tri: number): void {
    this.heads(marks, tri, true);
  }

  /**
   * One loop over the heads (no call per head: its doubles would be boxed): each head's mask
   * composed into the pixels, its samples OR-ed with the run's where the run covered the pixel
   * before. `runs`: the marks' runs start new ones, else they all go in the current run.
   */
  private heads(marks: EventMarks, tri: number, runs: boolean): void {
    if (this.kernel) {
      const { span } = this;
      span.y0 = this.y0;
      span.y1 = this.y1;
      this.run = this.kernel.compose(marks, tri, this.scale, runs, this.run, this.clip0, this.clip1, span);
      // views of the kernel's memory, new if it grew
      this.px = this.kernel.px;
      this.used = this.kernel.used;
      this.y0 = span.y0;
      this.y1 = span.y1;
      return;
    }
    const k = this.scale;
    const half = tri * k;
    if (half !== this.maskHalf) {
      this.masks = [];
      this.maskHalf = half;
    }
    const masks = this.masks;
    const { xe: xes, top: tops, rgba: colours, run: runOfMark, count } = marks;
    const { px, cell, cols, rowsPx, clip0, clip1, used } = this;
    const memo = this.memo;
    const { under: memoUnder, count: memoCount, rgba: memoRgba, colour: memoColour } = memo;
    let { run, y0: top0, y1: top1 } = this;
    let lastMarkRun = Number.NaN;
    let rgba = memo.tableRgba;
    let byCount: Uint32Array = memo.table;
    let opaque = rgba >>> 24 === 255;
    for (let h = 0; h < count; h++) {
      if (runs && runOfMark[h] !== lastMarkRun) {
        lastMarkRun = runOfMark[h]!;
        run++;
      }
      if (colours[h] !== rgba) {
        byCount = memo.byCount(colours[h]!);
        rgba = memo.tableRgba;
        opaque = rgba >>> 24 === 255;
      }
      const x0 = (xes[h]! - tri) * k;
      const y0 = tops[h]! * k;
      const ix = Math.floor(x0);
      const iy = Math.floor(y0);
      const fx = Math.round((x0 - ix) * STEPS);
      const fy = Math.round((y0 - iy) * STEPS);
      const key = fx * (STEPS + 1) + fy;
      const mask = masks[key] ?? (masks[key] = headMask(half, fx, fy));
      const j0 = Math.max(0, -iy);
      const j1 = Math.min(mask.h, rowsPx - iy);
      const i0 = Math.max(0, clip0 - ix);
      const i1 = Math.min(mask.w, clip1 - ix);
      if (j1 <= j0 || i1 <= i0) continue;
      if (iy + j0 < top0) top0 = iy + j0;
      if (iy + j1 > top1) top1 = iy + j1;
      const { bits: maskBits, from, to } = mask;
      for (let j = j0; j < j1; j++) {
        used[iy + j] = 1;
        const line = (iy + j) * cols + ix;
        const m = j * mask.w;
        const a = Math.max(i0, from[j]!);
        const b = Math.min(i1, to[j]!);
        for (let i = a; i < b; i++) {
          const q = 3 * (m + i);
          const n = maskBits[q + 2]!;
          if (n === 0) continue;
          const at = line + i;
          const c = at << 2;
          let l = maskBits[q]!;
          let hi = maskBits[q + 1]!;
          let count = n;
          let base: number;
          if (cell[c] === run) {
            // within a run the heads are one shape: their samples are OR-ed
            const ol = cell[c + 1]!;
            const oh = cell[c + 2]!;
            l |= ol;
            hi |= oh;
            if (l === ol && hi === oh) continue;
            count = bits(l) + bits(hi);
            base = cell[c + 3]! >>> 0;
          } else {
            cell[c] = run;
            base = px[at]!;
            cell[c + 3] = base;
          }
          cell[c + 1] = l;
          cell[c + 2] = hi;
          // nothing under it, or an opaque colour fully covering: the colour at its coverage
          if (base === 0 || (count === 64 && opaque)) px[at] = byCount[count]!;
          else {
            // inline, not a method (blend): a call per blend here took back a third of the memo's gain
            const slot = Math.imul(base ^ rgba ^ Math.imul(count, 0x85ebca6b), 0x9e3779b1) >>> MEMO_SHIFT;
            if (memoUnder[slot] !== base || memoCount[slot] !== count || memoRgba[slot] !== rgba) {
              memoUnder[slot] = base;
              memoCount[slot] = count;
              memoRgba[slot] = rgba;
              memoColour[slot] = over(rgba, count / 64, base);
            }
            px[at] = memoColour[slot]!;
          }
        }
      }
    }
    this.run = run;
    this.y0 = top0;
    this.y1 = top1;
  }

  /**
   * A rect (CSS px) in `rgba`, source-over what the layer holds, each pixel at the area it covers
   * (in 64ths, as a head's samples): canvas2d's anti-aliased fillRect, as pixels. Rects given in a
   * row with one colour share its table (stamp's tiles are composed by it).
   */
  fillRect(x: number, y: number, w: number, h: number, rgba: number): void {
    const k = this.scale;
    const x0 = Math.max(0, x * k);
    const x1 = Math.min(this.cols, (x + w) * k);
    const y0 = Math.max(0, y * k);
    const y1 = Math.min(this.rowsPx, (y + h) * k);
    if (!(x1 > x0 && y1 > y0)) return;
    const byCount = this.memo.byCount(rgba);
    const opaque = rgba >>> 24 === 255;
    const { px, cols } = this;
    const r0 = Math.floor(y0);
    const r1 = Math.ceil(y1);
    const c0 = Math.floor(x0);
    const c1 = Math.ceil(x1);
    this.y0 = Math.min(this.y0, r0);
    this.y1 = Math.max(this.y1, r1);
    for (let r = r0; r < r1; r++) {
      this.used[r] = 1;
      const vy = Math.min(r + 1, y1) - Math.max(r, y0);
      const line = r * cols;
      // only the first and last columns are partly covered
      const inner = Math.round(vy * 64);
      for (let c = c0; c < c1; c++) {
        const count = c === c0 || c === c1 - 1 ? Math.round((Math.min(c + 1, x1) - Math.max(c, x0)) * vy * 64) : inner;
        if (count <= 0) continue;
        const under = px[line + c]!;
        if (under === 0 || (count === 64 && opaque)) {
          px[line + c] = byCount[count]!;
          continue;
        }
        px[line + c] = this.memo.blend(under, count, rgba);
      }
    }
  }

  /**
   * The same small shape at many places (`at`: CSS x, y pairs): its rects `parts` (CSS px from the
   * place, in order) are composed by fillRect once per device sub-pixel offset into a tile, and
   * each place gets the tile's pixels source-over. Where the places' shapes do not overlap (the
   * arrows' density marks: cells apart) that is fillRect per part and place, for a copy per pixel:
   * the dense bench frame's ~6 000 marks took 1.7 ms of fillRects.
   */
  stamp(at: ArrayLike<number>, parts: readonly StampRect[]): void {
    if (at.length === 0 || parts.length === 0) return;
    const k = this.scale;
    // the tile's origin sits `shift` device pixels before the place (parts may start before it)
    let margin = 0;
    let right = 0;
    let bottom = 0;
    for (const r of parts) {
      margin = Math.max(margin, Math.ceil(-r.x), Math.ceil(-r.y));
      right = Math.max(right, r.x + r.w);
      bottom = Math.max(bottom, r.y + r.h);
    }
    // in whole device pixels, so that a tile's pixels fall on the layer's at any scale
    const shift = Math.ceil((margin + 1) * k);
    const tiles = new Map<number, Tile>();
    const scratch = (this.tileLayer ??= new HeadLayer());
    scratch.begin(shift / k + right + 2, shift / k + bottom + 2, k);
    const tw = scratch.cols;
    const th = scratch.rowsPx;
    const { px, cols, rowsPx } = this;
    // places in a row mostly share their sub-pixel offset (the density marks' grid): the last tile
    let lastKey = -1;
    let tile: Tile | undefined;
    for (let q = 0; q < at.length; q += 2) {
      const gx = at[q]! * k;
      const gy = at[q + 1]! * k;
      const ix = Math.floor(gx);
      const iy = Math.floor(gy);
      const key = Math.round((gx - ix) * 256) * 257 + Math.round((gy - iy) * 256);
      if (key !== lastKey || tile === undefined) {
        tile = tiles.get(key);
        if (tile === undefined) {
          scratch.begin(shift / k + right + 2, shift / k + bottom + 2, k);
          for (const r of parts) scratch.fillRect((gx - ix + shift) / k + r.x, (gy - iy + shift) / k + r.y, r.w, r.h, r.rgba);
          tiles.set(key, (tile = tileOf(scratch.px.slice(0, tw * th), tw, th)));
        }
        lastKey = key;
      }
      const { pixels } = tile;
      const x0 = ix - shift;
      const y0 = iy - shift;
      // the tile's pixels set, within the layer
      const j0 = Math.max(tile.j0, -y0);
      const j1 = Math.min(tile.j1, rowsPx - y0);
      const i0 = Math.max(tile.i0, -x0);
      const i1 = Math.min(tile.i1, cols - x0);
      if (j1 <= j0 || i1 <= i0) continue;
      this.y0 = Math.min(this.y0, y0 + j0);
      this.y1 = Math.max(this.y1, y0 + j1);
      for (let j = j0; j < j1; j++) {
        this.used[y0 + j] = 1;
        const line = (y0 + j) * cols + x0;
        for (let i = i0; i < i1; i++) {
          const v = pixels[j * tw + i]!;
          if (v === 0) continue;
          const under = px[line + i]!;
          // the tile's pixel at full coverage
          px[line + i] = under === 0 ? v : this.memo.blend(under, 64, v);
        }
      }
    }
  }
}

/** A stamped shape's pixels at one sub-pixel offset (tw × th), and the box [i0, i1) × [j0, j1) of those set. */
interface Tile {
  readonly pixels: Uint32Array;
  readonly i0: number;
  readonly i1: number;
  readonly j0: number;
  readonly j1: number;
}

/** The tile of `pixels`, its set pixels' box found (the tile has a margin on every side: half of it is 0). */
function tileOf(pixels: Uint32Array, tw: number, th: number): Tile {
  let i0 = tw;
  let i1 = 0;
  let j0 = th;
  let j1 = 0;
  for (let j = 0; j < th; j++)
    for (let i = 0; i < tw; i++)
      if (pixels[j * tw + i] !== 0) {
        i0 = Math.min(i0, i);
        i1 = Math.max(i1, i + 1);
        j0 = Math.min(j0, j);
        j1 = Math.max(j1, j + 1);
      }
  return { pixels, i0, i1, j0, j1 };
}

/**
 * Pixels [from, end) of `src` source-over `px` (drawLayer), each at full coverage (its own alpha).
 * A function of its own: as the inner loop of drawLayer's two, V8 ran it in code compiled on the
 * stack (OSR) that gave up at every exit from it, a deopt per row (~190 a frame, `--trace-deopt`).
 */
function overRow(px: Uint32Array, src: Uint32Array, from: number, end: number, memo: ColourMemo): void {
  for (let at = from; at < end; at++) {
    const v = src[at]!;
    if (v === 0) continue;
    const under = px[at]!;
    px[at] = under === 0 || v >>> 24 === 255 ? v : memo.blend(under, 64, v);
  }
}
