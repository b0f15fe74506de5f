/**
 * Rows of ready pixels painted as column strips (eventStems.ts): the lines put into one image and
 * drawn from it (columnStrips.ts drawSheetRows) where the scale is whole, else a pattern per row.
 */
import type { Paint2D } from './paint2d';
import { drawSheetRows, wholeScale } from './columnStrips';

type Ctx = Paint2D;

/**
 * Paints rows of ready pixels (`px`: `rows` lines of `cols` RGBA u32 values; `span[2r]`..`span[2r+1]`
 * the columns row r uses, empty when equal) as strips: row r's line from y = `top(r)` to
 * `bottom(r)`; drawn from one image (drawSheetRows) where it can be, else one pattern and one
 * fillRect per row.
 */
export function paintLines(
  ctx: Ctx,
  px: Uint32Array,
  rows: number,
  cols: number,
  span: Int32Array,
  top: (r: number) => number,
  bottom: (r: number) => number,
): void {
  if (rows <= 0 || cols <= 0) return;
  if (ctx.pixelLine) {
    for (let r = 0; r < rows; r++) ctx.pixelLine(px.subarray(r * cols, (r + 1) * cols), span[2 * r]!, span[2 * r + 1]!, top(r), bottom(r) - top(r));
    return;
  }
  if (wholeScale(ctx) !== undefined) {
    const sheet = (sheetCanvas ??= document.createElement('canvas'));
    if (sheet.width !== cols || sheet.height !== rows) {
      sheet.width = cols;
      sheet.height = rows;
    }
    const g = sheet.getContext('2d')!;
    const image = new ImageData(new Uint8ClampedArray(px.buffer as ArrayBuffer, px.byteOffset, rows * cols * 4), cols, rows);
    for (let r = 0; r < rows; r++) {
      const c0 = span[2 * r]!;
      const c1 = span[2 * r + 1]!;
      // only the columns a row uses are uploaded (the rest of the sheet is never drawn)
      if (c1 > c0) g.putImageData(image, 0, 0, c0, r, c1 - c0, 1);
    }
    if (drawSheetRows(ctx, sheet, rows, span, top, bottom)) return;
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
    ctx.fillRect(c0, top(r), c1 - c0, bottom(r) - top(r));
  }
  ctx.imageSmoothingEnabled = smoothing;
}

let lineCanvas: HTMLCanvasElement | undefined;
let lineImage: ImageData | undefined;
let sheetCanvas: HTMLCanvasElement | undefined;
