/**
 * Builds the row index of a SLOG-2 file in one pass over its tree nodes (ordinal order, see
 * format.ts), streaming: memory is one chunk of regrouped items (≈ CHUNK_BYTES) plus the
 * directory. Drawables are copied as their SLOG-2 bytes (no objects are built), so the index
 * decodes with the reader's own parser and cannot disagree with it. The converter writes the
 * same file as it writes the SLOG-2 (direct.ts); both use regroup.ts.
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import type { OutputSink } from '../formats/slog2/writer/sink';
import type { TreeNodeInfo } from '../formats/slog2/treeDir';
import { DEFAULT_BLOCK_KEYS, levelsFor, type SourceIdentity } from './format';
import { keyLookup, keySpaceOf } from './keys';
import { nodesInSlabs } from '../formats/slog2/nodeSlabs';
import { NodeScanner } from './scan';
import { ChunkRegrouper } from './chunkRegrouper';
import { regroupNode, RowIndexFileWriter } from './regroup';

export interface BuildOptions {
  readonly blockKeys?: number;
  /** SLOG-2 node bytes per chunk (bounds the builder's memory). */
  readonly chunkBytes?: number;
  readonly signal?: AbortSignal;
  /** SLOG-2 node bytes done / total. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface BuildReport {
  readonly bytes: number;
  readonly nodes: number;
  readonly chunks: number;
  readonly runs: number;
  readonly items: number;
  readonly keys: number;
}

export const DEFAULT_CHUNK_BYTES = 16 << 20;

/** Nodes in index ordinal order: depth descending, then xpos (the order a window query visits them). */
export function ordinalOrder(file: Slog2File): TreeNodeInfo[] {
  const out: TreeNodeInfo[] = [];
  for (let d = file.maxDepth; d >= 0; d--) for (const n of file.level(d)) out.push(n); // no spread: data-sized
  return out;
}

export async function buildRowIndex(file: Slog2File, sink: OutputSink, identity: SourceIdentity, options: BuildOptions = {}): Promise<BuildReport> {
  const blockKeys = options.blockKeys ?? DEFAULT_BLOCK_KEYS;
  const chunkLimit = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const space = keySpaceOf(file.lineIDMaps);
  const nkeys = space.lineIDs.length;
  const levels = levelsFor(nkeys, blockKeys);
  const nodes = ordinalOrder(file);
  const total = nodes.reduce((n, x) => n + x.size, 0);
  const table = file.sourceLocationTable;
  const sites = table?.sites.length ?? 0;

  const out = new RowIndexFileWriter(sink, identity.path);
  await out.start();
  const chunk = new ChunkRegrouper(levels, blockKeys);
  let first = 0;
  const flush = async (): Promise<void> => {
    await out.writeChunk(chunk, first);
    first += chunk.nodes;
    chunk.reset();
  };

  const scanner = new NodeScanner(keyLookup(space), nkeys);
  const name = file.source.name;
  const version = file.header.version;
  let done = 0;
  for await (const { info, bytes, record } of nodesInSlabs(file, nodes, table !== undefined, { readAhead: 2 })) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    regroupNode(scanner, chunk, bytes, info, name, version, record === undefined ? undefined : { bytes: record, offset: info.fptr + info.size, sites });
    done += info.size;
    options.onProgress?.(done, total);
    if (chunk.bytes >= chunkLimit) await flush();
  }
  if (chunk.nodes > 0 || out.chunks.length === 0) await flush();
  const bytes = await out.finish(space, nodes, identity, blockKeys, levels);
  return { bytes, nodes: nodes.length, chunks: out.chunks.length, runs: out.runs, items: chunk.items, keys: nkeys };
}
