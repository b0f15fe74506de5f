/**
 * Window queries of part of the rows of a wide trace without its row index (the first open, while
 * the index is being built): each node's bytes are scanned for entry extents and key intervals
 * (NodeScanner, as the index build does, no objects), and only the entries of the asked key ranges
 * are parsed, with the reader's own parser. The plain query parses every row's drawables of every
 * node it reads (at 4096 ranks a whole-trace window parsed 4096 rows to show 128). A WindowSource
 * for buildWindow: same drawables, same order as Slog2File.query restricted to those rows.
 */
import { BinaryReader } from '../bytes/binaryReader';
import { isFormatError } from '../bytes/formatError';
import type { Slog2File, NodeSlice } from '../formats/slog2/slog2File';
import { nodesInSlabs } from '../formats/slog2/nodeSlabs';
import type { TreeNodeInfo } from '../formats/slog2/treeDir';
import { parseDrawableEntry, parseShadow, type NodeParseContext } from '../formats/slog2/treeNode';
import { decodeNodeSites, type NodeSites } from '../formats/srcloc/nodeSites';
import { keyLookup, keySpaceOf, type KeySpace } from '../index/keys';
import { NodeScanner } from '../index/scan';
import { withSource } from '../index/rowIndex';
import type { Category, Drawable, Primitive, Shadow, SourceLocation } from '../model/types';
import type { SliceLike, WindowSource } from './buildWindow';
import { keyRangeOfRows, mapKeysOf, type MapKeys } from './indexedSource';
import type { RowLayout } from './rows';

type KeyRange = readonly [number, number];

/** The keys of a file (its widest map's line IDs) and, per Y map, how rows translate to them. */
export class FileKeys {
  readonly space: KeySpace;
  readonly keyOf: (lineID: number) => number;
  private readonly maps = new Map<number, MapKeys>();

  constructor(file: Slog2File) {
    this.space = keySpaceOf(file.lineIDMaps);
    this.keyOf = keyLookup(this.space);
  }

  /** Key ranges for rows [rowStart, rowEnd) of a map, or undefined when its rows do not follow the key order. */
  keyRanges(layout: RowLayout, mapIndex: number, rowStart: number, rowEnd: number): KeyRange[] | undefined {
    let m = this.maps.get(mapIndex);
    if (m === undefined) this.maps.set(mapIndex, (m = mapKeysOf(this.space, layout)));
    if (!m.usable) return undefined;
    const r = keyRangeOfRows(m, rowStart, rowEnd);
    return r === undefined ? [] : [r];
  }
}

const fileKeys = new WeakMap<Slog2File, FileKeys>();

export function fileKeysOf(file: Slog2File): FileKeys {
  let k = fileKeys.get(file);
  if (k === undefined) fileKeys.set(file, (k = new FileKeys(file)));
  return k;
}

function overlaps(a: { earliest: number; latest: number }, t0: number, t1: number): boolean {
  return a.earliest <= t1 && t0 <= a.latest;
}

function inRanges(lo: number, hi: number, ranges: readonly KeyRange[]): boolean {
  for (const [a, b] of ranges) if (lo <= b && a <= hi) return true;
  return false;
}

export class ScannedWindowSource implements WindowSource {
  nodesRead = 0;
  /** Entries parsed (drawables and shadows), for profiles. */
  decoded = 0;
  private readonly scanner: NodeScanner;
  private readonly ctx: NodeParseContext;

  constructor(
    private readonly file: Slog2File,
    keys: FileKeys,
    private readonly keyRanges: readonly KeyRange[],
  ) {
    this.scanner = new NodeScanner(keys.keyOf, keys.space.lineIDs.length);
    this.ctx = { version: file.header.version, seeCategory: (i, at) => file.seeCategory(i, at), warn: (m) => file.warnings.push(m) };
  }

  get categories(): ReadonlyMap<number, Category> {
    return this.file.categories;
  }

  async *query(t0: number, t1: number, options: { lowestDepth?: number; signal?: AbortSignal } = {}): AsyncGenerator<NodeSlice & SliceLike> {
    const file = this.file;
    const lowest = Math.max(0, Math.min(file.maxDepth, Math.floor(options.lowestDepth ?? 0)));
    const order: TreeNodeInfo[] = [];
    for (let depth = file.maxDepth; depth >= lowest; depth--) for (const info of file.nodesOverlapping(depth, t0, t1)) order.push(info);
    if (this.keyRanges.length === 0) return;
    const table = file.sourceLocationTable;
    for await (const { info, bytes, record } of nodesInSlabs(file, order, table !== undefined)) {
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      this.nodesRead++;
      const withShadows = info.depth === lowest && lowest > 0;
      const { drawables, shadows } = this.decodeNode(info, bytes, record, table?.sites ?? [], withShadows);
      yield {
        depth: info.depth,
        xpos: info.xpos,
        earliest: info.earliest,
        latest: info.latest,
        drawables: drawables.filter((d) => overlaps(d, t0, t1)),
        shadows: shadows.filter((s) => overlaps(s, t0, t1)),
      };
    }
  }

  /** The node's entries in the asked key ranges (sources attached as Slog2File attaches them). */
  private decodeNode(
    info: TreeNodeInfo,
    bytes: Uint8Array,
    record: Uint8Array | undefined,
    sites: readonly SourceLocation[],
    withShadows: boolean,
  ): { drawables: Drawable[]; shadows: Shadow[] } {
    const name = this.file.source.name;
    const s = this.scanner;
    s.scan(bytes, info.fptr, name, this.file.header.version);
    const d = s.drawables;
    const nestless = s.nestless;
    let located: NodeSites | undefined;
    if (record !== undefined) {
      try {
        located = decodeNodeSites(record, info.fptr + info.size, name, sites.length, nestless, d.count - nestless);
      } catch (e) {
        if (!isFormatError(e)) throw e;
        this.file.warnings.push(`source locations of tree node (${info.depth},${info.xpos}) ignored: ${e.message}`);
      }
    }
    const drawables: Drawable[] = [];
    // The record numbers drawables as written: one dropped for a NaN/∞ time holds its place (as in
    // Slog2File.withSources and the node columns).
    for (let i = 0; i < d.count; i++) {
      if (d.kept[i] === 0) continue;
      if (!inRanges(d.lo[i]!, d.hi[i]!, this.keyRanges)) continue;
      const start = d.start[i]!;
      this.decoded++;
      const drawable = parseDrawableEntry(new BinaryReader(bytes.subarray(start, d.end[i]!), info.fptr + start, name), this.ctx);
      if (drawable === undefined) continue;
      const list = located === undefined ? undefined : i < nestless ? located.nestless : located.nestable;
      const k = i < nestless ? i : i - nestless;
      drawables.push(
        list !== undefined && list.located[k] === 1 && drawable.kind === 'primitive' ? withSites(drawable, sites, list.start[k]!, list.end[k]!) : drawable,
      );
    }
    const shadows: Shadow[] = [];
    if (withShadows) {
      const sh = s.shadows;
      for (let i = 0; i < sh.count; i++) {
        if (sh.kept[i] === 0 || !inRanges(sh.lo[i]!, sh.hi[i]!, this.keyRanges)) continue;
        const start = sh.start[i]!;
        this.decoded++;
        const shadow = parseShadow(new BinaryReader(bytes.subarray(start, sh.end[i]!), info.fptr + start, name), this.ctx);
        if (shadow !== undefined) shadows.push(shadow);
      }
    }
    return { drawables, shadows };
  }
}

/** The located drawable `d` with the sites `s0` (start) and `s1` (end; −1: none) of the table. */
function withSites(d: Primitive, sites: readonly SourceLocation[], s0: number, s1: number): Primitive {
  const source: { start?: SourceLocation; end?: SourceLocation } = {};
  const a = s0 >= 0 ? sites[s0] : undefined;
  const b = s1 >= 0 ? sites[s1] : undefined;
  if (a !== undefined) source.start = a;
  if (b !== undefined) source.end = b;
  return withSource(d, source);
}
