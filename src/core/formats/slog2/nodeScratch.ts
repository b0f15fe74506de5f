/**
 * The decoder's scratch columns (nodeColumns.ts): sized by a node's worst case, or for a big block
 * by its rows counted first, and reused from node to node.
 */

/** Smallest encodings (bytes), for bounding counts: kind + category + infolen + nverts + one vertex. */
export const MIN_DRAWABLE_BYTES = 1 + 4 + 2 + 2 + 12;
export const MIN_MEMBER_BYTES = 4 + 2 + 2 + 12;
export const VERTEX_BYTES = 12;

/** Worst-case-sized columns reused by every decode (decoding is synchronous: one user at a time). */
export class ScratchColumns {
  category = new Int32Array(0);
  vertexCount = new Int32Array(0);
  time0 = new Float64Array(0);
  line0 = new Int32Array(0);
  time1 = new Float64Array(0);
  line1 = new Int32Array(0);
  timeLast = new Float64Array(0);
  lineLast = new Int32Array(0);
  infoStart = new Int32Array(0);
  infoLength = new Int32Array(0);
  earliest = new Float64Array(0);
  latest = new Float64Array(0);
  siteIndex = new Int32Array(0);
  siteEndIndex = new Int32Array(0);
  sourced = new Uint8Array(0);
  firstRow = new Int32Array(0);
  rowCount = new Int32Array(0);
  drawableCategory = new Int32Array(0);
  drawableEarliest = new Float64Array(0);
  drawableLatest = new Float64Array(0);

  ensure(rows: number, drawables: number): void {
    if (rows > this.category.length) {
      const n = Math.max(rows, this.category.length * 2);
      this.category = new Int32Array(n);
      this.vertexCount = new Int32Array(n);
      this.time0 = new Float64Array(n);
      this.line0 = new Int32Array(n);
      this.time1 = new Float64Array(n);
      this.line1 = new Int32Array(n);
      this.timeLast = new Float64Array(n);
      this.lineLast = new Int32Array(n);
      this.infoStart = new Int32Array(n);
      this.infoLength = new Int32Array(n);
      this.earliest = new Float64Array(n);
      this.latest = new Float64Array(n);
      this.siteIndex = new Int32Array(n);
      this.siteEndIndex = new Int32Array(n);
      this.sourced = new Uint8Array(n);
    }
    if (drawables > this.firstRow.length) {
      const n = Math.max(drawables, this.firstRow.length * 2);
      this.firstRow = new Int32Array(n);
      this.rowCount = new Int32Array(n);
      this.drawableCategory = new Int32Array(n);
      this.drawableEarliest = new Float64Array(n);
      this.drawableLatest = new Float64Array(n);
    }
  }
}

/**
 * The rows (primitives, composites' members included) and drawables of a node's two lists, walked
 * with the decoder's steps and bounds (nothing decoded); undefined where the decoder would fail.
 */
export function countRows(dv: DataView, pos: number, end: number): { rows: number; drawables: number } | undefined {
  let rows = 0;
  let drawables = 0;
  for (let list = 0; list < 2; list++) {
    if (pos + 4 > end) return undefined;
    const n = dv.getInt32(pos);
    pos += 4;
    if (n < 0 || n * MIN_DRAWABLE_BYTES > end - pos) return undefined;
    for (let i = 0; i < n; i++) {
      if (pos + 1 > end) return undefined;
      const kind = dv.getUint8(pos);
      pos += 1;
      let members = 1;
      if (kind === 1) {
        if (pos + 6 > end) return undefined;
        const infolen = dv.getInt16(pos + 4);
        pos += 6;
        if (infolen < 0 || pos + infolen + 2 > end) return undefined;
        pos += infolen;
        members = dv.getInt16(pos);
        pos += 2;
        if (members <= 0) return undefined;
      } else if (kind !== 0) return undefined;
      for (let m = 0; m < members; m++) {
        if (pos + 8 > end) return undefined;
        const infolen = dv.getInt16(pos + 4);
        pos += 6;
        if (infolen < 0 || pos + infolen + 2 > end) return undefined;
        pos += infolen;
        const nv = dv.getInt16(pos);
        pos += 2;
        if (nv <= 0 || pos + nv * VERTEX_BYTES > end) return undefined;
        pos += nv * VERTEX_BYTES;
      }
      rows += members;
      drawables++;
    }
  }
  return { rows, drawables };
}

export const scratch = new ScratchColumns();
/** Rows of the shared scratch columns at most (a 2.6 MB block; ~7 MB of columns). */
export const SCRATCH_MAX_ROWS = 1 << 17;
