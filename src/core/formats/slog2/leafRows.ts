/**
 * The rows of one leaf of the column stream (columnStream.ts) in drawing order, and where they
 * are copied to: a PrimitiveBatch, or packed columns a thread posts (src/worker/decoder.ts). The
 * leaf is refs into decoded nodes until then, so each row is copied once, straight to where it is
 * read.
 */
import type { Drawable, Primitive, SourceLocation } from '../../model/types';
import type { NodeColumns } from './nodeColumns';

/** One leaf's primitives in drawing order (a composite's members consecutive, in their order). */
export interface PrimitiveBatch {
  readonly rows: number;
  readonly category: Int32Array;
  readonly vertexCount: Int32Array;
  readonly time0: Float64Array;
  readonly line0: Int32Array;
  readonly time1: Float64Array;
  readonly line1: Int32Array;
  /** Last vertex (= the second for two-vertex drawables); only with ColumnStreamOptions.withLastAndInfo. */
  readonly timeLast: Float64Array;
  readonly lineLast: Int32Array;
  /** Info bytes of each row: infoSource[k] from infoStart[k], infoLength[k] bytes (0: none). */
  readonly infoSource: readonly (Uint8Array | undefined)[];
  readonly infoStart: Int32Array;
  readonly infoLength: Int32Array;
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
  /** Earliest time of the drawable the row belongs to (a composite's, for its members). */
  readonly drawableEarliest: Float64Array;
  readonly site: readonly (SourceLocation | undefined)[];
  /** The same as indices into the file's site table (−1: none, or not from a file's table). */
  readonly siteIndex: Int32Array;
}

/**
 * Rows in typed columns only (to post to another thread): sites as indices into the file's table
 * (PrimitiveBatch.siteIndex), info bytes back to back in `info` (infoStart: offsets into it).
 */
export type PackedRows = Pick<
  PrimitiveBatch,
  | 'category'
  | 'vertexCount'
  | 'time0'
  | 'line0'
  | 'time1'
  | 'line1'
  | 'earliest'
  | 'latest'
  | 'drawableEarliest'
  | 'timeLast'
  | 'lineLast'
  | 'infoStart'
  | 'infoLength'
> & {
  readonly site: Int32Array;
  readonly info: Uint8Array;
};

/**
 * A leaf's drawables to merge, as numbers (no object per drawable): node slot × REF_NODE + index
 * in the node. A window's nodes are one per depth and a node's drawables fewer than 2^24
 * (checked), so refs stay exact integers.
 */
export const REF_NODE = 1 << 24;

const NO_INFO = new Uint8Array(0);

/** A batch of `rows` rows to fill. */
type FillableBatch = PrimitiveBatch & { readonly site: (SourceLocation | undefined)[]; readonly infoSource: (Uint8Array | undefined)[] };

export function emptyBatch(rows: number): FillableBatch {
  return {
    rows,
    category: new Int32Array(rows),
    vertexCount: new Int32Array(rows),
    time0: new Float64Array(rows),
    line0: new Int32Array(rows),
    time1: new Float64Array(rows),
    line1: new Int32Array(rows),
    timeLast: new Float64Array(rows),
    lineLast: new Int32Array(rows),
    infoSource: new Array<Uint8Array | undefined>(rows),
    infoStart: new Int32Array(rows),
    infoLength: new Int32Array(rows),
    earliest: new Float64Array(rows),
    latest: new Float64Array(rows),
    drawableEarliest: new Float64Array(rows),
    site: new Array<SourceLocation | undefined>(rows),
    siteIndex: new Int32Array(rows),
  };
}

/** Columns reused batch after batch (ColumnStreamOptions.reuse). */
export class BatchBuffers {
  private capacity = 0;
  private batch = emptyBatch(0);

  take(rows: number): FillableBatch {
    if (rows > this.capacity) {
      this.capacity = Math.max(rows, this.capacity * 2);
      this.batch = emptyBatch(this.capacity);
    }
    return { ...this.batch, rows };
  }
}

/**
 * One leaf's drawables in drawing order: drawable `drawableOf[i]` of node `nodes[nodeOf[i]]` for
 * i < count. Valid until the stream yields the next leaf: the stream reuses its arrays. Two int
 * columns, not one number per ref: splitting a ref (a double once past 2^31) with / and % was a
 * tenth of a decoding thread's packing.
 */
export class OrderedLeaf {
  /** Primitive rows. */
  rows = 0;
  /** Drawables. */
  count = 0;
  nodeOf = new Int32Array(64);
  drawableOf = new Int32Array(64);

  constructor(readonly nodes: NodeColumns[]) {}

  /** Room for `n` drawables (contents not kept). */
  reserve(n: number): void {
    if (this.nodeOf.length >= n) return;
    const size = Math.max(n, 2 * this.nodeOf.length);
    this.nodeOf = new Int32Array(size);
    this.drawableOf = new Int32Array(size);
  }

  /** Sets `rows`, counted as the refs were gathered (a pass over them afterwards was 2 % of the statistics). */
  counted(rows: number): this {
    this.rows = rows;
    return this;
  }

  /** The earliest time of its last drawable (nothing later in the stream starts before it). */
  lastEarliest(): number {
    const i = this.count - 1;
    return i < 0 ? -Infinity : this.nodes[this.nodeOf[i]!]!.drawableEarliest[this.drawableOf[i]!]!;
  }

  /** Info bytes of its rows. */
  infoBytes(): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) {
      const c = this.nodes[this.nodeOf[i]!]!;
      const d = this.drawableOf[i]!;
      const first = c.firstRow[d]!;
      const last = first + c.rowCount[d]! - 1;
      n += c.infoStart[last]! + c.infoLength[last]! - c.infoStart[first]!;
    }
    return n;
  }

  /** Its rows as a batch: in `buffers`' columns (overwritten by the next call) or new ones. */
  toBatch(buffers: BatchBuffers | undefined, withLast: boolean): PrimitiveBatch {
    const out = buffers === undefined ? emptyBatch(this.rows) : buffers.take(this.rows);
    // The columns packed rows have too (sites as indices), then what only a batch has: site
    // objects, and the last vertex and info as views into each node's bytes.
    this.pack({ ...out, site: out.siteIndex, info: NO_INFO }, 0, 0, false);
    let k = 0;
    for (let i = 0; i < this.count; i++) {
      const c = this.nodes[this.nodeOf[i]!]!;
      const d = this.drawableOf[i]!;
      const first = c.firstRow[d]!;
      const n = c.rowCount[d]!;
      for (let r = first; r < first + n; r++, k++) {
        const site = c.siteIndex[r]!;
        out.site[k] = site >= 0 ? c.sites[site] : undefined;
        if (!withLast) continue;
        out.timeLast[k] = c.timeLast[r]!;
        out.lineLast[k] = c.lineLast[r]!;
        out.infoSource[k] = c.info;
        out.infoStart[k] = c.infoStart[r]!;
        out.infoLength[k] = c.infoLength[r]!;
      }
    }
    return out;
  }

  /**
   * Copies its rows into `out` from row `at` and its info bytes (withLast) from byte `infoAt`;
   * returns the info bytes used after them. The caller checks the room (rows, infoBytes()).
   */
  pack(out: PackedRows, at: number, infoAt: number, withLast: boolean): number {
    // Columns in locals: the posted batches' objects differ in shape (new or recycled).
    const { category, vertexCount, time0, line0, time1, line1, earliest, latest, drawableEarliest, site } = out;
    const { timeLast, lineLast, infoStart, infoLength, info } = out;
    let k = at;
    let used = infoAt;
    const { nodes, nodeOf, drawableOf } = this;
    for (let i = 0; i < this.count; i++) {
      const c = nodes[nodeOf[i]!]!;
      const d = drawableOf[i]!;
      const first = c.firstRow[d]!;
      const n = c.rowCount[d]!;
      for (let r = first; r < first + n; r++, k++) {
        category[k] = c.category[r]!;
        vertexCount[k] = c.vertexCount[r]!;
        time0[k] = c.time0[r]!;
        line0[k] = c.line0[r]!;
        time1[k] = c.time1[r]!;
        line1[k] = c.line1[r]!;
        earliest[k] = c.earliest[r]!;
        latest[k] = c.latest[r]!;
        drawableEarliest[k] = c.drawableEarliest[d]!;
        site[k] = c.siteIndex[r]!;
      }
      if (!withLast) continue;
      // A drawable's rows' info bytes are back to back in its node: one copy for all of them.
      const from = c.infoStart[first]!;
      const to = c.infoStart[first + n - 1]! + c.infoLength[first + n - 1]!;
      for (let r = first, j = k - n; r < first + n; r++, j++) {
        timeLast[j] = c.timeLast[r]!;
        lineLast[j] = c.lineLast[r]!;
        infoStart[j] = used + c.infoStart[r]! - from;
        infoLength[j] = c.infoLength[r]!;
      }
      if (to > from) info.set(c.info.subarray(from, to), used);
      used += to - from;
    }
    return used;
  }
}

/** The same batch from drawable objects (converted CLOG2, tests): one row per primitive. */
export function batchFromDrawables(drawables: readonly Drawable[]): PrimitiveBatch {
  let rows = 0;
  for (const d of drawables) rows += d.kind === 'primitive' ? 1 : d.primitives.length;
  const out = emptyBatch(rows);
  let k = 0;
  const put = (p: Primitive, drawableEarliest: number): void => {
    const v = p.vertices;
    const second = v[1] ?? v[0];
    out.category[k] = p.category;
    out.vertexCount[k] = v.length;
    out.time0[k] = v[0]?.time ?? p.earliest;
    out.line0[k] = v[0]?.lineID ?? 0;
    out.time1[k] = second?.time ?? p.earliest;
    out.line1[k] = second?.lineID ?? 0;
    const last = v[v.length - 1];
    out.timeLast[k] = last?.time ?? p.earliest;
    out.lineLast[k] = last?.lineID ?? 0;
    out.infoSource[k] = p.info;
    out.infoStart[k] = 0;
    out.infoLength[k] = p.info?.length ?? 0;
    out.earliest[k] = p.earliest;
    out.latest[k] = p.latest;
    out.drawableEarliest[k] = drawableEarliest;
    out.site[k] = p.source?.start;
    out.siteIndex[k] = -1;
    k++;
  };
  for (const d of drawables) {
    if (d.kind === 'primitive') put(d, d.earliest);
    else for (const p of d.primitives) put(p, d.earliest);
  }
  return out;
}
