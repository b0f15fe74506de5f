/**
 * A tree node's real drawables decoded straight into typed columns (no object per drawable,
 * vertex or info copy), for passes that read every drawable of a file and need only categories,
 * the first two vertices, times and source sites (the wait-state analysis). The shadow buffers are
 * not read. One row per primitive; a composite's members are consecutive rows sharing its drawable
 * index. Same checks as treeNode.ts: every count and length is bounded by the bytes left, and a
 * drawable with a NaN/∞ time is dropped.
 */
import { copyBytes } from '../../bytes/copyBytes';
import type { BufferPool } from '../../bytes/bufferPool';
import { FormatError } from '../../bytes/formatError';
import type { SourceLocation } from '../../model/types';
import type { NodeSites } from '../srcloc/nodeSites';
import { NODE_HEADER_BYTES } from './treeNode';
import { stableOrder } from './stableOrder';
import { MIN_DRAWABLE_BYTES, MIN_MEMBER_BYTES, SCRATCH_MAX_ROWS, ScratchColumns, VERTEX_BYTES, countRows, scratch } from './nodeScratch';

export interface NodeColumns {
  /** Primitive rows. */
  readonly rows: number;
  readonly category: Int32Array;
  readonly vertexCount: Int32Array;
  /** First and second vertex as recorded (second = first for one-vertex drawables). */
  readonly time0: Float64Array;
  readonly line0: Int32Array;
  readonly time1: Float64Array;
  readonly line1: Int32Array;
  /** Last vertex (line ID: the drawing order's final line). */
  readonly timeLast: Float64Array;
  readonly lineLast: Int32Array;
  /** Each primitive row's info bytes: offset in `info` and length (0: none). */
  readonly infoStart: Int32Array;
  readonly infoLength: Int32Array;
  /**
   * The rows' info bytes, back to back: a copy, since the block decoded may be a buffer that is
   * reused (the column stream decodes leaves from its read slabs, overwritten while the leaf's
   * columns are still cached and sliced).
   */
  readonly info: Uint8Array;
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
  /**
   * Start site of each primitive row (drawables that are not composites only, as the object
   * reader) as an index into `sites`, the file's table (−1: none). Not an object per row: an
   * array filled per row was a tenth of a whole-file pass's decoding.
   */
  readonly siteIndex: Int32Array;
  /** End site of each primitive row, as `siteIndex` (the site marks match both ends). */
  readonly siteEndIndex: Int32Array;
  readonly sites: readonly SourceLocation[];
  /**
   * 1 where the object reader gives the row a source (`Primitive.source`: a start or an end site;
   * drawables that are not composites only), else 0.
   */
  readonly sourced: Uint8Array;
  /** Drawables (after dropping NaN ones), in file order: first row, row count, and their sort keys. */
  readonly drawables: number;
  readonly firstRow: Int32Array;
  readonly rowCount: Int32Array;
  readonly drawableCategory: Int32Array;
  readonly drawableEarliest: Float64Array;
  readonly drawableLatest: Float64Array;
  /** Drawable indices sorted by earliest time (stable), for slicing by start time. */
  readonly byEarliest: Int32Array;
  /** Composites among its drawables (a pass that relies on rows in drawing order skips nodes with any). */
  readonly composites: number;
  /** Bounds of all its drawables (+∞ / −∞ when none), to check them against the node's. */
  readonly earliestOfAll: number;
  readonly latestOfAll: number;
}

/**
 * Which drawables a pass wants: its category, start line, time bounds and primitive count. Asked
 * while a node is decoded, so a pass keeping few (the critical path's keeps ~1/16) copies, sorts
 * and slices only those.
 */
export type DrawableFilter = (category: number, line0: number, earliest: number, latest: number, primitives: number, composite: boolean) => boolean;

/**
 * `located`: the node's record as site numbers into `sites` (the file's table), if it has one.
 * `keep`: decode only the drawables it accepts (the bounds of all still cover every finite one).
 * `withInfo`: copy the info bytes (else `info` is empty and every `infoLength` 0: the analysis
 * reads none, and the copy was 5 % of its decoding).
 * `pool`: where the node's one buffer comes from (columns' `.buffer`; see BufferPool), else a new one.
 */
export function decodeNodeColumns(
  bytes: Uint8Array,
  fileOffset: number,
  file: string,
  located: NodeSites | undefined,
  sites: readonly SourceLocation[],
  keep?: DrawableFilter,
  withInfo = true,
  pool?: BufferPool,
): NodeColumns {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength;
  let pos = NODE_HEADER_BYTES;
  const fail = (detail: string, at = pos): never => {
    throw new FormatError(file, fileOffset + at, detail);
  };
  const need = (n: number, what: string): void => {
    if (pos + n > end) fail(`expected ${n} bytes for ${what}, ${end - pos} left in the tree node`);
  };
  need(8, 'drawable counts');
  // Row capacity: every drawable takes at least MIN_DRAWABLE_BYTES, so the block size bounds it.
  let cap = Math.max(1, Math.floor((end - pos) / MIN_MEMBER_BYTES));
  const grow = { rows: 0 };
  // Decoded into scratch columns sized by the worst case (the block size over the smallest
  // encoding: ~2.5x the real rows), then copied out at their real length: allocating the worst
  // case per node was most of the analysis's garbage.
  let dcap = Math.max(1, Math.floor((end - pos) / MIN_DRAWABLE_BYTES));
  if (cap > SCRATCH_MAX_ROWS) {
    // A big block is mostly shadows on a wide trace (100 000 ranks: 10-83 MB upper nodes of a few
    // thousand drawables): its rows counted first, or the worst case was hundreds of MB of
    // columns per node. Uncountable (damaged): the worst case, and the decoding says what is wrong.
    const counted = countRows(dv, pos, end);
    if (counted !== undefined) {
      cap = Math.max(1, counted.rows);
      dcap = Math.max(1, counted.drawables);
    }
  }
  // A rare huge node gets columns of its own, so the shared ones stay small.
  const cols = cap <= SCRATCH_MAX_ROWS ? scratch : new ScratchColumns();
  cols.ensure(cap, dcap);
  const { category, vertexCount, time0, line0, time1, line1, timeLast, lineLast, earliest, latest, infoStart, infoLength, siteIndex, siteEndIndex } = cols;
  const { firstRow, rowCount, drawableCategory, drawableEarliest, drawableLatest, sourced } = cols;
  let drawables = 0;
  let composites = 0;
  let earliestOfAll = Infinity;
  let latestOfAll = -Infinity;

  /** One primitive's fields into row `r`; false when a time is NaN/∞. */
  const primitive = (r: number): boolean => {
    need(8, 'primitive');
    category[r] = dv.getInt32(pos);
    const infolen = dv.getInt16(pos + 4);
    if (infolen < 0) fail(`negative info length ${infolen}`, pos + 4);
    pos += 6;
    need(infolen + 2, 'info bytes and vertex count');
    infoStart[r] = pos;
    infoLength[r] = infolen;
    pos += infolen;
    const nv = dv.getInt16(pos);
    if (nv <= 0) fail(nv === 0 ? 'drawable without vertices (expected >= 1)' : `negative vertex count ${nv}`);
    pos += 2;
    need(nv * VERTEX_BYTES, 'vertices');
    // Each vertex read once (most drawables have one or two): the first, second and last are
    // kept as they go by. lo/hi skip NaN, as comparisons do.
    let lo = Infinity;
    let hi = -Infinity;
    let finite = true;
    let t1 = 0;
    let l1 = 0;
    let t = 0;
    let l = 0;
    for (let v = 0; v < nv; v++) {
      const at = pos + v * VERTEX_BYTES;
      t = dv.getFloat64(at);
      l = dv.getInt32(at + 8);
      if (v === 0) {
        time0[r] = t1 = t;
        line0[r] = l1 = l;
      } else if (v === 1) {
        t1 = t;
        l1 = l;
      }
      if (!Number.isFinite(t)) finite = false;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    vertexCount[r] = nv;
    time1[r] = t1;
    line1[r] = l1;
    timeLast[r] = t;
    lineLast[r] = l;
    earliest[r] = lo;
    latest[r] = hi;
    pos += nv * VERTEX_BYTES;
    return finite;
  };

  for (let list = 0; list < 2; list++) {
    need(4, 'drawable count');
    const n = dv.getInt32(pos);
    if (n < 0 || n * MIN_DRAWABLE_BYTES > end - pos - 4) fail(`drawable count ${n} does not fit in the ${end - pos - 4} bytes left`);
    pos += 4;
    for (let i = 0; i < n; i++) {
      const at = pos;
      need(1, 'drawable kind');
      const kind = dv.getUint8(pos);
      pos += 1;
      const first = grow.rows;
      let members = 1;
      let finite = true;
      let dcat: number;
      if (kind === 0) {
        finite = primitive(first);
        dcat = category[first]!;
      } else if (kind === 1) {
        need(6, 'composite');
        dcat = dv.getInt32(pos);
        const infolen = dv.getInt16(pos + 4);
        if (infolen < 0) fail(`negative info length ${infolen}`, pos + 4);
        pos += 6;
        need(infolen + 2, 'composite info and member count');
        pos += infolen;
        members = dv.getInt16(pos);
        if (members <= 0) fail('composite without members (expected >= 1)');
        pos += 2;
        if (first + members > cap) fail(`composite member count ${members} does not fit in the tree node`);
        for (let m = 0; m < members; m++) if (!primitive(first + m)) finite = false;
      } else return fail(`unknown drawable kind byte ${kind} (expected 0 = primitive or 1 = composite)`, at);
      if (!finite) continue; // dropped, as the object reader drops it (rows are overwritten)
      let lo = Infinity;
      let hi = -Infinity;
      for (let m = 0; m < members; m++) {
        lo = Math.min(lo, earliest[first + m]!);
        hi = Math.max(hi, latest[first + m]!);
      }
      if (lo < earliestOfAll) earliestOfAll = lo;
      if (hi > latestOfAll) latestOfAll = hi;
      if (keep !== undefined && !keep(dcat, line0[first]!, lo, hi, members, kind === 1)) continue; // rows overwritten
      if (kind === 0) {
        const cols = list === 0 ? located?.nestless : located?.nestable;
        const isLocated = cols !== undefined && cols.located[i] === 1;
        const s = isLocated ? cols.start[i]! : -1;
        const e = isLocated ? cols.end[i]! : -1;
        siteIndex[first] = s >= 0 && sites[s] !== undefined ? s : -1;
        siteEndIndex[first] = e >= 0 && sites[e] !== undefined ? e : -1;
        sourced[first] = isLocated ? 1 : 0;
      } else
        for (let m = 0; m < members; m++) {
          siteIndex[first + m] = -1;
          siteEndIndex[first + m] = -1;
          sourced[first + m] = 0;
        }
      if (kind === 1) composites++;
      firstRow[drawables] = first;
      rowCount[drawables] = members;
      drawableCategory[drawables] = dcat;
      drawableEarliest[drawables] = lo;
      drawableLatest[drawables] = hi;
      drawables++;
      grow.rows = first + members;
    }
  }
  const rows = grow.rows;
  let infoBytes = 0;
  if (withInfo) for (let r = 0; r < rows; r++) infoBytes += infoLength[r]!;
  // The node's columns are views of one buffer: ~20 buffers per node were most of a whole-file
  // pass's collector work (tens of thousands of nodes, each buffer tracked and freed alone).
  const arena = new ColumnArena(5 * rows + 2 * drawables, 9 * rows + 4 * drawables, infoBytes + rows, pool);
  // The lists are each in time order already: merged, not sorted.
  const byEarliest = stableOrder(drawableEarliest, drawables, arena.i32(drawables));
  const info = arena.u8(infoBytes);
  const compactStart = arena.i32(rows);
  if (withInfo) {
    // Four bytes at a time: a byte loop here was two fifths of the decoding (32 bytes per state).
    const to = new DataView(info.buffer, info.byteOffset, info.byteLength);
    for (let r = 0, at = 0; r < rows; r++) {
      compactStart[r] = at;
      at = copyBytes(dv, infoStart[r]!, to, at, infoLength[r]!);
    }
  }
  return {
    rows,
    category: arena.i32Of(category, rows),
    vertexCount: arena.i32Of(vertexCount, rows),
    time0: arena.f64Of(time0, rows),
    line0: arena.i32Of(line0, rows),
    time1: arena.f64Of(time1, rows),
    line1: arena.i32Of(line1, rows),
    timeLast: arena.f64Of(timeLast, rows),
    lineLast: arena.i32Of(lineLast, rows),
    infoStart: compactStart,
    infoLength: withInfo ? arena.i32Of(infoLength, rows) : arena.i32(rows),
    info,
    earliest: arena.f64Of(earliest, rows),
    latest: arena.f64Of(latest, rows),
    siteIndex: arena.i32Of(siteIndex, rows),
    siteEndIndex: arena.i32Of(siteEndIndex, rows),
    sites,
    sourced: arena.u8Of(sourced, rows),
    drawables,
    firstRow: arena.i32Of(firstRow, drawables),
    rowCount: arena.i32Of(rowCount, drawables),
    drawableCategory: arena.i32Of(drawableCategory, drawables),
    drawableEarliest: arena.f64Of(drawableEarliest, drawables),
    drawableLatest: arena.f64Of(drawableLatest, drawables),
    byEarliest,
    composites,
    earliestOfAll,
    latestOfAll,
  };
}

/** Typed columns carved from one ArrayBuffer: 8-byte columns first, then 4-byte, then bytes (aligned). */
class ColumnArena {
  private readonly buffer: ArrayBuffer;
  private f64At = 0;
  private i32At: number;
  private u8At: number;

  constructor(f64s: number, i32s: number, u8s: number, pool?: BufferPool) {
    this.i32At = 8 * f64s;
    this.u8At = this.i32At + 4 * i32s;
    const bytes = this.u8At + u8s;
    this.buffer = pool === undefined ? new ArrayBuffer(bytes) : pool.take(bytes);
  }

  f64Of(from: Float64Array, n: number): Float64Array {
    const out = new Float64Array(this.buffer, this.f64At, n);
    this.f64At += 8 * n;
    out.set(from.subarray(0, n));
    return out;
  }

  /** Zeros (a pooled buffer holds an earlier node's bytes). */
  i32(n: number): Int32Array {
    return this.i32View(n).fill(0);
  }

  i32Of(from: Int32Array, n: number): Int32Array {
    const out = this.i32View(n);
    out.set(from.subarray(0, n));
    return out;
  }

  private i32View(n: number): Int32Array {
    const out = new Int32Array(this.buffer, this.i32At, n);
    this.i32At += 4 * n;
    return out;
  }

  u8Of(from: Uint8Array, n: number): Uint8Array {
    const out = this.u8(n);
    out.set(from.subarray(0, n));
    return out;
  }

  /** Filled by the caller. */
  u8(n: number): Uint8Array {
    const out = new Uint8Array(this.buffer, this.u8At, n);
    this.u8At += n;
    return out;
  }
}
