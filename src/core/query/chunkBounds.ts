/**
 * Time bounds of a payload table's runs of TIME_CHUNK consecutive drawables: the earliest and the
 * latest time among each run. The webview culls every frame by them (webview/timeline/timeChunks.ts)
 * and skips whole runs outside the view. They are computed where the payload is built (the window
 * worker) and shipped with it: in the webview, on arrival, a dense payload's pass (over a million
 * states) cost ~10 ms in the frame that first drew it.
 */

/** Drawables per run: a skipped run saves TIME_CHUNK mappings for two comparisons. */
export const TIME_CHUNK = 256;

export interface ChunkBounds {
  /** Earliest time (an offset, as the table's) per run; −∞ when the run holds a NaN. */
  readonly lo: Float32Array;
  /** Latest time per run; +∞ when the run holds a NaN. */
  readonly hi: Float32Array;
}

export function chunkCount(drawables: number): number {
  return Math.ceil(drawables / TIME_CHUNK);
}

/**
 * The bounds of a table given by its start and end columns, and `also` a third time column (an
 * event's own time besides its span). A start after its end (bad clocks) still spans both; a NaN
 * time compares false both ways, so its run gets infinite bounds and is never skipped.
 */
export function chunkBounds(start: ArrayLike<number>, end: ArrayLike<number>, also: ArrayLike<number> = start): ChunkBounds {
  const n = start.length;
  const k = chunkCount(n);
  const lo = new Float32Array(k);
  const hi = new Float32Array(k);
  const third = also !== start;
  // comparisons, not Math.min/max over three values: this is a pass over every drawable
  for (let c = 0; c < k; c++) {
    let a = Infinity;
    let b = -Infinity;
    let nan = false;
    const e = Math.min(n, (c + 1) * TIME_CHUNK);
    for (let i = c * TIME_CHUNK; i < e; i++) {
      const s = start[i]!;
      const t = end[i]!;
      if (s < a) a = s;
      if (s > b) b = s;
      if (t < a) a = t;
      if (t > b) b = t;
      if (s !== s || t !== t) nan = true;
      if (third) {
        const u = also[i]!;
        if (u < a) a = u;
        if (u > b) b = u;
        if (u !== u) nan = true;
      }
    }
    lo[c] = nan ? -Infinity : a;
    hi[c] = nan ? Infinity : b;
  }
  return { lo, hi };
}
