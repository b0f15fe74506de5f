/**
 * The sample masks of event heads (headLayer.ts): a head is a triangle, its coverage of each device
 * pixel taken at 8 × 8 samples, kept as 64 bits (two words) so that the heads of a colour run are
 * one shape (their samples OR-ed), at an eighth of a pixel of sub-pixel offset per axis.
 */

/** Sub-pixel positions of a mask (per axis), and samples per pixel (per axis). */
export const STEPS = 8;
export const SAMPLES = 8;

export interface Mask {
  readonly w: number;
  readonly h: number;
  /** Per pixel, side by side: the samples covered, rows 0–3 (bits 8·row + column) and rows 4–7, and how many. */
  readonly bits: Int32Array;
  /** Per row, the columns with any sample covered: [from[j], to[j]) (the triangle's half of its box). */
  readonly from: Int32Array;
  readonly to: Int32Array;
}

/** Set bits of a 32-bit integer. */
export function bits(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Coverage of a head of half width `half` (device px) at sub-pixel offset (fx, fy) / STEPS. */
export function headMask(half: number, fx: number, fy: number): Mask {
  const ox = fx / STEPS;
  const oy = fy / STEPS;
  const w = Math.ceil(ox + 2 * half) + 1;
  const h = Math.ceil(oy + half * 1.4) + 1;
  const packed = new Int32Array(3 * w * h);
  const height = half * 1.4;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      let l = 0;
      let t = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        // depth below the base; the width there shrinks linearly to the tip
        const d = j + (sy + 0.5) / SAMPLES - oy;
        if (d < 0 || d > height) continue;
        const reach = half * (1 - d / height);
        for (let sx = 0; sx < SAMPLES; sx++) {
          const u = i + (sx + 0.5) / SAMPLES - ox - half;
          if (u < -reach || u > reach) continue;
          if (sy < 4) l |= 1 << (8 * sy + sx);
          else t |= 1 << (8 * (sy - 4) + sx);
        }
      }
      const q = 3 * (j * w + i);
      packed[q] = l;
      packed[q + 1] = t;
      packed[q + 2] = bits(l) + bits(t);
    }
  }
  const from = new Int32Array(h);
  const to = new Int32Array(h);
  for (let j = 0; j < h; j++) {
    let a = 0;
    let b = w;
    while (a < w && packed[3 * (j * w + a) + 2] === 0) a++;
    while (b > a && packed[3 * (j * w + b - 1) + 2] === 0) b--;
    from[j] = a;
    to[j] = b;
  }
  return { w, h, bits: packed, from, to };
}
