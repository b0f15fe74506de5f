/**
 * The real drawables overlapping [t0, t1] in drawing order, one columnar batch per leaf — the same
 * stream, in the same order, as Slog2File.drawableBatchesInTimeOrder (see there for the slicing),
 * decoded by nodeColumns.ts instead of into objects. For whole-file passes (the wait-state
 * analysis): about six times less decoding work and no garbage per drawable.
 */
import { BufferPool } from '../../bytes/bufferPool';
import { LruCache } from '../../bytes/lruCache';
import { HeldSlab, nodesInSlabs, recordInSlab } from './nodeSlabs';
import { decodeNodeSites, NodeSitesScratch } from '../srcloc/nodeSites';
import { nodeRecordBytes } from '../srcloc/readSourceLocations';
import { decodeNodeColumns, type DrawableFilter, type NodeColumns } from './nodeColumns';
import { BatchBuffers, OrderedLeaf, REF_NODE, type PrimitiveBatch } from './leafRows';
import { mergeRuns, RunMergeScratch } from './runMerge';

export type { DrawableFilter } from './nodeColumns';
export { batchFromDrawables, OrderedLeaf, type PackedRows, type PrimitiveBatch } from './leafRows';
import type { Slog2File } from './slog2File';
import type { TreeNodeInfo } from './treeDir';

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
function decode(file: Slog2File, info: TreeNodeInfo, bytes: Uint8Array, record: Uint8Array | undefined, { keep, withInfo, pool }: StreamNodes): NodeColumns {
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
  return decodeNodeColumns(bytes, info.fptr, file.source.name, located, table?.sites ?? [], keep, withInfo, pool);
}

function cacheOf(file: Slog2File, withInfo: boolean): NodeCache {
  let cache = caches.get(file);
  if (cache === undefined) caches.set(file, (cache = { withInfo: new LruCache(CACHE_NODES), plain: new LruCache(CACHE_NODES) }));
  return withInfo ? cache.withInfo : cache.plain;
}

/**
 * Nodes decoded for one stream: the file's shared cache of whole nodes (with or without their
 * info bytes, as the stream needs), or the stream's own when it filters while decoding or
 * recycles its nodes' buffers (`pool`).
 */
interface StreamNodes {
  readonly cache: NodeCache;
  readonly keep: DrawableFilter | undefined;
  readonly withInfo: boolean;
  readonly pool?: BufferPool;
}

/**
 * One node's real drawables as columns (info bytes not copied), through the file's shared cache:
 * for window builds (core/query/buildWindow.ts), which read the nodes of a window one by one.
 */
export function nodeColumnsOf(file: Slog2File, info: TreeNodeInfo): Promise<NodeColumns> {
  return columnsOf(file, info, { cache: cacheOf(file, false), keep: undefined, withInfo: false });
}

function columnsOf(file: Slog2File, info: TreeNodeInfo, nodes: StreamNodes, held?: HeldSlab): Promise<NodeColumns> {
  const cache = nodes.cache;
  let p = cache.get(info.fptr);
  if (p === undefined) {
    p = (held && columnsInSlab(file, info, nodes, held)) ?? columnsRead(file, info, nodes);
    cache.set(info.fptr, p);
    p.catch(() => cache.delete(info.fptr));
  }
  return p;
}

/**
 * An upper node lying, with its record, inside the slab of leaves in use (the one-pass writer puts
 * upper nodes between the leaves): decoded from there, not read again. Read on their own, a fifth
 * of a 1 GiB file was read twice, and each record's 16-byte probe read a 64 KiB block.
 */
function columnsInSlab(file: Slog2File, info: TreeNodeInfo, nodes: StreamNodes, held: HeldSlab): Promise<NodeColumns> | undefined {
  const bytes = held.view(info.fptr, info.size);
  if (bytes === undefined) return undefined;
  const record = file.sourceLocationTable === undefined ? undefined : recordInSlab(held, info, file.source);
  if (record === 'outside') return undefined;
  try {
    return Promise.resolve(decode(file, info, bytes, record, nodes));
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}

function columnsRead(file: Slog2File, info: TreeNodeInfo, nodes: StreamNodes): Promise<NodeColumns> {
  return (async () => {
    // Both reads at once (a copy of the block, not a view a concurrent read could recycle): the
    // sequential reads left the thread idle 13 % of the time.
    // A recycling stream reads its upper nodes into pooled buffers (decoding copies what it
    // keeps): through the file's block cache, each was a new 64 KiB block and a copy, and in a
    // 1 GB file they are 13 000 nodes, whose buffers drew a full collection every ~90 ms.
    const what = `tree node (${info.depth},${info.xpos})`;
    const pooled = nodes.pool?.take(info.size);
    const [record, bytes] = await Promise.all([
      file.sourceLocationTable === undefined ? undefined : nodeRecordBytes(file, info, pooled !== undefined).catch(() => undefined),
      pooled === undefined
        ? file.readBlock(info, what)
        : file.readBlockInto(info, new Uint8Array(pooled, 0, info.size), what).then(() => new Uint8Array(pooled, 0, info.size)),
    ]);
    try {
      return decode(file, info, bytes, record, nodes);
    } finally {
      if (pooled !== undefined) nodes.pool?.give(pooled);
    }
  })();
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

/** drawingOrder.ts on columns: earliest ↑, latest ↓, category ↑, start line ↑, final line ↑. */
function refOrder(nodes: readonly NodeColumns[]): (x: number, y: number) => number {
  return (x, y) => {
    const sa = Math.floor(x / REF_NODE);
    const sb = Math.floor(y / REF_NODE);
    const a = nodes[sa]!;
    const b = nodes[sb]!;
    const da = x - sa * REF_NODE;
    const db = y - sb * REF_NODE;
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

/**
 * Puts a leaf's refs in drawing order: the gathered (key, ref) pairs, one ascending run per node,
 * merged by earliest time (runMerge.ts: no comparator), then each group of equal earliest times
 * sorted with the full comparator. The same order as sorting all with it (both stable, from the
 * same push order); the comparator over every ref was ~6 % of a decoding thread's time.
 */
function sortRefs(leaf: OrderedLeaf, n: number, runs: readonly number[], order: (x: number, y: number) => number, scratch: RunMergeScratch): void {
  leaf.count = n;
  if (n === 0) return;
  leaf.reserve(n);
  const b = mergeRuns(scratch, n, runs);
  const keys = scratch.keys[b];
  const sorted = scratch.refs[b];
  for (let k = 0; k < n;) {
    const t = keys[k]!;
    let end = k + 1;
    while (end < n && keys[end]! === t) end++;
    if (end - k > 1) {
      const group: number[] = [];
      for (let g = k; g < end; g++) group.push(sorted[g]!);
      group.sort(order);
      for (let g = 0; g < group.length; g++) sorted[k + g] = group[g]!;
    }
    k = end;
  }
  // Split once here, as integers from then on.
  const { nodeOf, drawableOf } = leaf;
  for (let k = 0; k < n; k++) {
    const ref = sorted[k]!;
    const slot = Math.floor(ref / REF_NODE);
    nodeOf[k] = slot;
    drawableOf[k] = ref - slot * REF_NODE;
  }
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
  /**
   * The stream's nodes are its own and a node's buffer is reused once the node has left its cache
   * (BufferPool), for consumers done with a leaf or batch before they ask for the next (the
   * decoder thread). The buffers were a full collection every few megabytes decoded.
   */
  readonly recycleNodes?: boolean;
}

/** A node holds a drawable outside its time bounds (see ColumnStreamOptions.withinNodes). */
export class DrawableOutsideNode extends Error {
  override readonly name = 'DrawableOutsideNode';
}

function release(retired: Promise<NodeColumns>[], pool: BufferPool): void {
  for (const p of retired)
    p.then(
      (c) => pool.give(c.category.buffer),
      () => undefined,
    );
  retired.length = 0;
}

export async function* primitiveBatchesInTimeOrder(
  file: Slog2File,
  t0 = -Infinity,
  t1 = Infinity,
  options: ColumnStreamOptions = {},
): AsyncGenerator<PrimitiveBatch> {
  const buffers = options.reuse === true ? new BatchBuffers() : undefined;
  const withLast = options.withLastAndInfo === true;
  for await (const leaf of leavesInTimeOrder(file, t0, t1, options)) yield leaf.toBatch(buffers, withLast);
}

/**
 * The same stream as leaves not yet copied out (each valid until the next is pulled): for a
 * consumer that copies the rows elsewhere anyway (the decoder thread packs them for posting).
 * Leaves without drawables in the range are skipped. `options.reuse` does not apply.
 */
export async function* leavesInTimeOrder(file: Slog2File, t0 = -Infinity, t1 = Infinity, options: ColumnStreamOptions = {}): AsyncGenerator<OrderedLeaf> {
  const keep = options.keep;
  const [rootEarliest, rootLatest] = file.timeRange;
  const leaves = file.nodesOverlapping(0, Math.max(t0, rootEarliest), Math.min(t1, rootLatest));
  let previousEnd = -Infinity;
  const depths: number[] = [];
  for (let depth = file.maxDepth; depth >= 0; depth--) if (file.level(depth).length > 0) depths.push(depth);
  const held = new HeldSlab();
  const slabs = nodesInSlabs(
    file,
    leaves,
    file.sourceLocationTable !== undefined,
    options.slabBytes === undefined ? { held } : { slabBytes: options.slabBytes, held },
  );
  const nodes: NodeColumns[] = [];
  const order = refOrder(nodes);
  const mergeScratch = new RunMergeScratch();
  /** Where each node's run starts among the gathered pairs. */
  const runs: number[] = [];
  const ordered = new OrderedLeaf(nodes);
  // A filtering stream decodes only what it keeps, so its nodes are its own (not the file's cache);
  // so are a recycling stream's, whose nodes leave the cache into `retired`.
  const withInfo = options.withLastAndInfo === true;
  const pool = options.recycleNodes === true ? new BufferPool() : undefined;
  const retired: Promise<NodeColumns>[] = [];
  const cache: NodeCache =
    pool !== undefined ? new LruCache(CACHE_NODES, Infinity, (p) => retired.push(p)) : keep !== undefined ? new LruCache(CACHE_NODES) : cacheOf(file, withInfo);
  const streamNodes: StreamNodes = { cache, keep, withInfo, ...(pool ? { pool } : {}) };
  let pulled = 0;
  // A range no leaf overlaps (before the first leaf, or in a gap between leaves) is one window:
  // upper nodes may still hold drawables overlapping it (a long state around a quiet phase).
  const windows = Math.max(leaves.length, 1);
  for (let i = 0; i < windows; i++) {
    // Nodes that left the cache while the last leaf was made are free now: it has been consumed.
    if (pool !== undefined) release(retired, pool);
    const leafEarliest = leaves[i]?.earliest ?? rootEarliest;
    const leafLatest = leaves[i]?.latest ?? rootLatest;
    // each window starts where the last one ended: they tile the time axis (slog2File.ts
    // drawableBatchesInTimeOrder says why)
    const a = i === 0 ? -Infinity : previousEnd;
    const b = i === windows - 1 ? Infinity : Math.max(leafLatest, a);
    previousEnd = b;
    // The open ends look no further than the range: a node holding a drawable that overlaps it
    // overlaps it too (a middle 1 % read every node before it).
    const lookup0 = i === 0 ? Math.max(t0, Math.min(rootEarliest, leafEarliest)) : a;
    const lookup1 = i === windows - 1 ? Math.min(t1, Math.max(rootLatest, leafLatest)) : b;
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
    nodes.length = 0;
    runs.length = 0;
    let gathered = 0;
    let rows = 0;
    for (const depth of depths) {
      for (const info of file.nodesOverlapping(depth, lookup0, lookup1)) {
        options.signal?.throwIfAborted();
        const c = await columnsOf(file, info, streamNodes, held);
        if (options.withinNodes === true && c.drawables > 0 && (c.earliestOfAll < info.earliest || c.latestOfAll > info.latest))
          throw new DrawableOutsideNode(`tree node (${info.depth},${info.xpos}) holds drawables outside its time bounds`);
        if (c.drawables >= REF_NODE)
          throw new RangeError(`tree node (${info.depth},${info.xpos}) holds ${c.drawables} drawables (at most ${REF_NODE - 1} here)`);
        const slot = nodes.length * REF_NODE;
        nodes.push(c);
        // The node's drawables in the window, in time order: one run of (key, ref) pairs.
        runs.push(gathered);
        mergeScratch.ensure(gathered + c.drawables);
        const keys = mergeScratch.keys[0];
        const found = mergeScratch.refs[0];
        const earliest = c.drawableEarliest;
        for (let k = firstAtOrAfter(c, a); k < c.drawables; k++) {
          const d = c.byEarliest[k]!;
          const e = earliest[d]!;
          if (!(e < b)) break;
          if (!(e <= t1 && t0 <= c.drawableLatest[d]!)) continue;
          keys[gathered] = e;
          found[gathered++] = slot + d;
          rows += c.rowCount[d]!;
        }
      }
    }
    sortRefs(ordered, gathered, runs, order, mergeScratch);
    if (ordered.count > 0) yield ordered.counted(rows);
  }
}
