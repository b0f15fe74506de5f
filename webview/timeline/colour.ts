/**
 * Category colours on the current theme background (pure). SLOG-2 colours were chosen for
 * Jumpshot's black canvas; on a light theme white or yellow drawables would vanish, so colours
 * too close in luminance to the background are darkened/lightened until they stand out (WCAG
 * contrast ≥ MIN_CONTRAST), keeping their hue. Packed as CSS strings once per theme.
 */

export type { Rgb } from '../../src/protocol/webview';
import type { Rgb } from '../../src/protocol/webview';

export const MIN_CONTRAST = 1.9;

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `c` moved towards black (light background) or white (dark background) until it contrasts enough. */
export function adjustForBackground(c: Rgb, background: Rgb, minContrast = MIN_CONTRAST): Rgb {
  if (contrast(c, background) >= minContrast) return c;
  const towardsBlack = luminance(background) > 0.4;
  let best: Rgb = c;
  for (let k = 1; k <= 20; k++) {
    const f = k / 20;
    best = towardsBlack
      ? [Math.round(c[0] * (1 - f)), Math.round(c[1] * (1 - f)), Math.round(c[2] * (1 - f))]
      : [Math.round(c[0] + (255 - c[0]) * f), Math.round(c[1] + (255 - c[1]) * f), Math.round(c[2] + (255 - c[2]) * f)];
    if (contrast(best, background) >= minContrast) return best;
  }
  return best;
}

/** Parses "#rgb", "#rrggbb", "#rrggbbaa" and "rgb(a)(…)" CSS colours; undefined otherwise. */
export function parseCssColour(s: string): Rgb | undefined {
  const t = s.trim();
  let m = /^#([0-9a-f]{3})$/i.exec(t);
  if (m) return [0, 1, 2].map((i) => parseInt(m![1]![i]! + m![1]![i]!, 16)) as unknown as Rgb;
  m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(t);
  if (m) return [0, 2, 4].map((i) => parseInt(m![1]!.slice(i, i + 2), 16)) as unknown as Rgb;
  m = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(t);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  return undefined;
}

export function cssRgba([r, g, b]: Rgb, alpha = 1): string {
  return alpha >= 1 ? `rgb(${r},${g},${b})` : `rgba(${r},${g},${b},${alpha.toFixed(3)})`;
}

/**
 * A canvas-normalised colour (`#rrggbb`, or `rgba(r, g, b, a)` when translucent) as RGBA bytes
 * read as a little-endian u32 (ImageData order); unreadable: opaque black.
 */
export function packCss(s: string): number {
  const [r, g, b] = parseCssColour(s) ?? [0, 0, 0];
  const alpha = /^rgba\((?:[^,]*,){3}\s*([\d.]+)\s*\)$/i.exec(s.trim());
  const a = alpha ? Math.round(Math.min(1, Number(alpha[1])) * 255) : 255;
  return ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/** `rgba` with its alpha scaled by `factor` (≤ 1): what over() gives on nothing, without blending. */
export function withAlpha(rgba: number, factor: number): number {
  return factor >= 1 ? rgba : ((Math.round((rgba >>> 24) * factor) << 24) | (rgba & 0xffffff)) >>> 0;
}

/** `src` at `coverage` source-over `dst` (unpremultiplied RGBA u32, ImageData byte order). */
export function over(src: number, coverage: number, dst: number): number {
  const sa = ((src >>> 24) / 255) * coverage;
  if (sa >= 1) return src;
  const da = (dst >>> 24) / 255;
  const keep = da * (1 - sa);
  const oa = sa + keep;
  if (oa <= 0) return 0;
  // per channel, rounded as Math.round rounds non-negative values (x + 0.5, truncated), one
  // division: this runs per blended pixel of the pixel layers (~50 -> ~11 ns a call, the same
  // results on a million random blends)
  const inv = 1 / oa;
  const b = ((((src >>> 16) & 255) * sa + ((dst >>> 16) & 255) * keep) * inv + 0.5) | 0;
  const g = ((((src >>> 8) & 255) * sa + ((dst >>> 8) & 255) * keep) * inv + 0.5) | 0;
  const r = (((src & 255) * sa + (dst & 255) * keep) * inv + 0.5) | 0;
  return ((((oa * 255 + 0.5) | 0) << 24) | (b << 16) | (g << 8) | r) >>> 0;
}
