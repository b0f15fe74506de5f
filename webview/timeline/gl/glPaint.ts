/**
 * The data layer's WebGL2 painter: the Paint2D subset of a 2D context, drawn by the GPU. Every call
 * appends a shape (a rect, a line segment, a triangle, a textured rect) to one vertex buffer, in
 * call order, so painters keep canvas2d's paint order; the buffer is drawn when a texture it
 * samples must change, and at `present()`, one call per run of one mode, with that mode's own
 * program. Coverage is exact per pixel (glShaders.ts), so the pixels are canvas2d's within
 * anti-aliasing (glLayerPixels.test.ts). Paths are simple shapes only, as the painters make them:
 * rects, segments, and convex polygons (arrow and event heads); overlapping shapes of one path
 * blend twice where canvas2d fills their union once.
 */
import type { Paint2D } from '../paint2d';
import { PaintState } from './glPaintState';
import { alphaWord, colourWord } from './glColour';
import { ColourWordMemo } from './colourWordMemo';
import { TextAtlas } from './glText';
import { MODE, SHAPE_WORDS } from './glShaders';
import { GlSurface, LINE_ROWS, SPLIT_GAP } from './glSurface';

/** A pattern made by this painter: its texture and size. */
export class GlPattern implements CanvasPattern {
  constructor(
    readonly texture: WebGLTexture,
    readonly width: number,
    readonly height: number,
  ) {}
  setTransform(): void {}
}

/** Path entries (user units, flat in one reused array: no objects per shape): RECT x y w h, POLY n x0 y0 … */
const RECT = 0;
const POLY = 1;

export class GlPaint extends PaintState implements Paint2D {
  private readonly path: number[] = [];
  /** Where the open polyline's point count is in `path` (−1: none). */
  private poly = -1;
  /** The last `deviceRect`: x0, y0, x1, y1. */
  private readonly r = new Float64Array(4);
  private readonly surface: GlSurface;
  private readonly atlas = new TextAtlas();
  /** The shapes not drawn yet (SHAPE_WORDS each, glShaders.ts; colours as u32 through `u32`). */
  private words = new Float32Array(SHAPE_WORDS * 4096);
  private u32 = new Uint32Array(this.words.buffer);
  private count = 0;
  /** The pending shapes' runs of one mode: their modes and first shapes (reused). */
  private readonly runMode: number[] = [];
  private readonly runStart: number[] = [];
  private runs = 0;
  /** Line-texture rows used by the pending instances. */
  private lineRows = 0;
  /** Column ranges of the line being drawn (pixelLine: GlSurface.stageLine). */
  private spans = new Int32Array(0);
  private pattern: GlPattern | undefined;
  private image: HTMLCanvasElement | undefined;
  private imageSmooth = false;
  private clearFirst = false;
  /** The fill's and the stroke's colour words (styles are set once for a run of shapes). */
  private readonly fillWords = new ColourWordMemo<string | CanvasGradient | CanvasPattern>(colourWord);
  private readonly strokeWords = new ColourWordMemo<string | CanvasGradient | CanvasPattern>(colourWord);
  /** Shapes drawn since the last `present()` (for the bench). */
  instances = 0;
  /** Pixel lines drawn as one quad per coloured stretch (GlSurface.stageLine); false: one per line (the tests' reference). */
  splitLines = true;

  constructor(
    readonly canvas: HTMLCanvasElement,
    gl: WebGL2RenderingContext,
  ) {
    super();
    this.surface = new GlSurface(gl);
    this.surface.fitLines(canvas.width);
  }

  clearRect(x: number, y: number, w: number, h: number): void {
    const r = this.deviceRect(x, y, w, h);
    if (r[0]! <= 0 && r[1]! <= 0 && r[2]! >= this.canvas.width && r[3]! >= this.canvas.height) {
      // the whole frame: what is pending is covered anyway
      this.count = 0;
      this.lineRows = 0;
      this.clearFirst = true;
      this.surface.fitLines(this.canvas.width);
      return;
    }
    this.flush();
    this.surface.clearRect(r[0]!, r[1]!, r[2]!, r[3]!);
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    if (!(w !== 0 && h !== 0)) return;
    const style = this.s.fillStyle;
    if (style instanceof GlPattern) {
      this.usePattern(style);
      this.pushRect(MODE.PATTERN, alphaWord(this.s.globalAlpha), x, y, w, h, this.s.tx, this.s.ty, this.s.sx, 0);
    } else this.pushRect(MODE.RECT, this.fillWords.of(this.s.globalAlpha, style), x, y, w, h, 0, 0, 0, 0);
  }

  strokeRect(x: number, y: number, w: number, h: number): void {
    this.strokeRectParts(x, y, w, h, this.strokeWords.of(this.s.globalAlpha, this.s.strokeStyle));
  }

  beginPath(): void {
    this.path.length = 0;
    this.poly = -1;
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.path.push(RECT, x, y, w, h);
    this.poly = -1;
  }
  moveTo(x: number, y: number): void {
    this.poly = this.path.length + 1;
    this.path.push(POLY, 1, x, y);
  }
  lineTo(x: number, y: number): void {
    if (this.poly < 0) return this.moveTo(x, y);
    this.path.push(x, y);
    this.path[this.poly]!++;
  }

  fill(): void {
    const colour = this.fillWords.of(this.s.globalAlpha, this.s.fillStyle);
    const { sx, sy, tx, ty } = this.s;
    const p = this.path;
    for (let i = 0; i < p.length;) {
      if (p[i] === RECT) {
        if (p[i + 3] !== 0 && p[i + 4] !== 0) this.pushRect(MODE.RECT, colour, p[i + 1]!, p[i + 2]!, p[i + 3]!, p[i + 4]!, 0, 0, 0, 0);
        i += 5;
        continue;
      }
      const at = i + 2;
      let n = p[i + 1]!;
      i = at + 2 * n;
      if (n > 3 && p[at] === p[at + 2 * n - 2] && p[at + 1] === p[at + 2 * n - 1]) n--;
      if (n < 3) continue;
      // convex polygons as a fan; only a lone triangle's edges are anti-aliased (a fan's inner
      // edges would show as seams)
      const aa = n === 3 ? 1 : 0;
      for (let k = 1; k + 1 < n; k++) {
        const b = at + 2 * k;
        this.push(
          MODE.TRIANGLE,
          colour,
          p[at]! * sx + tx,
          p[at + 1]! * sy + ty,
          p[b]! * sx + tx,
          p[b + 1]! * sy + ty,
          p[b + 2]! * sx + tx,
          p[b + 3]! * sy + ty,
          aa,
          0,
        );
      }
    }
  }

  stroke(): void {
    const colour = this.strokeWords.of(this.s.globalAlpha, this.s.strokeStyle);
    const { sx, sy, tx, ty } = this.s;
    const half = (this.s.lineWidth * sx) / 2;
    const round = this.s.lineCap === 'round' ? 1 : 0;
    const p = this.path;
    for (let i = 0; i < p.length;) {
      if (p[i] === RECT) {
        this.strokeRectParts(p[i + 1]!, p[i + 2]!, p[i + 3]!, p[i + 4]!, colour);
        i += 5;
        continue;
      }
      const at = i + 2;
      const end = at + 2 * p[i + 1]!;
      for (let k = at; k + 3 < end; k += 2)
        this.push(MODE.SEGMENT, colour, p[k]! * sx + tx, p[k + 1]! * sy + ty, p[k + 2]! * sx + tx, p[k + 3]! * sy + ty, half, round, 0, 0);
      i = end;
    }
  }

  fillText(text: string, x: number, y: number, maxWidth?: number): void {
    const style = this.s.fillStyle;
    if (text === '' || typeof style !== 'string') return;
    const { sx, sy, tx, ty } = this.s;
    const X = x * sx + tx;
    const Y = y * sy + ty;
    let slot = this.atlas.slot(text, this.s.font, style, this.s.textAlign, this.s.textBaseline, sx, X, Y, maxWidth);
    if (slot === undefined) {
      // the atlas is full: draw what refers to it, then start it again
      this.flush();
      this.atlas.reset();
      slot = this.atlas.slot(text, this.s.font, style, this.s.textAlign, this.s.textBaseline, sx, X, Y, maxWidth);
      if (slot === undefined) return;
    }
    if (slot.w === 0) return;
    const ox = Math.floor(X) - slot.ix;
    const oy = Math.floor(Y) - slot.iy;
    this.push(MODE.TEXT, alphaWord(this.s.globalAlpha), slot.x + ox, slot.y + oy, slot.x + slot.w + ox, slot.y + slot.h + oy, ox, oy, 0, 0);
  }

  measureText(text: string): TextMetrics {
    return this.atlas.measure(this.s.font, text);
  }

  createPattern(image: HTMLCanvasElement, _repetition: string | null): CanvasPattern | null {
    const texture = this.surface.patternTexture(image);
    return texture ? new GlPattern(texture, image.width, image.height) : null;
  }

  drawImage(image: HTMLCanvasElement, dx: number, dy: number, dw: number, dh: number): void {
    if (this.count > 0 && (this.image !== undefined || this.imageSmooth !== this.s.imageSmoothingEnabled)) this.flush();
    this.image = image;
    this.imageSmooth = this.s.imageSmoothingEnabled;
    this.surface.uploadImage(image, this.imageSmooth);
    const r = this.deviceRect(dx, dy, dw, dh);
    this.push(MODE.IMAGE, alphaWord(this.s.globalAlpha), r[0]!, r[1]!, r[2]!, r[3]!, r[0]!, r[1]!, r[2]!, r[3]!);
  }

  pixelLine(px: Uint32Array, c0: number, c1: number, y: number, height: number): void {
    if (c1 <= c0 || height <= 0) return;
    // a full line texture or shape texture is drawn first (a staged row's shapes go in one draw)
    if (this.lineRows >= LINE_ROWS || this.count + (c1 - c0) / 2 + 2 > this.surface.maxShapes) this.flush();
    const row = this.lineRows;
    const spans = (this.spans = this.spans.length >= c1 - c0 + 4 ? this.spans : new Int32Array(2 * (c1 - c0 + 4)));
    const n = this.surface.stageLine(row, px, c0, c1, spans, this.splitLines ? SPLIT_GAP : Infinity);
    if (n === 0) return; // all transparent: the staging row is free for the next line
    this.lineRows++;
    const alpha = alphaWord(this.s.globalAlpha);
    for (let i = 0; i < 2 * n; i += 2) this.pushRect(MODE.STRIP, alpha, spans[i]!, y, spans[i + 1]! - spans[i]!, height, this.s.tx, row, this.s.sx, 0);
  }

  /** Draws everything pending: the frame is complete. */
  present(): void {
    this.flush();
  }

  /** Reads one pixel back: returns when the GL has drawn the frame (for timing). */
  readPixel(): void {
    this.surface.readPixel();
  }

  /** Draws the pending instances in one call. */
  private flush(): void {
    if (this.clearFirst) {
      this.surface.clear();
      this.clearFirst = false;
    }
    if (this.count > 0) {
      const dirty = this.atlas.takeDirty();
      if (dirty) this.surface.uploadAtlas(dirty.y, dirty.image);
      this.surface.draw(this.u32, this.count, this.runMode, this.runStart, this.runs, this.lineRows, this.pattern);
      this.instances += this.count;
    }
    this.count = 0;
    this.runs = 0;
    this.lineRows = 0;
    this.image = undefined;
  }

  private usePattern(p: GlPattern): void {
    if (this.pattern !== p && this.count > 0) this.flush();
    this.pattern = p;
  }

  private strokeRectParts(x: number, y: number, w: number, h: number, colour: number): void {
    // four edges of the line's width centred on the rect's outline (canvas2d's miter corners)
    const l = this.s.lineWidth / 2;
    const x0 = Math.min(x, x + w);
    const x1 = Math.max(x, x + w);
    const y0 = Math.min(y, y + h);
    const y1 = Math.max(y, y + h);
    this.pushRect(MODE.RECT, colour, x0 - l, y0 - l, x1 - x0 + 2 * l, 2 * l, 0, 0, 0, 0);
    this.pushRect(MODE.RECT, colour, x0 - l, y1 - l, x1 - x0 + 2 * l, 2 * l, 0, 0, 0, 0);
    if (y1 - y0 > 2 * l) {
      this.pushRect(MODE.RECT, colour, x0 - l, y0 + l, 2 * l, y1 - y0 - 2 * l, 0, 0, 0, 0);
      this.pushRect(MODE.RECT, colour, x1 - l, y0 + l, 2 * l, y1 - y0 - 2 * l, 0, 0, 0, 0);
    }
  }

  /** A user-space rect as device x0, y0, x1, y1 (ordered), in `this.r` (reused). */
  private deviceRect(x: number, y: number, w: number, h: number): Float64Array {
    const { sx, sy, tx, ty } = this.s;
    const a = x * sx + tx;
    const b = (x + w) * sx + tx;
    const c = y * sy + ty;
    const d = (y + h) * sy + ty;
    const r = this.r;
    r[0] = Math.min(a, b);
    r[1] = Math.min(c, d);
    r[2] = Math.max(a, b);
    r[3] = Math.max(c, d);
    return r;
  }

  /** A shape over a user-space rect. */
  private pushRect(mode: number, colour: number, x: number, y: number, w: number, h: number, b0: number, b1: number, b2: number, b3: number): void {
    const r = this.deviceRect(x, y, w, h);
    this.push(mode, colour, r[0]!, r[1]!, r[2]!, r[3]!, b0, b1, b2, b3);
  }

  private push(mode: number, colour: number, a0: number, a1: number, a2: number, a3: number, b0: number, b1: number, b2: number, b3: number): void {
    if (!(Number.isFinite(a0) && Number.isFinite(a1) && Number.isFinite(a2) && Number.isFinite(a3))) return;
    // the shape texture holds this many: what is pending is drawn first (paint order is kept)
    if (this.count >= this.surface.maxShapes) this.flush();
    if ((this.count + 1) * SHAPE_WORDS > this.words.length) {
      // doubled: whole rows of the shape texture (GlSurface.draw uploads whole rows)
      const grown = new Float32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
      this.u32 = new Uint32Array(grown.buffer);
    }
    if (this.runs === 0 || this.runMode[this.runs - 1] !== mode) {
      this.runMode[this.runs] = mode;
      this.runStart[this.runs++] = this.count;
    }
    const f = this.words;
    const o = this.count++ * SHAPE_WORDS;
    this.u32[o] = colour;
    f[o + 1] = a0;
    f[o + 2] = a1;
    f[o + 3] = a2;
    f[o + 4] = a3;
    f[o + 5] = b0;
    f[o + 6] = b1;
    f[o + 7] = b2;
    f[o + 8] = b3;
  }
}
