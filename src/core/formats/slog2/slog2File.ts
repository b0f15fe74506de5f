/**
 * A lazily read SLOG-2 file (SLOG2.md §13): header, CategoryMap, LineIDMaps and TreeDir are read
 * at open; tree nodes are read on demand through their TreeDir FBinfo and kept in an LRU cache.
 */
import { BinaryReader } from '../../bytes/binaryReader';
import type { ByteSource } from '../../bytes/byteSource';
import { FormatError } from '../../bytes/formatError';
import type { Category, Drawable, LineIDMap, Shadow } from '../../model/types';
import { parseCategoryMap, unknownCategory } from './categoryMap';
import { drawingOrderCompare } from './drawingOrder';
import { HEADER_BYTES, parseHeader, type FBinfo, type Slog2Header } from './header';
import { parseLineIDMapList } from './lineIDMaps';
import { checkNoOverlap, readChecked, readCheckedInto, trailing, validateTreeDir } from './openChecks';
import { LruCache } from '../../bytes/lruCache';
import { TreeIndex, parseTreeDir, type TreeDirColumns, type TreeNodeInfo } from './treeDir';
import { NODE_HEADER_BYTES, parseTreeNode, type TreeNode } from './treeNode';
import type { ShadowTable } from './shadowTable';
import { nodeSourceLocations, readSourceLocations, sourcesFor } from '../srcloc/readSourceLocations';
import type { SourceLocationTable } from '../srcloc/table';
import { isFormatError } from '../../bytes/formatError';

export interface NodeSlice {
  readonly depth: number;
  readonly xpos: number;
  readonly earliest: number;
  readonly latest: number;
  readonly drawables: readonly Drawable[];
  readonly shadows: readonly Shadow[];
  /** Asked for (QueryOptions.shadowTables): the lowest depth's shadow buffers as columns, unfiltered, in place of `shadows`. */
  readonly shadowTables?: readonly ShadowTable[];
}

/** Leaves [from, to) of a time-ordered stream, the first slice starting at `start` (see sliceStarts). */
export interface LeafPart {
  readonly from: number;
  readonly to: number;
  readonly start: number;
}

/** Where each leaf's slice of drawableBatchesInTimeOrder starts: the largest end of the leaves before it (−∞ for the first). */
export function sliceStarts(leaves: readonly { readonly latest: number }[]): Float64Array {
  const starts = new Float64Array(leaves.length);
  let end = -Infinity;
  for (let i = 0; i < leaves.length; i++) {
    starts[i] = end;
    end = Math.max(leaves[i]!.latest, end);
  }
  return starts;
}

/** See Slog2OpenOptions.nodeCacheBytes. */
const NODE_CACHE_BYTES = 64 << 20;

export interface Slog2OpenOptions {
  /** Parsed tree nodes kept in memory (default 32). */
  readonly nodeCacheSize?: number;
  /**
   * Most node-block bytes among them (default 64 MiB). A parsed node takes about 7× its block in
   * heap: a node of a 16 384-rank trace holds every row (15 MB blocks, 1.3 GB heap for the 14
   * nodes of a whole-trace window), where a count alone let the cache grow past the heap.
   */
  readonly nodeCacheBytes?: number;
}

export interface QueryOptions {
  readonly lowestDepth?: number;
  readonly signal?: AbortSignal;
  /** The lowest depth's shadows as their buffers' columns (NodeSlice.shadowTables): no object per shadow. */
  readonly shadowTables?: boolean;
}

function overlaps(a: { earliest: number; latest: number }, t0: number, t1: number): boolean {
  return a.earliest <= t1 && t0 <= a.latest;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

export class Slog2File {
  readonly warnings: string[] = [];
  private readonly categoryMap: Map<number, Category>;
  private readonly index: TreeIndex;
  readonly root: TreeNodeInfo;
  private readonly cache: LruCache<Promise<TreeNode>, number>;
  private reads = 0;
  private bytesParsed = 0;
  private itemsParsed = 0;
  private readonly warnedCategories = new Set<number>();
  /** Our source-location table (files written by this project's converter), else undefined. */
  private sources: SourceLocationTable | undefined;

  private constructor(
    readonly source: ByteSource,
    readonly header: Slog2Header,
    categories: Map<number, Category>,
    readonly lineIDMaps: readonly LineIDMap[],
    dir: TreeDirColumns,
    kept: Int32Array,
    warnings: string[],
    options: Slog2OpenOptions,
  ) {
    this.categoryMap = categories;
    for (const w of warnings) this.warnings.push(w);
    this.index = new TreeIndex(dir, kept, header.maxTreeDepth);
    // validateTreeDir has checked that the root is there (and its first entry is the one kept).
    this.root = this.index.find(header.maxTreeDepth, 0)!;
    this.cache = new LruCache(options.nodeCacheSize ?? 32, options.nodeCacheBytes ?? NODE_CACHE_BYTES);
  }

  /** Reads and validates header, CategoryMap, LineIDMapList and TreeDir; no tree node is read. */
  static async open(source: ByteSource, options: Slog2OpenOptions = {}): Promise<Slog2File> {
    const file = source.name;
    const headBytes = await source.read(0, Math.min(HEADER_BYTES, source.size));
    const { header, warnings } = parseHeader(headBytes, file, source.size);
    checkNoOverlap(file, header);
    const readReader = async (fb: FBinfo, what: string) => new BinaryReader(await readChecked(source, header, fb, what), fb.fptr, file);

    const catReader = await readReader(header.categories, 'CategoryMap');
    const categories = parseCategoryMap(catReader, header.version, warnings);
    trailing(catReader, 'CategoryMap', warnings);
    const mapReader = await readReader(header.lineIDMaps, 'LineIDMapList');
    const lineIDMaps = parseLineIDMapList(mapReader);
    trailing(mapReader, 'LineIDMapList', warnings);
    if (lineIDMaps.length === 0) throw new FormatError(file, header.lineIDMaps.fptr, 'the LineIDMapList is empty (expected >= 1 map)');
    const dirReader = await readReader(header.treeDir, 'TreeDir');
    const dir = parseTreeDir(dirReader, header.maxTreeDepth);
    trailing(dirReader, 'TreeDir', warnings);
    const kept = validateTreeDir(dir, header, source, warnings);
    checkNoOverlap(file, header, dir, kept);
    const opened = new Slog2File(source, header, categories, lineIDMaps, dir, kept, warnings, options);
    try {
      opened.sources = await readSourceLocations(opened);
    } catch (e) {
      // A damaged table loses the click-through, not the trace.
      if (!isFormatError(e)) throw e;
      opened.warnings.push(`source locations ignored: ${e.message}`);
    }
    return opened;
  }

  /** The source-location table our converter stores (docs/FORMATS.md); undefined for reference files. */
  get sourceLocationTable(): SourceLocationTable | undefined {
    return this.sources;
  }

  /** By index, preview categories (< 0) included; placeholders are added for unknown indices met in nodes. */
  get categories(): ReadonlyMap<number, Category> {
    return this.categoryMap;
  }

  /** The tree directory's entries in file order (duplicate ids dropped). */
  get treeDir(): readonly TreeNodeInfo[] {
    return this.index.all();
  }

  /** The root node's bounds. */
  get timeRange(): readonly [number, number] {
    return [this.root.earliest, this.root.latest];
  }

  /** Number of tree-node blocks parsed so far (cache misses). */
  get nodesRead(): number {
    return this.reads;
  }

  get maxDepth(): number {
    return this.header.maxTreeDepth;
  }

  /** TreeDir entries of one depth overlapping the closed window [t0, t1], in time order. */
  nodesOverlapping(depth: number, t0: number, t1: number): readonly TreeNodeInfo[] {
    return this.index.overlapping(depth, t0, t1);
  }

  /** How many TreeDir entries of one depth overlap [t0, t1] (nodesOverlapping's length, no objects made). */
  countOverlapping(depth: number, t0: number, t1: number): number {
    return this.index.countOverlapping(depth, t0, t1);
  }

  /** The block bytes of the TreeDir entries of one depth overlapping [t0, t1] (no objects made). */
  bytesOverlapping(depth: number, t0: number, t1: number): number {
    return this.index.bytesOverlapping(depth, t0, t1);
  }

  /** All TreeDir entries of one depth in xpos order. */
  level(depth: number): readonly TreeNodeInfo[] {
    return this.index.level(depth);
  }

  /** Bounds-checked raw read of a block named by an FBinfo (a copy the caller may keep). */
  async readBlock(fb: { fptr: number; size: number }, what: string): Promise<Uint8Array> {
    return (await readChecked(this.source, this.header, fb, what)).slice();
  }

  /** readBlock into the caller's buffer (at least fb.size bytes; a reused one, for whole-file passes). */
  readBlockInto(fb: { fptr: number; size: number }, target: Uint8Array, what: string): Promise<void> {
    return readCheckedInto(this.source, this.header, fb, target, what);
  }

  /** Like readBlock without the copy: valid only until the next read of this file. */
  readBlockView(fb: { fptr: number; size: number }, what: string): Promise<Uint8Array> {
    return readChecked(this.source, this.header, fb, what);
  }

  /** The parsed node of a TreeDir entry, from the cache or the file. */
  /** The tree node at (depth, xpos), from the tree directory. */
  nodeAt(depth: number, xpos: number): TreeNodeInfo | undefined {
    return this.index.find(depth, xpos);
  }

  readNode(info: TreeNodeInfo): Promise<TreeNode> {
    const hit = this.cache.get(info.fptr);
    if (hit !== undefined) return hit;
    const p = this.parseNode(info);
    this.cache.set(info.fptr, p, info.size);
    p.catch(() => this.cache.delete(info.fptr));
    return p;
  }

  /**
   * The parsed node, from the cache when it is there, else parsed and not kept: for one pass over
   * every node (a search's count), whose nodes would push out those the views reuse, and would
   * live long enough to be promoted and collected by full collections (a count over a 1 GB
   * trace in the analysis worker: 1.5× the time with them cached, a full collection every
   * ~200 ms).
   */
  readNodeOnce(info: TreeNodeInfo): Promise<TreeNode> {
    return this.cache.get(info.fptr) ?? this.parseNode(info);
  }

  private async parseNode(info: TreeNodeInfo): Promise<TreeNode> {
    this.reads++;
    this.bytesParsed += info.size;
    const what = `tree node (${info.depth},${info.xpos})`;
    const bytes = await readChecked(this.source, this.header, info, what);
    const r = new BinaryReader(bytes, info.fptr, this.source.name);
    let node = parseTreeNode(r, {
      version: this.header.version,
      seeCategory: (index, offset) => this.seeCategory(index, offset),
      warn: (m) => this.warnings.push(m),
      shadowsParsed: (n) => (this.itemsParsed += n),
    });
    this.itemsParsed += node.drawables.length;
    if (this.sources !== undefined) node = await this.withSources(node, info, bytes);
    const h = node.header;
    if (h.depth !== info.depth || h.xpos !== info.xpos || h.fptr !== info.fptr || h.size !== info.size) {
      this.warnings.push(
        `${this.source.name}:${info.fptr}: ${what} header says (${h.depth},${h.xpos}) FBinfo(${h.size} @ ${h.fptr}), the tree directory says FBinfo(${info.size} @ ${info.fptr})`,
      );
    }
    // The child stubs are the reference viewer's only parent→child links: they must agree with the TreeDir.
    for (const { child } of node.shadowBuffers) {
      const entry = this.index.find(child.depth, child.xpos);
      if (child.depth !== h.depth - 1 || entry === undefined || entry.fptr !== child.fptr || entry.size !== child.size) {
        this.warnings.push(
          `${this.source.name}:${info.fptr}: ${what} has a child stub (${child.depth},${child.xpos}) FBinfo(${child.size} @ ${child.fptr}) that the tree directory does not list`,
        );
      }
    }
    return node;
  }

  /** Attaches each drawable's {file, line} from the node's source-location record, if it has one. */
  private async withSources(node: TreeNode, info: TreeNodeInfo, bytes: Uint8Array): Promise<TreeNode> {
    // Read before the next source read: a ByteSource may recycle the buffer `bytes` views.
    // The nestless count is the i32 right after the node header (SLOG2.md §7).
    const nestless = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(NODE_HEADER_BYTES);
    let located;
    try {
      located = await nodeSourceLocations(this, this.sources!, info);
    } catch (e) {
      if (!isFormatError(e)) throw e;
      this.warnings.push(`source locations of tree node (${info.depth},${info.xpos}) ignored: ${e.message}`);
      return node;
    }
    if (located === undefined) return node;
    // numbered as written: a drawable dropped for a NaN/∞ time still holds its place
    const positions = node.positions;
    const written = positions === undefined ? node.drawables.length : (positions[positions.length - 1] ?? -1) + 1;
    const sources = sourcesFor(located, written, nestless);
    const drawables = node.drawables.map((d, i): Drawable => {
      const source = sources[positions === undefined ? i : positions[i]!];
      if (source === undefined || d.kind !== 'primitive') return d;
      // A fixed-shape literal, not a spread: this runs once per located drawable of the file.
      return { kind: 'primitive', category: d.category, vertices: d.vertices, info: d.info, earliest: d.earliest, latest: d.latest, source };
    });
    return { ...node, drawables };
  }

  /** Bytes of tree-node blocks parsed so far (cache misses), for query profiles. */
  get nodeBytesRead(): number {
    return this.bytesParsed;
  }

  /** Drawables and shadows of the tree nodes parsed so far, for query profiles. */
  get itemsDecoded(): number {
    return this.itemsParsed;
  }

  /** Registers a category index met while decoding (placeholder + one warning for unknown ones). */
  seeCategory(index: number, offset: number): void {
    if (this.categoryMap.has(index)) return;
    this.categoryMap.set(index, unknownCategory(index));
    if (!this.warnedCategories.has(index)) {
      this.warnedCategories.add(index);
      this.warnings.push(`${this.source.name}:${offset}: unknown category index ${index}; shown as UnknownType-${index}`);
    }
  }

  /**
   * Streams, node by node (root first, then each level down to lowestDepth), the real drawables
   * overlapping [t0, t1] (closed), plus the shadows overlapping it from the ShadowBuffers of the
   * depth == lowestDepth nodes (none when lowestDepth is 0). Reads only nodes overlapping the window.
   */
  async *query(t0: number, t1: number, options: QueryOptions = {}): AsyncGenerator<NodeSlice> {
    const lowest = Math.max(0, Math.min(this.maxDepth, Math.floor(options.lowestDepth ?? 0)));
    for (let depth = this.maxDepth; depth >= lowest; depth--) {
      for (const info of this.index.overlapping(depth, t0, t1)) {
        throwIfAborted(options.signal);
        const node = await this.readNode(info);
        throwIfAborted(options.signal);
        const drawables = node.drawables.filter((d) => overlaps(d, t0, t1));
        const shadows: Shadow[] = [];
        const tables: ShadowTable[] = [];
        if (depth === lowest && lowest > 0) {
          for (const buf of node.shadowBuffers) {
            if (options.shadowTables === true && buf.table !== undefined) tables.push(buf.table);
            else for (const s of buf.shadows) if (overlaps(s, t0, t1)) shadows.push(s);
          }
        }
        const slice = { depth, xpos: info.xpos, earliest: info.earliest, latest: info.latest, drawables, shadows };
        yield options.shadowTables === true ? { ...slice, shadowTables: tables } : slice;
      }
    }
  }

  /** Every real drawable of the file exactly once, node by node in leaf-first order (no node kept: readNodeOnce). */
  async *allDrawables(options: { signal?: AbortSignal } = {}): AsyncGenerator<Drawable> {
    for (let depth = 0; depth <= this.maxDepth; depth++) {
      for (const info of this.index.level(depth)) {
        throwIfAborted(options.signal);
        const node = await this.readNodeOnce(info);
        yield* node.drawables;
      }
    }
  }

  /**
   * The real drawables overlapping [t0, t1] in increasing start time (drawing order), streamed
   * leaf by leaf (SLOG2.md §13 "streaming all real drawables in time order"): for each leaf
   * [a, b) — the first one open to the left, the last one to the right — the drawables of every
   * node overlapping it whose earliest time lies in [a, b). Memory: the nodes of one root-to-leaf path.
   */
  async *drawablesInTimeOrder(t0 = -Infinity, t1 = Infinity, options: { signal?: AbortSignal } = {}): AsyncGenerator<Drawable> {
    for await (const batch of this.drawableBatchesInTimeOrder(t0, t1, options)) yield* batch;
  }

  /** The leaves whose slices drawableBatchesInTimeOrder(t0, t1) reads, in order: at most one batch each. */
  timeOrderLeaves(t0 = -Infinity, t1 = Infinity): readonly TreeNodeInfo[] {
    return this.index.overlapping(0, Math.max(t0, this.root.earliest), Math.min(t1, this.root.latest));
  }

  /**
   * The same stream as drawablesInTimeOrder, one array per leaf (far fewer promises per drawable).
   * `leaves`: only the slices of timeOrderLeaves(t0, t1)[from, to), the first starting at `start`
   * (the largest end of the leaves before it, −∞ for the first: see sliceStarts); consecutive
   * ranges give the stream in parts, as two threads dumping a file in turns do.
   */
  async *drawableBatchesInTimeOrder(
    t0 = -Infinity,
    t1 = Infinity,
    options: { signal?: AbortSignal; leaves?: LeafPart } = {},
  ): AsyncGenerator<readonly Drawable[]> {
    const leaves = this.timeOrderLeaves(t0, t1);
    // The slices [a, b) tile the time axis: each starts where the previous one ended. Disjoint and
    // increasing even when a damaged TreeDir gives leaves overlapping bounds (else drawables are
    // yielded twice, out of order: fuzzer finding), and without a gap where leaves leave one (a
    // leaf whose bounds overlap nothing, views:248:77: the drawables of upper nodes starting in the
    // gap were yielded by no slice). For a valid file a = leaf.earliest, b = leaf.latest.
    const { from, to, start } = options.leaves ?? { from: 0, to: leaves.length, start: -Infinity };
    let previousEnd = start;
    // Only the depths that have nodes: max_treedepth may claim up to 32767 levels, and leaves ×
    // empty levels cost ~0.3 s per thousand leaves (half a minute for 100 000) in a crafted file.
    const depths: number[] = [];
    for (let depth = this.maxDepth; depth >= 0; depth--) if (this.index.level(depth).length > 0) depths.push(depth);
    // The upper nodes' drawables by start, kept while later slices still overlap the node: an
    // upper node spans many leaves, and through the node cache alone a wide trace's upper nodes
    // (MBs of shadows each, more than the cache holds together) were parsed again for every leaf.
    const held = new Map<number, { readonly latest: number; readonly byStart: readonly Drawable[] }>();
    for (let i = Math.max(0, from); i < Math.min(to, leaves.length); i++) {
      const leaf = leaves[i]!;
      const a = i === 0 ? -Infinity : previousEnd;
      const b = i === leaves.length - 1 ? Infinity : Math.max(leaf.latest, a);
      previousEnd = b;
      // The open ends look no further than the range: a node holding a drawable that overlaps it
      // overlaps it too (a range in the middle read every node before and after it).
      const lookup0 = i === 0 ? Math.max(t0, Math.min(this.root.earliest, leaf.earliest)) : a;
      const lookup1 = i === leaves.length - 1 ? Math.min(t1, Math.max(this.root.latest, leaf.latest)) : b;
      const batch: Drawable[] = [];
      for (const depth of depths) {
        for (const info of this.index.overlapping(depth, lookup0, lookup1)) {
          throwIfAborted(options.signal);
          let kept = depth === 0 ? undefined : held.get(info.fptr);
          if (kept === undefined) {
            kept = { latest: info.latest, byStart: byEarliest(await this.readNode(info)) };
            if (depth > 0) held.set(info.fptr, kept);
          }
          const byStart = kept.byStart;
          // Upper nodes are visited once per leaf below them: binary-search the start-time slice.
          for (let k = firstAtOrAfter(byStart, a); k < byStart.length && byStart[k]!.earliest < b; k++) {
            const d = byStart[k]!;
            if (overlaps(d, t0, t1)) batch.push(d);
          }
        }
      }
      // (a node ending before the next slice overlaps no later one: slices only move on)
      for (const [fptr, node] of held) if (node.latest < b) held.delete(fptr);
      batch.sort(drawingOrderCompare);
      if (batch.length > 0) yield batch;
    }
  }

  close(): Promise<void> {
    this.cache.clear();
    return this.source.close();
  }
}

const sortedByEarliest = new WeakMap<TreeNode, readonly Drawable[]>();

/** A node's drawables sorted by earliest time (computed once per parsed node). */
function byEarliest(node: TreeNode): readonly Drawable[] {
  let sorted = sortedByEarliest.get(node);
  if (sorted === undefined) {
    sorted = [...node.drawables].sort((x, y) => x.earliest - y.earliest);
    sortedByEarliest.set(node, sorted);
  }
  return sorted;
}

/** Index of the first drawable with earliest >= t in an array sorted by earliest. */
function firstAtOrAfter(sorted: readonly Drawable[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.earliest < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
