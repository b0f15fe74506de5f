/** The `<input type="color">` value format (#rrggbb) ⇄ RGB. */
import type { Rgb } from '../src/protocol/webview';

export function parseHex(s: string): Rgb | undefined {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(s);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : undefined;
}

export const toHex = (rgb: readonly number[]): string =>
  `#${rgb
    .slice(0, 3)
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
