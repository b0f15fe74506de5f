/**
 * The two halves of writing a row index, shared by the builder that reads a finished SLOG-2
 * (build.ts) and the one the converter feeds node by node as it writes (direct.ts):
 * `ChunkRegrouper` (chunkRegrouper.ts) regroups the drawables of consecutive nodes (one chunk)
 * by key block into runs; `RowIndexFileWriter` writes chunks as they fill (run tables, then run
 * data) and, at the end, the directory and the header (layout: format.ts, docs/FORMATS.md).
 */
import type { Slog2Version } from '../formats/slog2/header';
import type { OutputSink } from '../formats/slog2/writer/sink';
import { EncodeScratch, type ChunkRegrouper, type NodeRecord } from './chunkRegrouper';
import {
  checksum,
  CHUNK_ENTRY_BYTES,
  FIXED_HEADER_BYTES,
  KEY_ENTRY_BYTES,
  NODE_ENTRY_BYTES,
  ROW_INDEX_MAGIC,
  ROW_INDEX_VERSION,
  type SourceIdentity,
} from './format';
import { Growable } from './growable';
import type { KeySpace } from './keys';
import type { NodeScanner } from './scan';

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

/** Writes an index file: chunks as they come, then the directory and the header. */
export class RowIndexFileWriter {
  private pos = 0;
  private readonly headerBytes: number;
  private readonly pathBytes: Uint8Array;
  /** Run entries go straight into their directory encoding (an object each was 8 MB at 16 384 ranks). */
  private readonly runDir = new Growable(1 << 16);
  private runCount = 0;
  private readonly scratch = new EncodeScratch();
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
    const encoded = chunk.encode(this.scratch);
    const base = this.pos;
    // One write per chunk: the sink copies it, so the scratch is free again once this resolves.
    await this.write(encoded.bytes);
    for (const run of encoded.runs) {
      this.runDir.u8(run.kind);
      this.runDir.u8(run.level);
      this.runDir.u32(run.block);
      this.runDir.f64(base + run.table);
      this.runDir.f64(base + run.data);
    }
    this.runCount += encoded.runs.length;
    const entry: ChunkEntry = { first, count: chunk.nodes, firstRun: this.runCount - encoded.runs.length, runCount: encoded.runs.length };
    this.chunks.push(entry);
    return entry;
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
