/**
 * The data layer's pixel layers (headLayer.ts), drawn with one drawImage under the stems: the
 * arrows' density marks (drawArrows.ts), begun afresh each frame, and the heads of real events,
 * kept from frame to frame while the view only pans (their pixels moved, the uncovered columns
 * drawn), composited over the marks. Filled as paths, the ~26 000 heads of the viewport bench's
 * dense frame took ~17 ms of its 36 ms to rasterise, its ~6 000 density marks ~3–4 ms (frames
 * waiting for their pixels); composited, the heads still took ~5.4 ms of a ~19 ms panning frame.
 */
import type { Paint2D } from './paint2d';
import { HeadLayer } from './headLayer';
import { headsMovedBy, type HeadsView } from './headsView';

export class EventHeads extends HeadLayer {
  private canvas: HTMLCanvasElement | undefined;
  /** The layer's pixels as ImageData (the same buffer). */
  private image: ImageData | undefined;
  /** Rows the canvas holds heads in, from the last paint. */
  private shown0 = 0;
  private shown1 = 0;

  /** Painted since the frame began: painting again would blend the layer twice. */
  private painted = false;

  override begin(width: number, height: number, scale: number): void {
    super.begin(width, height, scale);
    this.painted = false;
  }

  override scroll(dx: number): void {
    super.scroll(dx);
    this.painted = false;
  }

  /** Draws the layer of this frame (device pixels, over what `ctx` holds); once a frame. */
  paint(ctx: Paint2D): void {
    if (this.painted) return;
    this.painted = true;
    if (this.y1 <= this.y0) return;
    if (ctx.pixelLine) {
      // a painter of pixel lines (WebGL2): the device rows that hold pixels, no canvas between
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      const { px, cols, used } = this;
      for (let y = this.y0; y < this.y1; y++) if (used[y] !== 0) ctx.pixelLine(px.subarray(y * cols, (y + 1) * cols), 0, cols, y, 1);
      ctx.restore();
      return;
    }
    const canvas = (this.canvas ??= document.createElement('canvas'));
    if (canvas.width !== this.cols || canvas.height !== this.rowsPx || this.image?.data.buffer !== this.px.buffer) {
      canvas.width = this.cols;
      canvas.height = this.rowsPx;
      this.image = new ImageData(new Uint8ClampedArray(this.px.buffer, 0, this.cols * this.rowsPx * 4), this.cols, this.rowsPx);
      this.shown0 = this.shown1 = 0;
    }
    // putImageData replaces pixels: the rows the last frame showed are written again (cleared)
    const a = Math.min(this.y0, this.shown0 < this.shown1 ? this.shown0 : this.y0);
    const b = Math.max(this.y1, this.shown1);
    canvas.getContext('2d')!.putImageData(this.image!, 0, 0, 0, a, this.cols, b - a);
    this.shown0 = this.y0;
    this.shown1 = this.y1;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(canvas, 0, 0, this.cols, this.rowsPx);
    ctx.restore();
  }

  /** Draws `heads` over this layer's pixels (the marks), then the whole once, under the stems. */
  paintWith(heads: EventHeads, ctx: Paint2D): void {
    if (this.painted) return;
    if (this.y1 <= this.y0) {
      // no marks: the heads' own layer
      heads.paint(ctx);
      this.painted = true;
      return;
    }
    this.drawLayer(heads);
    this.paint(ctx);
  }
}

const marks = new EventHeads();
/** The heads in the WebAssembly kernel (headsKernel.ts), unless a harness asks for the JS loop (`__mpeHeadsInJs`, the bench's baseline). */
const heads = new EventHeads({ kernel: (globalThis as { __mpeHeadsInJs?: boolean }).__mpeHeadsInJs !== true });
let headsView: HeadsView | undefined;

/**
 * The frame's pixel layer (where canvas2d rasterises on the CPU), begun by drawData: the arrows'
 * density marks go in; it is drawn once, with the heads over it (drawEvents: `paintWith`), or by
 * drawData when no events are drawn (`paint` draws it once a frame).
 */
export function beginPixelLayer(ctx: Paint2D, w: number, heightPx: number): EventHeads {
  marks.begin(w, heightPx, ctx.getTransform().a);
  return marks;
}

/** The heads' layer for a frame showing `view`: the last frame's heads moved when only the view's time offset changed, else empty. */
export function beginHeads(view: HeadsView): EventHeads {
  const dx = headsMovedBy(headsView, view);
  headsView = view;
  if (dx === undefined) heads.begin(view.width, view.heightPx, view.scale);
  else heads.scroll(dx);
  return heads;
}

/** What composes the heads' pixels (where they are pixels): the WebAssembly kernel, or the JS loop where there is none. */
export function headsComposer(): 'webassembly' | 'js' {
  return heads.composesInKernel ? 'webassembly' : 'js';
}
