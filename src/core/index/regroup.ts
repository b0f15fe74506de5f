/**
 * The two halves of writing a row index, shared by the builder that reads a finished SLOG-2
 * (build.ts) and the one the converter feeds node by node as it writes (direct.ts):
 * `ChunkRegrouper` regroups the drawables of consecutive nodes (one chunk) by key block into
 * runs; `RowIndexFileWriter` writes chunks as they fill (run tables, then run data) and, at the
 * end, the directory and the header (layout: format.ts, docs/FORMATS.md).
 */
import { isFormatError } from '../bytes/formatError';
import type { Slog2Version } from '../formats/slog2/header';
import type { OutputSink } from '../formats/slog2/writer/sink';
import { decodeNodeSites, type NodeSites } from '../formats/srcloc/nodeSites';
import {
  checksum,
  CHUNK_ENTRY_BYTES,
  FIXED_HEADER_BYTES,
  ITEM_HAS_SOURCE,
  KEY_ENTRY_BYTES,
  KIND_REAL,
  KIND_SHADOW,
  levelOf,
  NODE_ENTRY_BYTES,
  ROW_INDEX_MAGIC,
  ROW_INDEX_VERSION,
  runKey,
  TABLE_ENTRY_BYTES,
  type SourceIdentity,
} from './format';
import { Growable } from './growable';
import type { KeySpace } from './keys';
import type { NodeScanner } from './scan';

interface Run {
  readonly kind: number;
  readonly level: number;
  readonly block: number;
  readonly data: Growable;
  /** Chunk-local node index → [end, checksum] for the nodes that wrote into this run. */
  readonly touched: number[];
  segmentStart: number;
}

/** A node as the index directory lists it. */
export interface IndexedNode {
  readonly depth: number;
  readonly xpos: number;
  readonly fptr: number;
  readonly size: number;
}

/** A chunk's directory entry; `first` (its first node's ordinal) may be set once all nodes are known. */
export interface ChunkEntry {
  first: number;
  readonly count: number;
  readonly firstRun: number;
  readonly runCount: number;
}

/** Where one node's source-location record is and how many sites the table has. */
export interface NodeRecord {
  readonly bytes: Uint8Array;
  /** File offset of the record (for error messages). */
  readonly offset: number;
  readonly sites: number;
}

/** One chunk of consecutive nodes, regrouped by (kind, level, key block). Reused after reset(). */
export class ChunkRegrouper {
  nodes = 0;
  /** SLOG-2 node bytes in this chunk. */
  bytes = 0;
  items = 0;
  private runs = new Map<number, Run>();
  /** The buffers of the last chunk's runs, by run key. */
  private spare = new Map<number, Growable>();
  // Runs by [kind][level][block] (a Map lookup per item was a third of the build).
  private byPlace: (Run | undefined)[][][] = [[], []];
  private readonly nodeRuns: Run[] = [];

  constructor(
    private readonly levels: number,
    private readonly blockKeys: number,
  ) {
    this.resetPlaces();
  }

  private resetPlaces(): void {
    this.byPlace = [[], []];
    for (const k of [0, 1]) for (let l = 0; l < this.levels; l++) this.byPlace[k]!.push([]);
  }

  private runFor(kind: number, lo: number, hi: number): Run {
    const level = levelOf(lo, hi, this.blockKeys, this.levels);
    const block = level === this.levels - 1 ? 0 : Math.floor(lo / (this.blockKeys * 2 ** level));
    const slot = this.byPlace[kind]![level]!;
    let run = slot[block];
    if (run === undefined) {
      const key = runKey(kind, level, block);
      // A run's buffer is reused by the same run in later chunks: fresh buffers for every chunk
      // cost page faults and GC (a third of the build).
      let data = this.spare.get(key);
      if (data === undefined) data = new Growable(256);
      else data.length = 0;
      run = { kind, level, block, data, touched: [], segmentStart: -1 };
      slot[block] = run;
      this.runs.set(key, run);
    }
    if (run.segmentStart < 0) {
      run.segmentStart = run.data.length;
      this.nodeRuns.push(run);
    }
    return run;
  }

  /**
   * Adds the node `scanner` has just scanned (`bytes`, `size` of them), with its
   * source-location record if any. A damaged record is ignored, as the reader ignores it.
   */
  addNode(scanner: NodeScanner, bytes: Uint8Array, size: number, file: string, record: NodeRecord | undefined): void {
    const nestless = scanner.nestless;
    const d = scanner.drawables;
    let located: NodeSites | undefined;
    if (record !== undefined) {
      try {
        located = decodeNodeSites(record.bytes, record.offset, file, record.sites, nestless, d.count - nestless);
      } catch (e) {
        if (!isFormatError(e)) throw e;
      }
    }
    const local = this.nodes;
    let p = 0;
    for (let i = 0; i < d.count; i++) {
      if (d.kept[i] === 0) continue;
      const data = this.runFor(KIND_REAL, d.lo[i]!, d.hi[i]!).data;
      // Same alignment as Slog2File.withSources: position after drops against the raw nestless count.
      const sites = located === undefined ? undefined : p < nestless ? located.nestless : located.nestable;
      const at = p < nestless ? p : p - nestless;
      const start = d.start[i]!;
      data.u32(p);
      if (sites !== undefined && sites.located[at] === 1 && bytes[start] === 0) {
        data.u8(ITEM_HAS_SOURCE);
        data.i32(sites.start[at]!);
        data.i32(sites.end[at]!);
      } else data.u8(0);
      data.bytes(bytes, start, d.end[i]!);
      p++;
    }
    const s = scanner.shadows;
    let q = 0;
    for (let i = 0; i < s.count; i++) {
      if (s.kept[i] === 0) continue;
      const data = this.runFor(KIND_SHADOW, s.lo[i]!, s.hi[i]!).data;
      data.u32(q);
      data.bytes(bytes, s.start[i]!, s.end[i]!);
      q++;
    }
    for (const run of this.nodeRuns) {
      const end = run.data.length;
      run.touched.push(local, end, checksum(run.data.raw, run.segmentStart, end));
      run.segmentStart = -1;
    }
    this.nodeRuns.length = 0;
    this.items += p + q;
    this.nodes++;
    this.bytes += size;
  }

  /** The chunk's runs in key order, each with its node table (end offset + checksum per node). */
  *encodedRuns(): Generator<{ kind: number; level: number; block: number; table: Uint8Array; data: Uint8Array }> {
    const sorted = [...this.runs.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    const n = this.nodes;
    for (const run of sorted) {
      const tab = new Uint8Array(n * TABLE_ENTRY_BYTES);
      const dv = new DataView(tab.buffer);
      const empty = checksum(tab, 0, 0);
      let t = 0;
      let end = 0;
      let sum = empty;
      for (let i = 0; i < n; i++) {
        if (t < run.touched.length && run.touched[t] === i) {
          end = run.touched[t + 1]!;
          sum = run.touched[t + 2]!;
          t += 3;
        } else sum = empty;
        dv.setUint32(i * TABLE_ENTRY_BYTES, end);
        dv.setUint32(i * TABLE_ENTRY_BYTES + 4, sum);
      }
      yield { kind: run.kind, level: run.level, block: run.block, table: tab, data: run.data.view() };
    }
  }

  /** Starts a new chunk, keeping the run buffers for reuse. */
  reset(): void {
    this.spare = new Map();
    for (const [key, run] of this.runs) this.spare.set(key, run.data);
    this.runs = new Map();
    this.resetPlaces();
    this.nodes = 0;
    this.bytes = 0;
  }
}

/** Writes an index file: chunks as they come, then the directory and the header. */
export class RowIndexFileWriter {
  private pos = 0;
  private readonly headerBytes: number;
  private readonly pathBytes: Uint8Array;
  /** Run entries go straight into their directory encoding (an object each was 8 MB at 16 384 ranks). */
  private readonly runDir = new Growable(1 << 16);
  private runCount = 0;
  readonly chunks: ChunkEntry[] = [];

  constructor(
    private readonly sink: OutputSink,
    identityPath: string,
  ) {
    this.pathBytes = new TextEncoder().encode(identityPath);
    this.headerBytes = FIXED_HEADER_BYTES + 2 + this.pathBytes.length + 4;
  }

  get bytesWritten(): number {
    return this.pos;
  }

  get runs(): number {
    return this.runCount;
  }

  private async write(b: Uint8Array): Promise<void> {
    await this.sink.write(b);
    this.pos += b.length;
  }

  /** The header's place (written last, by finish). */
  async start(): Promise<void> {
    await this.write(new Uint8Array(this.headerBytes));
  }

  /** Writes a chunk's runs; its entry's `first` is the caller's (set it before finish if unknown now). */
  async writeChunk(chunk: ChunkRegrouper, first: number): Promise<ChunkEntry> {
    const entry: ChunkEntry = { first, count: chunk.nodes, firstRun: this.runCount, runCount: 0 };
    let runs = 0;
    for (const run of chunk.encodedRuns()) {
      const tablePos = this.pos;
      await this.write(run.table);
      const dataPos = this.pos;
      await this.write(run.data);
      this.runDir.u8(run.kind);
      this.runDir.u8(run.level);
      this.runDir.u32(run.block);
      this.runDir.f64(tablePos);
      this.runDir.f64(dataPos);
      runs++;
    }
    this.runCount += runs;
    const done = { ...entry, runCount: runs };
    this.chunks.push(done);
    return done;
  }

  /**
   * The directory (keys, nodes in ordinal order, chunks in ordinal order, runs) and the header.
   * Chunks may have been written in any order: they are listed by their first node.
   */
  async finish(space: KeySpace, nodes: readonly IndexedNode[], identity: SourceIdentity, blockKeys: number, levels: number): Promise<number> {
    const chunks = [...this.chunks].sort((a, b) => a.first - b.first);
    const nkeys = space.lineIDs.length;
    const dir = new Growable(nkeys * KEY_ENTRY_BYTES + nodes.length * NODE_ENTRY_BYTES + chunks.length * CHUNK_ENTRY_BYTES + this.runDir.length);
    for (const id of space.lineIDs) dir.i32(id);
    for (const n of nodes) {
      dir.i16(n.depth);
      dir.i32(n.xpos);
      dir.f64(n.fptr);
      dir.i32(n.size);
    }
    for (const c of chunks) {
      dir.u32(c.first);
      dir.u32(c.count);
      dir.u32(c.firstRun);
      dir.u32(c.runCount);
    }
    dir.bytes(this.runDir.raw, 0, this.runDir.length);
    const dirOffset = this.pos;
    const dirBytes = dir.view();
    await this.write(dirBytes);

    const h = new Growable(this.headerBytes);
    for (let i = 0; i < 8; i++) h.u8(ROW_INDEX_MAGIC.charCodeAt(i));
    h.u32(ROW_INDEX_VERSION);
    h.u32(this.headerBytes);
    h.f64(identity.size);
    h.f64(identity.mtimeMs);
    h.u32(blockKeys);
    h.u32(levels);
    h.u32(nkeys);
    h.u32(nodes.length);
    h.u32(chunks.length);
    h.u32(this.runCount);
    h.f64(dirOffset);
    h.u32(dirBytes.length);
    h.u32(checksum(dirBytes));
    h.u32(space.mapIndex);
    h.u16(this.pathBytes.length);
    h.bytes(this.pathBytes, 0, this.pathBytes.length);
    h.u32(checksum(h.raw, 0, h.length));
    await this.sink.writeAt(0, h.view());
    return this.pos;
  }
}

/** Scans a node and adds it to `chunk` (the step both builders share). */
export function regroupNode(
  scanner: NodeScanner,
  chunk: ChunkRegrouper,
  bytes: Uint8Array,
  node: { readonly fptr: number; readonly size: number },
  file: string,
  version: Slog2Version,
  record: NodeRecord | undefined,
): void {
  scanner.scan(bytes, node.fptr, file, version);
  chunk.addNode(scanner, bytes, node.size, file, record);
}
