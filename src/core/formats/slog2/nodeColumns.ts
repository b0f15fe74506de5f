/**
 * A tree node's real drawables decoded straight into typed columns (no object per drawable,
 * vertex or info copy), for passes that read every drawable of a file and need only categories,
 * the first two vertices, times and source sites (the wait-state analysis). The shadow buffers are
 * not read. One row per primitive; a composite's members are consecutive rows sharing its drawable
 * index. Same checks as treeNode.ts: every count and length is bounded by the bytes left, and a
 * drawable with a NaN/∞ time is dropped.
 */
import { FormatError } from '../../bytes/formatError';
import type { SourceLocation } from '../../model/types';
import type { NodeSites } from '../srcloc/nodeSites';
import { NODE_HEADER_BYTES } from './treeNode';

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
  /** Line ID of the last vertex (the drawing order's final line). */
  readonly lineLast: Int32Array;
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
  /** Start site of each primitive row (drawables that are not composites only, as the object reader). */
  readonly site: readonly (SourceLocation | undefined)[];
  /** Drawables (after dropping NaN ones), in file order: first row, row count, and their sort keys. */
  readonly drawables: number;
  readonly firstRow: Int32Array;
  readonly rowCount: Int32Array;
  readonly drawableCategory: Int32Array;
  readonly drawableEarliest: Float64Array;
  readonly drawableLatest: Float64Array;
  /** Drawable indices sorted by earliest time (stable), for slicing by start time. */
  readonly byEarliest: Int32Array;
}

/** Smallest encodings (bytes), for bounding counts: kind + category + infolen + nverts + one vertex. */
const MIN_DRAWABLE_BYTES = 1 + 4 + 2 + 2 + 12;
const MIN_MEMBER_BYTES = 4 + 2 + 2 + 12;
const VERTEX_BYTES = 12;

/** `located`: the node's record as site numbers into `sites` (the file's table), if it has one. */
export function decodeNodeColumns(
  bytes: Uint8Array,
  fileOffset: number,
  file: string,
  located: NodeSites | undefined,
  sites: readonly SourceLocation[],
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
  const cap = Math.max(1, Math.floor((end - pos) / MIN_MEMBER_BYTES));
  const grow = { rows: 0 };
  const category = new Int32Array(cap);
  const vertexCount = new Int32Array(cap);
  const time0 = new Float64Array(cap);
  const line0 = new Int32Array(cap);
  const time1 = new Float64Array(cap);
  const line1 = new Int32Array(cap);
  const lineLast = new Int32Array(cap);
  const earliest = new Float64Array(cap);
  const latest = new Float64Array(cap);
  const site: (SourceLocation | undefined)[] = [];
  const dcap = Math.max(1, Math.floor((end - pos) / MIN_DRAWABLE_BYTES));
  const firstRow = new Int32Array(dcap);
  const rowCount = new Int32Array(dcap);
  const drawableCategory = new Int32Array(dcap);
  const drawableEarliest = new Float64Array(dcap);
  const drawableLatest = new Float64Array(dcap);
  let drawables = 0;

  /** One primitive's fields into row `r`; false when a time is NaN/∞. */
  const primitive = (r: number): boolean => {
    need(8, 'primitive');
    category[r] = dv.getInt32(pos);
    const infolen = dv.getInt16(pos + 4);
    if (infolen < 0) fail(`negative info length ${infolen}`, pos + 4);
    pos += 6;
    need(infolen + 2, 'info bytes and vertex count');
    pos += infolen;
    const nv = dv.getInt16(pos);
    if (nv <= 0) fail(nv === 0 ? 'drawable without vertices (expected >= 1)' : `negative vertex count ${nv}`);
    pos += 2;
    need(nv * VERTEX_BYTES, 'vertices');
    let lo = Infinity;
    let hi = -Infinity;
    let finite = true;
    for (let v = 0; v < nv; v++) {
      const t = dv.getFloat64(pos + v * VERTEX_BYTES);
      if (!Number.isFinite(t)) finite = false;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    vertexCount[r] = nv;
    time0[r] = dv.getFloat64(pos);
    line0[r] = dv.getInt32(pos + 8);
    const second = nv > 1 ? pos + VERTEX_BYTES : pos;
    time1[r] = dv.getFloat64(second);
    line1[r] = dv.getInt32(second + 8);
    lineLast[r] = dv.getInt32(pos + (nv - 1) * VERTEX_BYTES + 8);
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
        const cols = list === 0 ? located?.nestless : located?.nestable;
        const s = cols !== undefined && cols.located[i] === 1 ? cols.start[i]! : -1;
        site[first] = s >= 0 ? sites[s] : undefined;
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
        for (let m = 0; m < members; m++) {
          if (!primitive(first + m)) finite = false;
          site[first + m] = undefined;
        }
      } else return fail(`unknown drawable kind byte ${kind} (expected 0 = primitive or 1 = composite)`, at);
      if (!finite) continue; // dropped, as the object reader drops it (rows are overwritten)
      let lo = Infinity;
      let hi = -Infinity;
      for (let m = 0; m < members; m++) {
        lo = Math.min(lo, earliest[first + m]!);
        hi = Math.max(hi, latest[first + m]!);
      }
      firstRow[drawables] = first;
      rowCount[drawables] = members;
      drawableCategory[drawables] = dcat;
      drawableEarliest[drawables] = lo;
      drawableLatest[drawables] = hi;
      drawables++;
      grow.rows = first + members;
    }
  }
  const byEarliest = new Int32Array(drawables);
  let sorted = true;
  for (let d = 0; d < drawables; d++) {
    byEarliest[d] = d;
    if (d > 0 && drawableEarliest[d]! < drawableEarliest[d - 1]!) sorted = false;
  }
  // The lists are mostly in time order already: sort (stably) only when they are not.
  if (!sorted) byEarliest.set(Array.from(byEarliest).sort((a, b) => drawableEarliest[a]! - drawableEarliest[b]! || a - b));
  return {
    rows: grow.rows,
    category,
    vertexCount,
    time0,
    line0,
    time1,
    line1,
    lineLast,
    earliest,
    latest,
    site,
    drawables,
    firstRow,
    rowCount,
    drawableCategory,
    drawableEarliest,
    drawableLatest,
    byEarliest,
  };
}
