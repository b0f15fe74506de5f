/**
 * The SLOG-2 writer's default palette (CLOG2.md §11.3): the 216 "web-safe" colours, R outermost and
 * B innermost, stable-sorted by decreasing R²+G²+B². Request k (1, 2, … — one counter per
 * conversion) gets entry k mod 215, so white comes back after entry 214 and black never does.
 */
import type { Rgba } from '../../model/types';

const PALETTE: readonly Rgba[] = (() => {
  const steps = [0x00, 0x33, 0x66, 0x99, 0xcc, 0xff];
  const all: Rgba[] = [];
  for (const r of steps) for (const g of steps) for (const b of steps) all.push([r, g, b, 255]);
  // Array.prototype.sort is stable (ES2019), as the reference's sort is.
  return all.sort((x, y) => y[0] * y[0] + y[1] * y[1] + y[2] * y[2] - (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]));
})();

/** Hands out default-palette colours in the reference's order. */
export class DefaultPalette {
  private requests = 0;

  next(): Rgba {
    this.requests++;
    return PALETTE[this.requests % 215]!;
  }
}

export function paletteEntry(i: number): Rgba {
  return PALETTE[i]!;
}
