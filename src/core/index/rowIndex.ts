/**
 * Reader of the row index (layout: format.ts). `open` checks magic, version, checksums, and that
 * the index describes exactly this SLOG-2 (identity, keys, every tree node); any mismatch is a
 * FormatError and the caller falls back to the plain path. `readNodes` reads the segments of
 * the asked nodes and key ranges, verifies each segment's checksum, and decodes its items with
 * the SLOG-2 reader's own parser.
 */
import { BinaryReader } from '../bytes/binaryReader';
import type { ByteSource } from '../bytes/byteSource';
import { FormatError } from '../bytes/formatError';
import type { Slog2File } from '../formats/slog2/slog2File';
import type { TreeNodeInfo } from '../formats/slog2/treeDir';
import { parseDrawableEntry, parseShadow, type NodeParseContext } from '../formats/slog2/treeNode';
import type { Drawable, DrawableSource, Primitive, Shadow, SourceLocation } from '../model/types';
import { ordinalOrder } from './build';
import { LruCache } from '../bytes/lruCache';
import { concurrently } from '../bytes/concurrently';
import {
  blocksToRead,
  checksum,
  FIXED_HEADER_BYTES,
  ITEM_HAS_SOURCE,
  KIND_REAL,
  KIND_SHADOW,
  runKey,
  TABLE_ENTRY_BYTES,
  type IndexHeader,
  type SourceIdentity,
} from './format';
import { parseIndexHeader } from './indexHeader';
import { keySpaceOf, type KeySpace } from './keys';
import { readChunks, type Chunk } from './runDirectory';

export interface ReadStats {
  /** Distinct tree nodes whose segments were read. */
  nodesRead: number;
  bytesRead: number;
  /** Items decoded (drawables and shadows). */
  decoded: number;
}

export function emptyStats(): ReadStats {
  return { nodesRead: 0, bytesRead: 0, decoded: 0 };
}

/** What one node contributes, in the node's own order (as Slog2File.query would yield it). */
export interface NodeItems {
  readonly drawables: Drawable[];
  readonly shadows: Shadow[];
}

/** Decoded (run, node) segments kept: a scroll step re-uses the segments of the nodes it shares with the last one. */
const SEGMENT_CACHE_ENTRIES = 8192;
/** Segment reads in flight at once (libuv reads on 4 threads; a few more keep them busy). */
const READS_IN_FLIGHT = 8;

/** One run's segments of a range of node ordinals in one chunk, to read. */
interface SegmentJob {
  readonly chunk: Chunk;
  readonly run: readonly [number, number];
  readonly lo: number;
  readonly hi: number;
  readonly kind: number;
}

interface Segment {
  readonly d: readonly [number, Drawable][];
  readonly s: readonly [number, Shadow][];
}

export class RowIndex {
  private readonly segments = new LruCache<Segment>(SEGMENT_CACHE_ENTRIES);

  private constructor(
    readonly source: ByteSource,
    readonly slog: Slog2File,
    readonly header: IndexHeader,
    readonly keys: KeySpace,
    private readonly ordinal: Map<TreeNodeInfo, number>,
    private readonly nodes: readonly TreeNodeInfo[],
    private readonly chunks: readonly Chunk[],
  ) {}

  get identity(): SourceIdentity {
    return this.header.identity;
  }

  /** Opens and validates `source` as the index of `slog`; `expected` (when given) must match its identity. */
  static async open(source: ByteSource, slog: Slog2File, expected?: SourceIdentity): Promise<RowIndex> {
    const file = source.name;
    if (source.size < FIXED_HEADER_BYTES + 6) throw new FormatError(file, 0, `${source.size} bytes is too short for a row index`);
    const fixed = await source.read(0, FIXED_HEADER_BYTES + 2);
    const pathLen = new DataView(fixed.buffer, fixed.byteOffset, fixed.byteLength).getUint16(FIXED_HEADER_BYTES);
    const headLen = Math.min(source.size, FIXED_HEADER_BYTES + 2 + pathLen + 4);
    const header = parseIndexHeader((await source.read(0, headLen)).slice(), file, source.size);
    if (expected !== undefined) {
      const id = header.identity;
      if (id.size !== expected.size || id.mtimeMs !== expected.mtimeMs) {
        throw new FormatError(
          file,
          16,
          `stale: built for ${id.size} bytes, mtime ${new Date(id.mtimeMs).toISOString()}; the trace now has ${expected.size} bytes, mtime ${new Date(expected.mtimeMs).toISOString()}`,
        );
      }
    }
    const dir = (await source.read(header.dirOffset, header.dirBytes)).slice();
    if (checksum(dir) !== header.dirChecksum) throw new FormatError(file, header.dirOffset, 'row index directory checksum mismatch (damaged file)');
    const r = new BinaryReader(dir, header.dirOffset, file);

    const keys = keySpaceOf(slog.lineIDMaps);
    if (keys.lineIDs.length !== header.keys || keys.mapIndex !== header.mapIndex)
      throw r.error(`the index has ${header.keys} keys (map ${header.mapIndex}), the trace ${keys.lineIDs.length} (map ${keys.mapIndex})`);
    for (let k = 0; k < header.keys; k++) {
      if (r.i32() !== keys.lineIDs[k]) throw r.error(`key ${k} names another line ID than the trace's maps`, r.pos - 4);
    }
    const nodes = ordinalOrder(slog);
    if (nodes.length !== header.nodes) throw r.error(`the index lists ${header.nodes} tree nodes, the trace has ${nodes.length}`);
    const ordinal = new Map<TreeNodeInfo, number>();
    nodes.forEach((n, i) => {
      const at = r.pos;
      const depth = r.i16();
      const xpos = r.i32();
      const fptr = r.f64();
      const size = r.i32();
      if (depth !== n.depth || xpos !== n.xpos || fptr !== n.fptr || size !== n.size) {
        throw r.error(`node ${i} is (${depth},${xpos}) ${size} bytes at ${fptr}; the trace's is (${n.depth},${n.xpos}) ${n.size} bytes at ${n.fptr}`, at);
      }
      ordinal.set(n, i);
    });
    const chunks = readChunks(r, header, file);
    return new RowIndex(source, slog, header, keys, ordinal, nodes, chunks);
  }

  /** Ordinal of a TreeDir entry of the indexed file. */
  ordinalOf(info: TreeNodeInfo): number {
    const o = this.ordinal.get(info);
    if (o === undefined) throw new Error(`tree node (${info.depth},${info.xpos}) is not in the row index`);
    return o;
  }

  /**
   * Decoded items of the given nodes (ordinals) that may touch the key ranges: a superset of the
   * drawables on those keys, never missing one; each node's items in the node's order.
   * `shadowsOf` says for which ordinals the shadows are wanted.
   */
  async readNodes(
    ordinals: readonly number[],
    keyRanges: readonly (readonly [number, number])[],
    shadowsOf: ReadonlySet<number>,
    stats: ReadStats,
    signal?: AbortSignal,
  ): Promise<Map<number, NodeItems>> {
    const h = this.header;
    const want = new Set(ordinals);
    const out = new Map<number, { d: [number, Drawable][]; s: [number, Shadow][] }>();
    for (const o of ordinals) out.set(o, { d: [], s: [] });
    const runKeys = new Set<number>();
    const shadowKeys = new Set<number>();
    for (let level = 0; level < h.levels; level++) {
      for (const [a, b] of keyRanges) {
        const [b0, b1] = blocksToRead(a, b, level, h.blockKeys, h.levels);
        for (let blk = b0; blk <= b1; blk++) {
          runKeys.add(runKey(KIND_REAL, level, blk));
          shadowKeys.add(runKey(KIND_SHADOW, level, blk));
        }
      }
    }
    const ctx = this.parseContext();
    const sorted = [...want].sort((x, y) => x - y);
    const jobs: SegmentJob[] = [];
    for (const chunk of this.chunks) {
      // Consecutive ordinal ranges of this chunk that are asked for.
      const ranges: [number, number][] = [];
      for (const o of sorted) {
        if (o < chunk.first || o >= chunk.first + chunk.count) continue;
        const last = ranges[ranges.length - 1];
        if (last !== undefined && last[1] === o) last[1] = o + 1;
        else ranges.push([o, o + 1]);
      }
      if (ranges.length === 0) continue;
      for (const kind of [KIND_REAL, KIND_SHADOW]) {
        const keysOfKind = kind === KIND_REAL ? runKeys : shadowKeys;
        for (const key of keysOfKind) {
          const run = chunk.run(key);
          if (run === undefined) continue;
          for (const [lo, hi] of ranges) {
            if (kind === KIND_SHADOW && !anyIn(shadowsOf, lo, hi)) continue;
            jobs.push({ chunk, run, lo, hi, kind });
          }
        }
      }
    }
    // Each job is two small reads (its table, then its data): in flight together, a window of a
    // 16 384-row trace (~150 reads) waits for a few round trips instead of one per read.
    await concurrently(jobs, READS_IN_FLIGHT, async ({ chunk, run, lo, hi, kind }) => {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      await this.readSegments(chunk, run, lo, hi, kind, shadowsOf, out, stats, ctx);
    });
    const result = new Map<number, NodeItems>();
    for (const [o, { d, s }] of out) {
      if (d.length > 0 || s.length > 0) stats.nodesRead++;
      d.sort((x, y) => x[0] - y[0]);
      s.sort((x, y) => x[0] - y[0]);
      result.set(o, { drawables: d.map((x) => x[1]), shadows: s.map((x) => x[1]) });
    }
    return result;
  }

  private parseContext(): NodeParseContext {
    const slog = this.slog;
    return { version: slog.header.version, seeCategory: (i, at) => slog.seeCategory(i, at), warn: (m) => slog.warnings.push(m) };
  }

  private async readSegments(
    chunk: Chunk,
    [tablePos, dataPos]: readonly [number, number],
    lo: number,
    hi: number,
    kind: number,
    shadowsOf: ReadonlySet<number>,
    out: Map<number, { d: [number, Drawable][]; s: [number, Shadow][] }>,
    stats: ReadStats,
    ctx: NodeParseContext,
  ): Promise<void> {
    const file = this.source.name;
    // All segments of the range decoded before (and shadows wanted only where they were decoded): no read.
    const cached: Segment[] = [];
    for (let o = lo; o < hi; o++) {
      const seg = this.segments.get(`${tablePos}:${o}`);
      if (seg === undefined) break;
      cached.push(seg);
    }
    if (cached.length === hi - lo) {
      cached.forEach((seg, i) => {
        const target = out.get(lo + i)!;
        // Loops, not push(...x): a segment may hold more drawables than a call takes arguments.
        for (const d of seg.d) target.d.push(d);
        if (kind === KIND_REAL || shadowsOf.has(lo + i)) for (const sh of seg.s) target.s.push(sh);
      });
      return;
    }
    const l0 = lo - chunk.first;
    const l1 = hi - chunk.first;
    const from = Math.max(0, l0 - 1);
    // Copied in each read's own continuation: other jobs' reads run meanwhile (ByteSource.read).
    const tab = await this.source.read(tablePos + from * TABLE_ENTRY_BYTES, (l1 - from) * TABLE_ENTRY_BYTES).then((b) => b.slice());
    stats.bytesRead += tab.length;
    const tv = new DataView(tab.buffer);
    const endOf = (l: number): number => tv.getUint32((l - from) * TABLE_ENTRY_BYTES);
    const start = l0 === 0 ? 0 : endOf(l0 - 1);
    const end = endOf(l1 - 1);
    const limit = this.header.dirOffset - dataPos;
    if (end < start || end > limit)
      throw new FormatError(file, tablePos + from * TABLE_ENTRY_BYTES, `segment end ${end} is before ${start} or beyond the index data`);
    if (end === start) return;
    const data = await this.source.read(dataPos + start, end - start).then((b) => b.slice());
    stats.bytesRead += data.length;
    let segStart = start;
    for (let l = l0; l < l1; l++) {
      const segEnd = endOf(l);
      const sum = tv.getUint32((l - from) * TABLE_ENTRY_BYTES + 4);
      if (segEnd < segStart || segEnd > end) throw new FormatError(file, tablePos + l * TABLE_ENTRY_BYTES, `segment ends ${segEnd} out of order`);
      const a = segStart - start;
      const b = segEnd - start;
      if (checksum(data, a, b) !== sum) throw new FormatError(file, dataPos + segStart, 'row index segment checksum mismatch (damaged file)');
      const ordinal = chunk.first + l;
      const decode = kind === KIND_REAL || shadowsOf.has(ordinal);
      if (a === b && decode) this.segments.set(`${tablePos}:${ordinal}`, { d: [], s: [] });
      if (a < b && decode) {
        const r = new BinaryReader(data.subarray(a, b), dataPos + segStart, file);
        const target = { d: [] as [number, Drawable][], s: [] as [number, Shadow][] };
        while (r.remaining > 0) {
          const index = r.u32('item index');
          stats.decoded++;
          if (kind === KIND_REAL) {
            const flags = r.u8('item flags');
            let source: DrawableSource | undefined;
            if ((flags & ITEM_HAS_SOURCE) !== 0) source = this.sourceOf(r.i32('start site'), r.i32('end site'), r);
            const d = parseDrawableEntry(r, ctx);
            if (d === undefined) continue;
            target.d.push([index, source !== undefined && d.kind === 'primitive' ? withSource(d, source) : d]);
          } else {
            const s = parseShadow(r, ctx);
            if (s !== undefined) target.s.push([index, s]);
          }
        }
        this.segments.set(`${tablePos}:${ordinal}`, target);
        const into = out.get(ordinal)!;
        for (const d of target.d) into.d.push(d);
        for (const sh of target.s) into.s.push(sh);
      }
      segStart = segEnd;
    }
  }

  private sourceOf(s0: number, s1: number, r: BinaryReader): DrawableSource {
    const sites = this.slog.sourceLocationTable?.sites ?? [];
    const site = (s: number): SourceLocation | undefined => {
      if (s < -1 || s >= sites.length) throw r.error(`site index ${s} is outside [-1, ${sites.length})`, r.pos - 4);
      return s >= 0 ? sites[s] : undefined;
    };
    const src: { start?: SourceLocation; end?: SourceLocation } = {};
    const a = site(s0);
    const b = site(s1);
    if (a !== undefined) src.start = a;
    if (b !== undefined) src.end = b;
    return src;
  }

  /**
   * Bytes of real drawables per (level-0 key block, node) for the blocks [b0, b1] and the given
   * nodes, from the run tables alone (no drawable is read): the data of a density view. Row
   * [block - b0], column [position in `ordinals`].
   */
  async blockBytes(ordinals: readonly number[], b0: number, b1: number, stats: ReadStats): Promise<Float64Array[]> {
    const out = Array.from({ length: b1 - b0 + 1 }, () => new Float64Array(ordinals.length));
    const position = new Map<number, number>();
    ordinals.forEach((o, i) => position.set(o, i));
    const sorted = [...ordinals].sort((x, y) => x - y);
    const jobs: { chunk: Chunk; inChunk: number[]; blk: number; run: readonly [number, number] }[] = [];
    for (const chunk of this.chunks) {
      const inChunk = sorted.filter((o) => o >= chunk.first && o < chunk.first + chunk.count);
      if (inChunk.length === 0) continue;
      for (let blk = b0; blk <= b1; blk++) {
        const run = chunk.run(runKey(KIND_REAL, 0, blk));
        if (run !== undefined) jobs.push({ chunk, inChunk, blk, run });
      }
    }
    // One table read per (chunk, key block): in flight together, as readNodes' segments.
    await concurrently(jobs, READS_IN_FLIGHT, async ({ chunk, inChunk, blk, run }) => {
      const lo = inChunk[0]! - chunk.first;
      const hi = inChunk[inChunk.length - 1]! - chunk.first + 1;
      const from = Math.max(0, lo - 1);
      const tab = await this.source.read(run[0] + from * TABLE_ENTRY_BYTES, (hi - from) * TABLE_ENTRY_BYTES);
      stats.bytesRead += tab.length;
      const tv = new DataView(tab.buffer, tab.byteOffset, tab.byteLength);
      const endOf = (l: number): number => (l < 0 ? 0 : tv.getUint32((l - from) * TABLE_ENTRY_BYTES));
      for (const o of inChunk) {
        const l = o - chunk.first;
        const n = endOf(l) - endOf(l - 1);
        if (n < 0) throw new FormatError(this.source.name, run[0] + l * TABLE_ENTRY_BYTES, `segment ends out of order`);
        out[blk - b0]![position.get(o)!] = n;
      }
    });
    return out;
  }

  /** The TreeDir entry of an ordinal. */
  node(ordinal: number): TreeNodeInfo {
    return this.nodes[ordinal]!;
  }

  close(): Promise<void> {
    this.segments.clear();
    return this.source.close();
  }
}

function anyIn(set: ReadonlySet<number>, lo: number, hi: number): boolean {
  for (let o = lo; o < hi; o++) if (set.has(o)) return true;
  return false;
}

/** `d` with its source location (a fixed-shape literal: this runs once per located drawable). */
export function withSource(d: Primitive, source: DrawableSource): Primitive {
  return { kind: 'primitive', category: d.category, vertices: d.vertices, info: d.info, earliest: d.earliest, latest: d.latest, source };
}
