/**
 * A tree node's entries as byte extents, without building drawable objects (the index builder's
 * fast path): where each drawable and shadow starts and ends, its line IDs' key interval, and
 * whether the reader would drop it (a NaN/∞ time), walking the layout of SLOG2.md §7 exactly as
 * treeNode.ts parses it. Bounds-checked through BinaryReader: a damaged node throws FormatError.
 */
import { BinaryReader } from '../bytes/binaryReader';
import type { Slog2Version } from '../formats/slog2/header';
import { NODE_HEADER_BYTES } from '../formats/slog2/treeNode';

export interface ScannedEntry {
  readonly start: number;
  readonly end: number;
  /** Key interval (see format.ts); lo > hi never happens: unknown line IDs give [0, nkeys-1]. */
  readonly lo: number;
  readonly hi: number;
  /** False when the reader drops it (NaN/∞ time); it keeps no index position then. */
  readonly kept: boolean;
}

export interface ScannedNode {
  /** Nestless then nestable, in file order. */
  readonly drawables: ScannedEntry[];
  /** Raw nestless list length (what the source-location records index against). */
  readonly nestless: number;
  /** Every buffer's nestless then nestable shadows, buffers in order. */
  readonly shadows: ScannedEntry[];
}

const VERTEX_BYTES = 12;

export function scanNode(
  bytes: Uint8Array,
  base: number,
  file: string,
  version: Slog2Version,
  keyOf: (lineID: number) => number,
  allKeys: number,
): ScannedNode {
  const r = new BinaryReader(bytes, base, file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  r.skip(NODE_HEADER_BYTES, 'node header');
  let lo = 0;
  let hi = 0;
  let finite = true;
  const vertices = (): void => {
    const n = r.i16('vertex count');
    if (n <= 0) throw r.error(`vertex count ${n} (expected >= 1)`, r.pos - 2);
    r.need(n * VERTEX_BYTES, 'vertices');
    for (let v = 0; v < n; v++) {
      const at = r.pos + v * VERTEX_BYTES;
      if (!Number.isFinite(view.getFloat64(at))) finite = false;
      const k = keyOf(view.getInt32(at + 8));
      if (k < 0) {
        lo = 0;
        hi = Math.max(hi, allKeys - 1);
        continue;
      }
      if (k < lo) lo = k;
      if (k > hi) hi = k;
    }
    r.pos += n * VERTEX_BYTES;
  };
  const info = (): void => {
    const n = r.i16('info length');
    if (n < 0) throw r.error(`negative info length ${n}`, r.pos - 2);
    r.skip(n, 'info bytes');
  };
  const begin = (): void => {
    lo = Infinity;
    hi = -Infinity;
    finite = true;
  };

  const drawables: ScannedEntry[] = [];
  let nestless = 0;
  for (let list = 0; list < 2; list++) {
    const n = r.checkCount(r.i32('drawable count'), 9, 'drawable');
    if (list === 0) nestless = n;
    for (let i = 0; i < n; i++) {
      const start = r.pos;
      begin();
      const kind = r.u8('drawable kind');
      if (kind === 0) {
        r.skip(4, 'category index');
        info();
        vertices();
      } else if (kind === 1) {
        r.skip(4, 'composite category index');
        info();
        const m = r.i16('composite member count');
        if (m <= 0) throw r.error(`composite member count ${m} (expected >= 1)`, r.pos - 2);
        for (let k = 0; k < m; k++) {
          r.skip(4, 'category index');
          info();
          vertices();
        }
      } else throw r.error(`unknown drawable kind byte ${kind} (expected 0 = primitive or 1 = composite)`, start);
      drawables.push({ start, end: r.pos, lo, hi, kept: finite });
    }
  }
  const shadows: ScannedEntry[] = [];
  const nbufs = r.checkCount(r.i32('child shadow buffer count'), NODE_HEADER_BYTES + 8, 'child shadow buffer');
  const weightBytes = version === 'SLOG 2.0.6' ? 20 : 12;
  for (let b = 0; b < nbufs; b++) {
    r.skip(NODE_HEADER_BYTES, 'child node header');
    for (let list = 0; list < 2; list++) {
      const n = r.checkCount(r.i32('shadow count'), 36, 'shadow');
      for (let i = 0; i < n; i++) {
        const start = r.pos;
        begin();
        r.skip(4, 'category index');
        info();
        vertices();
        const e = r.f64('shadow earliest');
        const l = r.f64('shadow latest');
        r.skip(8, 'shadow num_real_objs');
        const nw = r.checkCount(r.i32('shadow weight count'), weightBytes, 'category weight');
        r.skip(nw * weightBytes, 'category weights');
        shadows.push({ start, end: r.pos, lo, hi, kept: finite && Number.isFinite(e) && Number.isFinite(l) });
      }
    }
  }
  return { drawables, nestless, shadows };
}
