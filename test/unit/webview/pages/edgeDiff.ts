// How two pictures differ, for the browser pixel pages: pixels whose premultiplied channels differ
// by more than `tolerance` (of 255), and those of them off the reference picture's edges (no
// neighbour of another colour there): anti-aliasing changes only edges.

export interface EdgeDiff {
  /** Pixels the reference paints. */
  readonly painted: number;
  readonly differ: number;
  readonly offEdge: number;
  readonly maxDelta: number;
}

/** `test` against `reference` (RGBA bytes, `w` × `h`); `mask`, when given, gets the differing pixels (white on an edge, red off). */
export function edgeDiff(test: Uint8ClampedArray, reference: Uint8ClampedArray, w: number, h: number, tolerance: number, mask?: Uint8ClampedArray): EdgeDiff {
  let painted = 0;
  let differ = 0;
  let offEdge = 0;
  let maxDelta = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 4 * (y * w + x);
      if (reference[i + 3]! > 0) painted++;
      const d = delta(test, i, reference, i);
      maxDelta = Math.max(maxDelta, d);
      if (d <= tolerance) continue;
      differ++;
      let edge = false;
      for (let dy = -1; dy <= 1 && !edge; dy++) {
        for (let dx = -1; dx <= 1 && !edge; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < w && ny < h && delta(reference, i, reference, 4 * (ny * w + nx)) > tolerance) edge = true;
        }
      }
      if (!edge) offEdge++;
      mask?.set(edge ? [255, 255, 255, 255] : [255, 0, 0, 255], i);
    }
  }
  return { painted, differ, offEdge, maxDelta };
}

/** Premultiplied channel difference (as composited: an unpremultiplied channel of a faint pixel magnifies rounding). */
function delta(x: Uint8ClampedArray, i: number, y: Uint8ClampedArray, j: number): number {
  let d = Math.abs(x[i + 3]! - y[j + 3]!);
  for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs((x[i + k]! * x[i + 3]!) / 255 - (y[j + k]! * y[j + 3]!) / 255));
  return d;
}
