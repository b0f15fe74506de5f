/**
 * Names for the WebGL2 painter: each distinct (text, font, colour, sub-pixel offset) is drawn once
 * by the browser's own text engine into an atlas canvas (the same glyphs canvas2d draws), then
 * copied to the frame as a textured rect, in paint order. Offsets are kept to a quarter of a
 * device pixel. The atlas is packed in shelves and emptied when full (its users flush first).
 */

/** Atlas size (device px): ~1500 names per frame fit with room to spare. */
export const ATLAS_PX = 2048;
const PAD = 2;
/** Sub-pixel positions kept (per axis). */
const STEPS = 4;

export interface AtlasSlot {
  /**
   * The atlas position of the anchor's pixel: text anchored at device (x, y) is the atlas moved
   * by (floor(x) − ix, floor(y) − iy), a whole-pixel copy.
   */
  readonly ix: number;
  readonly iy: number;
  /** The slot's rect in the atlas. */
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export class TextAtlas {
  private readonly canvas: HTMLCanvasElement;
  private readonly g: CanvasRenderingContext2D;
  private readonly slots = new Map<string, AtlasSlot>();
  private shelfX = 0;
  private shelfY = 0;
  private shelfH = 0;
  /** Rows of the atlas drawn since the last upload: [dirtyY0, dirtyY1). */
  dirtyY0 = ATLAS_PX;
  dirtyY1 = 0;
  /** Bumped when the atlas is emptied (slots handed out before are gone). */
  generation = 0;

  constructor() {
    this.canvas = document.createElement('canvas');
    this.canvas.width = this.canvas.height = ATLAS_PX;
    this.g = this.canvas.getContext('2d', { willReadFrequently: true })!;
  }

  /** Text width in CSS px in `font`. */
  measure(font: string, text: string): TextMetrics {
    this.g.font = font;
    return this.g.measureText(text);
  }

  /**
   * The slot of `text` drawn with its anchor at device (x, y) (fraction kept to STEPS), or
   * undefined when the atlas is full (the caller flushes, calls `reset`, and asks again).
   */
  slot(
    text: string,
    font: string,
    colour: string,
    align: CanvasTextAlign,
    baseline: CanvasTextBaseline,
    scale: number,
    x: number,
    y: number,
    maxWidth: number | undefined,
  ): AtlasSlot | undefined {
    const fx = Math.round((x - Math.floor(x)) * STEPS) / STEPS;
    const fy = Math.round((y - Math.floor(y)) * STEPS) / STEPS;
    const key = `${fx}|${fy}|${scale}|${align}|${baseline}|${maxWidth ?? ''}|${colour}|${font}|${text}`;
    const hit = this.slots.get(key);
    if (hit) return hit;
    const g = this.g;
    g.font = font;
    const size = parseFloat(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? '12');
    const width = Math.min(maxWidth ?? Infinity, g.measureText(text).width) * scale;
    const w = Math.ceil(width) + 2 * PAD + 2;
    const h = Math.ceil(size * scale * 2.5) + 2 * PAD;
    if (w > ATLAS_PX || h > ATLAS_PX) return { ix: 0, iy: 0, x: 0, y: 0, w: 0, h: 0 };
    if (this.shelfX + w > ATLAS_PX) {
      this.shelfY += this.shelfH;
      this.shelfX = 0;
      this.shelfH = 0;
    }
    if (this.shelfY + h > ATLAS_PX) return undefined;
    const sx = this.shelfX;
    const sy = this.shelfY;
    this.shelfX += w;
    this.shelfH = Math.max(this.shelfH, h);
    const ix = sx + PAD + 1 + (align === 'right' || align === 'end' ? Math.ceil(width) : align === 'center' ? Math.ceil(Math.ceil(width) / 2) : 0);
    const iy = sy + Math.floor(h / 2);
    g.save();
    g.beginPath();
    g.rect(sx, sy, w, h);
    g.clip();
    g.setTransform(scale, 0, 0, scale, ix + fx, iy + fy);
    g.fillStyle = colour;
    g.textAlign = align;
    g.textBaseline = baseline;
    if (maxWidth === undefined) g.fillText(text, 0, 0);
    else g.fillText(text, 0, 0, maxWidth);
    g.restore();
    this.dirtyY0 = Math.min(this.dirtyY0, sy);
    this.dirtyY1 = Math.max(this.dirtyY1, sy + h);
    const s: AtlasSlot = { ix, iy, x: sx, y: sy, w, h };
    this.slots.set(key, s);
    return s;
  }

  /** The rows drawn since the last call, as pixels to upload (undefined: none). */
  takeDirty(): { y: number; image: ImageData } | undefined {
    if (this.dirtyY1 <= this.dirtyY0) return undefined;
    const y = this.dirtyY0;
    const image = this.g.getImageData(0, y, ATLAS_PX, this.dirtyY1 - y);
    this.dirtyY0 = ATLAS_PX;
    this.dirtyY1 = 0;
    return { y, image };
  }

  /** Empties the atlas (when full; every slot handed out is void). */
  reset(): void {
    this.g.clearRect(0, 0, ATLAS_PX, ATLAS_PX);
    this.slots.clear();
    this.shelfX = this.shelfY = this.shelfH = 0;
    // rows not drawn again keep old texels, which no slot refers to any more
    this.dirtyY0 = ATLAS_PX;
    this.dirtyY1 = 0;
    this.generation++;
  }
}
