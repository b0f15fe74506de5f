/**
 * The real drawables overlapping [t0, t1] in drawing order, one columnar batch per leaf — the same
 * stream, in the same order, as Slog2File.drawableBatchesInTimeOrder (see there for the slicing),
 * decoded by nodeColumns.ts instead of into objects. For whole-file passes (the wait-state
 * analysis): about six times less decoding work and no garbage per drawable.
 */
import { LruCache } from '../../bytes/lruCache';
import type { Drawable, Primitive, SourceLocation } from '../../model/types';
import { nodesInSlabs } from './nodeSlabs';
import { decodeNodeSites, NodeSitesScratch } from '../srcloc/nodeSites';
import { nodeRecordBytes } from '../srcloc/readSourceLocations';
import { decodeNodeColumns, type DrawableFilter, type NodeColumns } from './nodeColumns';

export type { DrawableFilter } from './nodeColumns';
import type { Slog2File } from './slog2File';
import type { TreeNodeInfo } from './treeDir';

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

/** Decoded nodes kept per file: upper nodes are sliced once per leaf below them. */
const CACHE_NODES = 64;
/** Per file, nodes decoded with their info bytes and without (see StreamNodes). */
const caches = new WeakMap<Slog2File, { readonly withInfo: NodeCache; readonly plain: NodeCache }>();
type NodeCache = LruCache<Promise<NodeColumns>, number>;

/** Upper bound on a node list's length (the smallest drawable is 21 bytes): caps the site columns. */
const MIN_DRAWABLE_BYTES = 21;

/** Decoding is synchronous and a node's sites are read only while its columns are made: one scratch. */
const sitesScratch = new NodeSitesScratch();

/** A node's columns from its block and its source-location record (a damaged record is ignored, as the object reader does). */
function decode(file: Slog2File, info: TreeNodeInfo, bytes: Uint8Array, record: Uint8Array | undefined, { keep, withInfo }: StreamNodes): NodeColumns {
  const table = file.sourceLocationTable;
  let located;
  if (record !== undefined && table !== undefined) {
    const cap = Math.floor(bytes.length / MIN_DRAWABLE_BYTES) + 1;
    try {
      located = decodeNodeSites(record, info.fptr + info.size, file.source.name, table.sites.length, cap, cap, sitesScratch);
    } catch {
      located = undefined;
    }
  }
  return decodeNodeColumns(bytes, info.fptr, file.source.name, located, table?.sites ?? [], keep, withInfo);
}

function cacheOf(file: Slog2File, withInfo: boolean): NodeCache {
  let cache = caches.get(file);
  if (cache === undefined) caches.set(file, (cache = { withInfo: new LruCache(CACHE_NODES), plain: new LruCache(CACHE_NODES) }));
  return withInfo ? cache.withInfo : cache.plain;
}

/**
 * Nodes decoded for one stream: the file's shared cache of whole nodes (with or without their
 * info bytes, as the stream needs), or the stream's own when it filters while decoding.
 */
interface StreamNodes {
  readonly cache: NodeCache;
  readonly keep: DrawableFilter | undefined;
  readonly withInfo: boolean;
}

function columnsOf(file: Slog2File, info: TreeNodeInfo, nodes: StreamNodes): Promise<NodeColumns> {
  const cache = nodes.cache;
  let p = cache.get(info.fptr);
  if (p === undefined) {
    p = (async () => {
      // Both reads at once (a copy of the block, not a view a concurrent read could recycle): the
      // sequential reads left the thread idle 13 % of the time.
      const [record, bytes] = await Promise.all([
        file.sourceLocationTable === undefined ? undefined : nodeRecordBytes(file, info).catch(() => undefined),
        file.readBlock(info, `tree node (${info.depth},${info.xpos})`),
      ]);
      return decode(file, info, bytes, record, nodes);
    })();
    cache.set(info.fptr, p);
    const c = cache;
    p.catch(() => c.delete(info.fptr));
  }
  return p;
}

function firstAtOrAfter(c: NodeColumns, t: number): number {
  let lo = 0;
  let hi = c.drawables;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.drawableEarliest[c.byEarliest[mid]!]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A leaf's drawables to merge, as numbers (no object per drawable): node slot × REF_NODE + index
 * in the node. A window's nodes are one per depth and a node's drawables fewer than 2^24
 * (checked), so refs stay exact integers.
 */
const REF_NODE = 1 << 24;

/** drawingOrder.ts on columns: earliest ↑, latest ↓, category ↑, start line ↑, final line ↑. */
function refOrder(nodes: readonly NodeColumns[]): (x: number, y: number) => number {
  return (x, y) => {
    const a = nodes[Math.floor(x / REF_NODE)]!;
    const b = nodes[Math.floor(y / REF_NODE)]!;
    const da = x % REF_NODE;
    const db = y % REF_NODE;
    const ra = a.firstRow[da]!;
    const rb = b.firstRow[db]!;
    return (
      a.drawableEarliest[da]! - b.drawableEarliest[db]! ||
      b.drawableLatest[db]! - a.drawableLatest[da]! ||
      a.drawableCategory[da]! - b.drawableCategory[db]! ||
      a.line0[ra]! - b.line0[rb]! ||
      a.lineLast[ra + a.rowCount[da]! - 1]! - b.lineLast[rb + b.rowCount[db]! - 1]!
    );
  };
}

/** A batch of `rows` rows to fill. */
type FillableBatch = PrimitiveBatch & { readonly site: (SourceLocation | undefined)[]; readonly infoSource: (Uint8Array | undefined)[] };

function emptyBatch(rows: number): FillableBatch {
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
class BatchBuffers {
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

function batchOf(refs: readonly number[], nodes: readonly NodeColumns[], buffers: BatchBuffers | undefined, withLast: boolean): PrimitiveBatch {
  let rows = 0;
  for (const ref of refs) rows += nodes[Math.floor(ref / REF_NODE)]!.rowCount[ref % REF_NODE]!;
  const out = buffers === undefined ? emptyBatch(rows) : buffers.take(rows);
  let k = 0;
  for (const ref of refs) {
    const c = nodes[Math.floor(ref / REF_NODE)]!;
    const d = ref % REF_NODE;
    const first = c.firstRow[d]!;
    const n = c.rowCount[d]!;
    for (let r = first; r < first + n; r++, k++) {
      out.category[k] = c.category[r]!;
      out.vertexCount[k] = c.vertexCount[r]!;
      out.time0[k] = c.time0[r]!;
      out.line0[k] = c.line0[r]!;
      out.time1[k] = c.time1[r]!;
      out.line1[k] = c.line1[r]!;
      if (withLast) {
        out.timeLast[k] = c.timeLast[r]!;
        out.lineLast[k] = c.lineLast[r]!;
        out.infoSource[k] = c.info;
        out.infoStart[k] = c.infoStart[r]!;
        out.infoLength[k] = c.infoLength[r]!;
      }
      out.earliest[k] = c.earliest[r]!;
      out.latest[k] = c.latest[r]!;
      out.drawableEarliest[k] = c.drawableEarliest[d]!;
      out.site[k] = c.site[r];
      out.siteIndex[k] = c.siteIndex[r]!;
    }
  }
  return out;
}

export interface ColumnStreamOptions {
  readonly signal?: AbortSignal;
  /** Only the drawables it accepts, filtered while each node is decoded (nodeColumns.ts). */
  readonly keep?: DrawableFilter;
  /**
   * Each batch's columns are overwritten by the next batch (for consumers done with a batch before
   * they ask for the next: the analysis). A fresh set of columns per leaf was ~10 % of its time.
   */
  readonly reuse?: boolean;
  /**
   * Refuse (DrawableOutsideNode) a node holding a drawable beyond its own time bounds: the
   * slicing by leaf finds a drawable through its node's bounds, so such a file (it breaks
   * SLOG2.md §9) could lose drawables here. For exact results that must count every one.
   */
  readonly withinNodes?: boolean;
  /** Fill timeLast, lineLast and the info columns (else left zero: the analysis does not read them). */
  readonly withLastAndInfo?: boolean;
  /** Bytes per sequential read of leaves (nodeSlabs.ts; tests use tiny slabs to get many on small files). */
  readonly slabBytes?: number;
}

/** A node holds a drawable outside its time bounds (see ColumnStreamOptions.withinNodes). */
export class DrawableOutsideNode extends Error {
  override readonly name = 'DrawableOutsideNode';
}

export async function* primitiveBatchesInTimeOrder(
  file: Slog2File,
  t0 = -Infinity,
  t1 = Infinity,
  options: ColumnStreamOptions = {},
): AsyncGenerator<PrimitiveBatch> {
  const keep = options.keep;
  const [rootEarliest, rootLatest] = file.timeRange;
  const leaves = file.nodesOverlapping(0, Math.max(t0, rootEarliest), Math.min(t1, rootLatest));
  let previousEnd = -Infinity;
  const depths: number[] = [];
  for (let depth = file.maxDepth; depth >= 0; depth--) if (file.level(depth).length > 0) depths.push(depth);
  const slabs = nodesInSlabs(file, leaves, file.sourceLocationTable !== undefined, options.slabBytes === undefined ? {} : { slabBytes: options.slabBytes });
  const refs: number[] = [];
  const nodes: NodeColumns[] = [];
  const order = refOrder(nodes);
  const buffers = options.reuse === true ? new BatchBuffers() : undefined;
  // A filtering stream decodes only what it keeps, so its nodes are its own (not the file's cache).
  const withInfo = options.withLastAndInfo === true;
  const streamNodes: StreamNodes = { cache: keep === undefined ? cacheOf(file, withInfo) : new LruCache(CACHE_NODES), keep, withInfo };
  let pulled = 0;
  for (let i = 0; i < leaves.length; i++) {
    const leaf = leaves[i]!;
    const a = i === 0 ? -Infinity : Math.max(leaf.earliest, previousEnd);
    const b = i === leaves.length - 1 ? Infinity : Math.max(leaf.latest, a);
    previousEnd = b;
    // The open ends look no further than the range: a node holding a drawable that overlaps it
    // overlaps it too (a middle 1 % read every node before it).
    const lookup0 = i === 0 ? Math.max(t0, Math.min(rootEarliest, leaf.earliest)) : a;
    const lookup1 = i === leaves.length - 1 ? Math.min(t1, Math.max(rootLatest, leaf.latest)) : b;
    // Leaves come from big sequential reads (one per few MiB instead of one per node and record),
    // this one and the next (leaves overlap in time: a window usually needs both).
    for (; pulled <= i + 1 && pulled < leaves.length; pulled++) {
      const next = await slabs.next();
      if (next.done) break;
      const cache = streamNodes.cache;
      const { info, bytes, record } = next.value;
      if (cache.get(info.fptr) !== undefined) continue;
      // Decoded now (the slab's bytes are reused later); a damaged leaf fails when it is used.
      let p: Promise<NodeColumns>;
      try {
        p = Promise.resolve(decode(file, info, bytes, record, streamNodes));
      } catch (e) {
        p = Promise.reject(e instanceof Error ? e : new Error(String(e)));
        p.catch(() => cache.delete(info.fptr));
      }
      cache.set(info.fptr, p);
    }
    refs.length = 0;
    nodes.length = 0;
    for (const depth of depths) {
      for (const info of file.nodesOverlapping(depth, lookup0, lookup1)) {
        options.signal?.throwIfAborted();
        const c = await columnsOf(file, info, streamNodes);
        if (options.withinNodes === true && c.drawables > 0 && (c.earliestOfAll < info.earliest || c.latestOfAll > info.latest))
          throw new DrawableOutsideNode(`tree node (${info.depth},${info.xpos}) holds drawables outside its time bounds`);
        if (c.drawables >= REF_NODE)
          throw new RangeError(`tree node (${info.depth},${info.xpos}) holds ${c.drawables} drawables (at most ${REF_NODE - 1} here)`);
        const slot = nodes.length * REF_NODE;
        nodes.push(c);
        for (let k = firstAtOrAfter(c, a); k < c.drawables; k++) {
          const d = c.byEarliest[k]!;
          if (!(c.drawableEarliest[d]! < b)) break;
          if (!(c.drawableEarliest[d]! <= t1 && t0 <= c.drawableLatest[d]!)) continue;
          refs.push(slot + d);
        }
      }
    }
    refs.sort(order);
    if (refs.length > 0) yield batchOf(refs, nodes, buffers, options.withLastAndInfo === true);
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
