/**
 * Paints per-pixel-column marks (a colour key per column per visible row, 0 = nothing) as image
 * strips: each row's marks become a one-pixel line of colours, repeated down the row's box as a
 * pattern and filled with one fillRect. A dense view has tens of thousands of column runs, and a
 * fillRect per run cost ~20 ms a frame (the viewport bench's 271 k drawables); the strips cost a
 * line, a pattern and a fillRect per row. Columns are whole CSS pixels either way, and the fill is
 * a rect as the runs were, so the pixels are the runs' (dataLayerPixels.test.ts).
 */

import type { Paint2D } from './paint2d';
import { packCss } from './colour';

type Ctx = Paint2D;

export class ColumnStrips {
  private canvas: HTMLCanvasElement | undefined;
  private image: ImageData | undefined;

  /**
   * Paints `marks` (`slots` rows of `cols` columns) into `ctx`: row r's marked columns at y =
   * `top(r)`, `height` tall, in the colour `colourOf(mark)`.
   */
  paint(ctx: Ctx, marks: Int32Array, slots: number, cols: number, colourOf: (mark: number) => string, top: (r: number) => number, height: number): void {
    if (slots <= 0 || cols <= 0 || height <= 0) return;
    const image = this.imageOf(cols);
    const px = new Uint32Array(image.data.buffer, image.data.byteOffset, cols);
    const line = this.canvas!.getContext('2d')!;
    const smoothing = ctx.imageSmoothingEnabled;
    ctx.imageSmoothingEnabled = false;
    let lastMark = 0;
    let lastPx = 0;
    for (let r = 0; r < slots; r++) {
      const base = r * cols;
      let used = false;
      for (let c = 0; c < cols; c++) {
        const m = marks[base + c]!;
        if (m === 0) {
          px[c] = 0;
          continue;
        }
        if (m !== lastMark) {
          lastMark = m;
          lastPx = this.pack(colourOf(m));
        }
        px[c] = lastPx;
        used = true;
      }
      if (!used) continue;
      if (ctx.pixelLine) {
        ctx.pixelLine(px, 0, cols, top(r), height);
        continue;
      }
      // The line repeated down the box, filled as a rect: its top and bottom edges are
      // anti-aliased exactly as the runs' fillRects were (a stretched drawImage is not).
      line.putImageData(image, 0, 0);
      const pattern = ctx.createPattern(this.canvas!, 'repeat-y');
      if (pattern === null) continue;
      ctx.fillStyle = pattern;
      ctx.fillRect(0, top(r), cols, height);
    }
    ctx.imageSmoothingEnabled = smoothing;
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

  private pack(css: string): number {
    return rgbaOf(css);
  }
}

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

/**
 * Paints rows of ready pixels (`px`: `rows` lines of `cols` RGBA u32 values; `span[2r]`..`span[2r+1]`
 * the columns row r uses, empty when equal) as strips: row r's line repeated from y = `top(r)`,
 * `height` tall, one pattern and one fillRect per row.
 */
export function paintLines(ctx: Ctx, px: Uint32Array, rows: number, cols: number, span: Int32Array, top: (r: number) => number, height: number): void {
  if (rows <= 0 || cols <= 0 || height <= 0) return;
  if (ctx.pixelLine) {
    for (let r = 0; r < rows; r++) ctx.pixelLine(px.subarray(r * cols, (r + 1) * cols), span[2 * r]!, span[2 * r + 1]!, top(r), height);
    return;
  }
  const canvas = (lineCanvas ??= document.createElement('canvas'));
  if (lineImage?.width !== cols) {
    canvas.width = cols;
    canvas.height = 1;
    lineImage = new ImageData(cols, 1);
  }
  const line = new Uint32Array(lineImage.data.buffer, lineImage.data.byteOffset, cols);
  const g = canvas.getContext('2d')!;
  const smoothing = ctx.imageSmoothingEnabled;
  ctx.imageSmoothingEnabled = false;
  for (let r = 0; r < rows; r++) {
    const c0 = span[2 * r]!;
    const c1 = span[2 * r + 1]!;
    if (c1 <= c0) continue;
    line.set(px.subarray(r * cols + c0, r * cols + c1), c0);
    g.putImageData(lineImage, 0, 0, c0, 0, c1 - c0, 1);
    const pattern = ctx.createPattern(canvas, 'repeat-y');
    if (pattern === null) continue;
    ctx.fillStyle = pattern;
    ctx.fillRect(c0, top(r), c1 - c0, height);
  }
  ctx.imageSmoothingEnabled = smoothing;
}

let lineCanvas: HTMLCanvasElement | undefined;
let lineImage: ImageData | undefined;
