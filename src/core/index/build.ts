/**
 * Builds the row index of a SLOG-2 file in one pass over its tree nodes (ordinal order, see
 * format.ts), streaming: memory is one chunk of regrouped items (≈ CHUNK_BYTES) plus the
 * directory. Drawables are copied as their SLOG-2 bytes (no objects are built), so the index
 * decodes with the reader's own parser and cannot disagree with it.
 */
import { isFormatError } from '../bytes/formatError';
import type { Slog2File } from '../formats/slog2/slog2File';
import type { OutputSink } from '../formats/slog2/writer/sink';
import type { TreeNodeInfo } from '../formats/slog2/treeDir';
import { decodeNodeSites, type NodeSites } from '../formats/srcloc/nodeSites';
import {
  checksum,
  CHUNK_ENTRY_BYTES,
  DEFAULT_BLOCK_KEYS,
  FIXED_HEADER_BYTES,
  ITEM_HAS_SOURCE,
  KEY_ENTRY_BYTES,
  KIND_REAL,
  KIND_SHADOW,
  levelsFor,
  NODE_ENTRY_BYTES,
  levelOf,
  ROW_INDEX_MAGIC,
  ROW_INDEX_VERSION,
  runKey,
  TABLE_ENTRY_BYTES,
  type SourceIdentity,
} from './format';
import { Growable } from './growable';
import { keyLookup, keySpaceOf } from './keys';
import { nodesInSlabs } from '../formats/slog2/nodeSlabs';
import { NodeScanner } from './scan';

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

const DEFAULT_CHUNK_BYTES = 16 << 20;

interface Run {
  readonly kind: number;
  readonly level: number;
  readonly block: number;
  readonly data: Growable;
  /** Chunk-local node index → [end, checksum] for the nodes that wrote into this run. */
  readonly touched: number[];
  segmentStart: number;
}

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
  const keyOf = keyLookup(space);
  const nodes = ordinalOrder(file);
  const total = nodes.reduce((n, x) => n + x.size, 0);
  const table = file.sourceLocationTable;

  const pathBytes = new TextEncoder().encode(identity.path);
  const headerBytes = FIXED_HEADER_BYTES + 2 + pathBytes.length + 4;
  await sink.write(new Uint8Array(headerBytes));
  let pos = headerBytes;
  const write = async (b: Uint8Array): Promise<void> => {
    await sink.write(b);
    pos += b.length;
  };

  // Run entries go straight into their directory encoding (an object each was 8 MB at 16 384 ranks).
  const runDir = new Growable(1 << 16);
  let runCount = 0;
  const chunks: { first: number; count: number; firstRun: number; runCount: number }[] = [];
  let runs = new Map<number, Run>();
  /** The buffers of the last chunk's runs, by run key. */
  let spare = new Map<number, Growable>();
  let chunkFirst = 0;
  let chunkNodes = 0;
  let chunkBytes = 0;
  let items = 0;
  let done = 0;

  // Runs of the current chunk by [kind][level][block] (a Map lookup per item was a third of the build).
  let byPlace: (Run | undefined)[][][] = [[], []];
  for (const k of [0, 1]) for (let l = 0; l < levels; l++) byPlace[k]!.push([]);
  const runFor = (kind: number, lo: number, hi: number): Run => {
    const level = levelOf(lo, hi, blockKeys, levels);
    const block = level === levels - 1 ? 0 : Math.floor(lo / (blockKeys * 2 ** level));
    const slot = byPlace[kind]![level]!;
    let run = slot[block];
    if (run === undefined) {
      const key = runKey(kind, level, block);
      // A run's buffer is reused by the same run in later chunks: fresh buffers for every chunk
      // cost page faults and GC (a third of the build).
      let data = spare.get(key);
      if (data === undefined) data = new Growable(256);
      else data.length = 0;
      run = { kind, level, block, data, touched: [], segmentStart: -1 };
      slot[block] = run;
      runs.set(key, run);
    }
    return run;
  };
  const nodeRuns: Run[] = [];
  const open = (run: Run): void => {
    if (run.segmentStart < 0) {
      run.segmentStart = run.data.length;
      nodeRuns.push(run);
    }
  };

  const flush = async (): Promise<void> => {
    const sorted = [...runs.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    chunks.push({ first: chunkFirst, count: chunkNodes, firstRun: runCount, runCount: sorted.length });
    for (const run of sorted) {
      const tab = new Uint8Array(chunkNodes * TABLE_ENTRY_BYTES);
      const dv = new DataView(tab.buffer);
      const empty = checksum(tab, 0, 0);
      let t = 0;
      let end = 0;
      let sum = empty;
      for (let i = 0; i < chunkNodes; i++) {
        if (t < run.touched.length && run.touched[t] === i) {
          end = run.touched[t + 1]!;
          sum = run.touched[t + 2]!;
          t += 3;
        } else sum = empty;
        dv.setUint32(i * TABLE_ENTRY_BYTES, end);
        dv.setUint32(i * TABLE_ENTRY_BYTES + 4, sum);
      }
      const tablePos = pos;
      await write(tab);
      const dataPos = pos;
      await write(run.data.view());
      runDir.u8(run.kind);
      runDir.u8(run.level);
      runDir.u32(run.block);
      runDir.f64(tablePos);
      runDir.f64(dataPos);
      runCount++;
    }
    spare = new Map();
    for (const [key, run] of runs) spare.set(key, run.data);
    runs = new Map();
    byPlace = [[], []];
    for (const k of [0, 1]) for (let l = 0; l < levels; l++) byPlace[k]!.push([]);
    chunkFirst += chunkNodes;
    chunkNodes = 0;
    chunkBytes = 0;
  };

  const scanner = new NodeScanner(keyOf, nkeys);
  for await (const { info, bytes, record } of nodesInSlabs(file, nodes, table !== undefined)) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    scanner.scan(bytes, info.fptr, file.source.name, file.header.version);
    const nestless = scanner.nestless;
    const d = scanner.drawables;
    let located: NodeSites | undefined;
    if (record !== undefined && table !== undefined) {
      try {
        located = decodeNodeSites(record, info.fptr + info.size, file.source.name, table.sites.length, nestless, d.count - nestless);
      } catch (e) {
        // The reader ignores a damaged node record too (the drawables stay, without sources).
        if (!isFormatError(e)) throw e;
      }
    }
    const local = chunkNodes;
    let p = 0;
    for (let i = 0; i < d.count; i++) {
      if (d.kept[i] === 0) continue;
      const run = runFor(KIND_REAL, d.lo[i]!, d.hi[i]!);
      open(run);
      // Same alignment as Slog2File.withSources: position after drops against the raw nestless count.
      const sites = located === undefined ? undefined : p < nestless ? located.nestless : located.nestable;
      const at = p < nestless ? p : p - nestless;
      const start = d.start[i]!;
      const data = run.data;
      data.u32(p);
      if (sites !== undefined && sites.located[at] === 1 && bytes[start] === 0) {
        data.u8(ITEM_HAS_SOURCE);
        data.i32(sites.start[at]!);
        data.i32(sites.end[at]!);
      } else data.u8(0);
      data.bytes(bytes, start, d.end[i]!);
      p++;
      items++;
    }
    const s = scanner.shadows;
    let q = 0;
    for (let i = 0; i < s.count; i++) {
      if (s.kept[i] === 0) continue;
      const run = runFor(KIND_SHADOW, s.lo[i]!, s.hi[i]!);
      open(run);
      run.data.u32(q);
      run.data.bytes(bytes, s.start[i]!, s.end[i]!);
      q++;
      items++;
    }
    for (const run of nodeRuns) {
      const end = run.data.length;
      run.touched.push(local, end, checksum(run.data.raw, run.segmentStart, end));
      run.segmentStart = -1;
    }
    nodeRuns.length = 0;
    chunkNodes++;
    chunkBytes += info.size;
    done += info.size;
    options.onProgress?.(done, total);
    if (chunkBytes >= chunkLimit) await flush();
  }
  if (chunkNodes > 0 || chunks.length === 0) await flush();

  // Directory.
  const dir = new Growable(nkeys * KEY_ENTRY_BYTES + nodes.length * NODE_ENTRY_BYTES + chunks.length * CHUNK_ENTRY_BYTES + runDir.length);
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
  dir.bytes(runDir.raw, 0, runDir.length);
  const dirOffset = pos;
  const dirBytes = dir.view();
  await write(dirBytes);

  const h = new Growable(headerBytes);
  for (let i = 0; i < 8; i++) h.u8(ROW_INDEX_MAGIC.charCodeAt(i));
  h.u32(ROW_INDEX_VERSION);
  h.u32(headerBytes);
  h.f64(identity.size);
  h.f64(identity.mtimeMs);
  h.u32(blockKeys);
  h.u32(levels);
  h.u32(nkeys);
  h.u32(nodes.length);
  h.u32(chunks.length);
  h.u32(runCount);
  h.f64(dirOffset);
  h.u32(dirBytes.length);
  h.u32(checksum(dirBytes));
  h.u32(space.mapIndex);
  h.u16(pathBytes.length);
  h.bytes(pathBytes, 0, pathBytes.length);
  h.u32(checksum(h.raw, 0, h.length));
  await sink.writeAt(0, h.view());
  return { bytes: pos, nodes: nodes.length, chunks: chunks.length, runs: runCount, items, keys: nkeys };
}
