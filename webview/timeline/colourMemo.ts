/**
 * Colours composed over what was under them, remembered by (under colour, coverage, colour), for
 * the pixel layers (headLayer.ts): a dense frame has few distinct keys but ~150 000 blends (each
 * four roundings). With the masks' words side by side, a node replay of the viewport bench's dense
 * frame (26 000 heads): 5.6 -> 4.4 ms at 1x, 16.6 -> 13.7 ms at 2x, the same pixels. The heads'
 * JS loop reads the arrays inline (a call per blend there took back a third of the memo's gain).
 */
import { over } from './colour';

const MEMO_BITS = 12;
const MEMO_SIZE = 1 << MEMO_BITS;
/** A key's slot: the top bits of its Fibonacci hash (a product's low bits see only the key's low bits). */
export const MEMO_SHIFT = 32 - MEMO_BITS;

export class ColourMemo {
  readonly under = new Uint32Array(MEMO_SIZE);
  readonly count = new Int32Array(MEMO_SIZE).fill(-1);
  readonly rgba = new Uint32Array(MEMO_SIZE);
  readonly colour = new Uint32Array(MEMO_SIZE);
  /** `tableRgba` at each coverage of 0–64 samples (byCount). */
  readonly table = new Uint32Array(65);
  tableRgba = -1;

  /** `rgba` at a coverage of `count` of 64 samples over `under` (fillRect, stamp, drawLayer). */
  blend(under: number, count: number, rgba: number): number {
    const slot = Math.imul(under ^ rgba ^ Math.imul(count, 0x85ebca6b), 0x9e3779b1) >>> MEMO_SHIFT;
    if (this.under[slot] !== under || this.count[slot] !== count || this.rgba[slot] !== rgba) {
      this.under[slot] = under;
      this.count[slot] = count;
      this.rgba[slot] = rgba;
      this.colour[slot] = over(rgba, count / 64, under);
    }
    return this.colour[slot]!;
  }

  /** `rgba` at each coverage of 0–64 samples (unpremultiplied: its alpha scaled), as `table`. */
  byCount(rgba: number): Uint32Array {
    if (rgba !== this.tableRgba) {
      const rgb = rgba & 0xffffff;
      const alpha = (rgba >>> 24) / 255;
      for (let c = 0; c <= 64; c++) this.table[c] = ((Math.round(((alpha * c) / 64) * 255) << 24) | rgb) >>> 0;
      this.tableRgba = rgba;
    }
    return this.table;
  }
}
