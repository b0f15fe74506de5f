/**
 * Pure styling decisions of the painters: text and border colours that contrast with a fill,
 * names fitted into a box with an ellipsis, and arrow styles (Jumpshot's arrowheads and its
 * log-scaled preview arrows, PREVIEW_ARROW_LOG_BASE in jumpshot4.conf).
 */
import { contrast, type Rgb } from './colour';

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/** Borders only on boxes at least this wide and tall (in thin rows they would be all one sees). */
export const BORDER_MIN_W_PX = 5;
export const BORDER_MIN_H_PX = 10;

/** Black or white, whichever reads better on `fill`. */
export function textOn(fill: Rgb): Rgb {
  return contrast(fill, BLACK) >= contrast(fill, WHITE) ? BLACK : WHITE;
}

/**
 * The 1-px border of a state: the fill moved towards the contrasting text colour, so a box stays
 * distinct from its neighbour of the same colour and from the background, without a hard line.
 */
export function borderFor(fill: Rgb, amount = 0.45): Rgb {
  const t = textOn(fill);
  return [0, 1, 2].map((i) => Math.round(fill[i]! + (t[i]! - fill[i]!) * amount)) as unknown as Rgb;
}

export const ELLIPSIS = '…';
/** Names are drawn only in boxes at least this wide and tall (px). */
export const LABEL_MIN_WIDTH_PX = 24;
export const LABEL_MIN_HEIGHT_PX = 10;
const LABEL_PAD_PX = 3;

/**
 * Measures strings with a cache (canvas measureText is slow when called per state per frame).
 * Prefix widths are estimated from the whole string's mean advance, then checked exactly.
 */
export class TextFitter {
  /** Widths per font (a frame switches between a few fonts; each keeps its cache). */
  private readonly byFont = new Map<string, Map<string, number>>();
  private widths = new Map<string, number>();
  constructor(private readonly measure: (s: string) => number) {}

  setFont(font: string): void {
    let w = this.byFont.get(font);
    if (!w) {
      if (this.byFont.size > 16) this.byFont.clear();
      this.byFont.set(font, (w = new Map()));
    }
    this.widths = w;
  }

  width(s: string): number {
    let w = this.widths.get(s);
    if (w === undefined) {
      w = this.measure(s);
      if (this.widths.size > 4096) this.widths.clear();
      this.widths.set(s, w);
    }
    return w;
  }

  /**
   * `text` as it fits in `maxPx` (padding included): whole, cut with an ellipsis (at least one
   * character kept), or undefined when not even that fits.
   */
  fit(text: string, maxPx: number): string | undefined {
    const room = maxPx - 2 * LABEL_PAD_PX;
    if (room <= 0 || text === '') return undefined;
    if (this.width(text) <= room) return text;
    const ell = this.width(ELLIPSIS);
    const mean = this.width(text) / text.length;
    let n = Math.min(text.length - 1, Math.floor((room - ell) / mean));
    while (n >= 1 && this.width(text.slice(0, n) + ELLIPSIS) > room) n--;
    return n >= 1 ? text.slice(0, n).trimEnd() + ELLIPSIS : undefined;
  }
}

/** Whether a box of this size gets its name drawn at all. */
export function labelFits(widthPx: number, heightPx: number): boolean {
  return widthPx >= LABEL_MIN_WIDTH_PX && heightPx >= LABEL_MIN_HEIGHT_PX;
}

// ---- arrows -------------------------------------------------------------------------------------

/** jumpshot4.conf: ARROW_HEAD_LENGTH=10, ARROW_HEAD_WIDTH=6 (we scale them down in short rows). */
export const ARROW_HEAD_LENGTH_PX = 10;
export const ARROW_HEAD_WIDTH_PX = 6;
export const PREVIEW_ARROW_LOG_BASE = 5;

/** Head length and half width for rows of `rowH` px (a head never outgrows its rows). */
export function arrowHead(rowH: number): { readonly length: number; readonly halfWidth: number } {
  const k = Math.max(0.5, Math.min(1, rowH / 30));
  return { length: ARROW_HEAD_LENGTH_PX * k, halfWidth: (ARROW_HEAD_WIDTH_PX / 2) * k };
}

/** The outline under an arrow of colour `c`: the opposite of its text colour, half transparent. */
export function arrowOutline(c: Rgb): string {
  const o = textOn(c);
  return `rgba(${o[0]},${o[1]},${o[2]},0.75)`;
}

/**
 * A preview (summary) arrow of `count` messages, the heaviest in view being `maxCount`: its
 * width grows with log_5(count) as Jumpshot's does, but stays thin (≤ 3 px), and its alpha grows
 * with the same log from 0.25 to 0.85, so many light arrows never bury the states under them.
 */
export function previewArrowStyle(count: number, maxCount: number): { readonly width: number; readonly alpha: number } {
  const lg = (n: number): number => Math.log(Math.max(1, n)) / Math.log(PREVIEW_ARROW_LOG_BASE);
  const level = lg(count);
  const rel = maxCount > 1 ? Math.min(1, level / Math.max(1e-9, lg(maxCount))) : 0;
  return { width: Math.min(3, 0.75 + 0.5 * level), alpha: 0.25 + 0.6 * rel };
}

/**
 * Whether arrows are summarised (density per row block × time bin) instead of drawn one by one:
 * when they could no longer be told apart (more than one per `pxPerArrow` px² of plot).
 */
export function summariseArrows(arrowCount: number, widthPx: number, heightPx: number, pxPerArrow = 400): boolean {
  return arrowCount >= arrowsToSummarise(widthPx, heightPx, pxPerArrow);
}

/** The fewest arrows in view that summariseArrows summarises (a count can stop there). */
export function arrowsToSummarise(widthPx: number, heightPx: number, pxPerArrow = 400): number {
  return Math.floor(Math.max(200, (widthPx * heightPx) / pxPerArrow)) + 1;
}
