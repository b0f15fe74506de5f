/**
 * The row index written by the converter as it writes the SLOG-2 (issue 16: no second pass). The
 * one-pass writer hands each node over as it is encoded (`Slog2Writer` option `onNode`): post-order,
 * so the depths interleave, but each depth's nodes come in xpos order. Each depth therefore fills
 * its own chunk of consecutive ordinals; a chunk's first ordinal (nodes of deeper levels first) is
 * known only at the end, which the directory allows (chunks are listed by first node, written in
 * any order).
 *
 * The keys must be known before the first node: they are the line IDs the input declares up front
 * (a CLOG2 preamble's world size × threads; for old CLOG, which declares nothing, the ranks 0…n−1
 * drawn before the first node; line ID = key, the row order of the Process view when
 * every line of communicator 0 is used). `finish` checks that against the finished file's Y maps and
 * tree directory; any difference (an unused rank, lines of other communicators, …) and the index is
 * not written: the editor then builds it from the SLOG-2 as before.
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import type { OutputSink } from '../formats/slog2/writer/sink';
import type { WrittenNode } from '../formats/slog2/writer/slog2Writer';
import { ordinalOrder, type BuildReport } from './build';
import { DEFAULT_BLOCK_KEYS, levelsFor, type SourceIdentity } from './format';
import { keySpaceOf, type KeySpace } from './keys';
import { ChunkRegrouper } from './chunkRegrouper';
import { regroupNode, RowIndexFileWriter, type IndexedNode } from './regroup';
import { NodeScanner } from './scan';

export interface DirectIndexOptions {
  readonly blockKeys?: number;
  /** Node bytes per chunk; all depths' open chunks together stay under twice this. */
  readonly chunkBytes?: number;
  /** Fewer declared line IDs than this: no index (few-row traces gain nothing from one). */
  readonly minLines?: number;
}

/**
 * Smaller than the reading builder's 16 MB: every depth keeps a chunk open, and each chunk's run
 * buffers stay allocated for reuse (16 MB chunks added 150 MB to a 4096-rank conversion).
 */
const DIRECT_CHUNK_BYTES = 4 << 20;

/** Declared line IDs beyond this get no index from the conversion (the editor builds one from the file's real keys). */
const MAX_DECLARED_LINES = 1 << 18;

/** The outcome of `finish`: the index written, or why not. */
export type DirectIndexResult = { readonly report: BuildReport } | { readonly skipped: string };

/** The key space of line IDs 0…n−1 in order, in the Process view (map 0). */
function provisionalKeys(lines: number): KeySpace {
  const lineIDs = new Int32Array(lines);
  const keyOfLine = new Map<number, number>();
  for (let i = 0; i < lines; i++) {
    lineIDs[i] = i;
    keyOfLine.set(i, i);
  }
  return { mapIndex: 0, lineIDs, keyOfLine };
}

interface DepthChunk {
  readonly chunk: ChunkRegrouper;
  firstXpos: number;
}

export class DirectRowIndexBuilder {
  private skipped: string | undefined;
  private space: KeySpace | undefined;
  private levels = 0;
  private scanner: NodeScanner | undefined;
  private readonly blockKeys: number;
  private readonly chunkLimit: number;
  private readonly minLines: number;
  private readonly out: RowIndexFileWriter;
  private started = false;
  /** The open chunk of each depth. */
  private readonly open: (DepthChunk | undefined)[] = [];
  /** Sealed chunks waiting for drain(), with their depth. */
  private readonly sealed: { chunk: ChunkRegrouper; depth: number; firstXpos: number }[] = [];
  private readonly free: ChunkRegrouper[] = [];
  /** Chunk entries written, with the depth and xpos their ordinal is computed from at the end. */
  private readonly placed: { entry: { first: number }; depth: number; firstXpos: number }[] = [];
  private readonly nodes: IndexedNode[][] = [];
  private openBytes = 0;
  private items = 0;

  constructor(
    sink: OutputSink,
    /** The SLOG-2's path as the index records it (its identity). */
    identityPath: string,
    /** The output's name in error messages. */
    private readonly name: string,
    /** Line IDs the input declares (undefined: unknown, no index); asked at the first node. */
    private readonly declaredLines: () => number | undefined,
    options: DirectIndexOptions = {},
  ) {
    this.blockKeys = options.blockKeys ?? DEFAULT_BLOCK_KEYS;
    this.chunkLimit = options.chunkBytes ?? DIRECT_CHUNK_BYTES;
    this.minLines = options.minLines ?? 1;
    this.out = new RowIndexFileWriter(sink, identityPath);
  }

  /** Why no index will be written (undefined while it still can be). */
  get skipReason(): string | undefined {
    return this.skipped;
  }

  private skip(reason: string): void {
    if (this.skipped !== undefined) return;
    this.skipped = reason;
    // Nothing more is kept: the open chunks' memory goes.
    this.open.length = 0;
    this.sealed.length = 0;
    this.free.length = 0;
    this.nodes.length = 0;
  }

  /** The writer's `onNode`: scans and regroups the node now (its bytes are the writer's, briefly). */
  node(n: WrittenNode): void {
    if (this.skipped !== undefined) return;
    try {
      this.add(n);
    } catch (e) {
      // Our own writer's bytes: a failure here is a bug, but it must not fail the conversion.
      this.skip(`the converter could not index node (${n.depth}, ${n.xpos}): ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private add(n: WrittenNode): void {
    if (this.scanner === undefined) {
      const lines = this.declaredLines();
      if (lines === undefined || !(lines >= 1))
        return this.skip('the input does not declare its timelines up front (old CLOG: ranks 0…n−1 had not all drawn before the first tree node)');
      if (lines < this.minLines) return this.skip(`${lines} timelines: no index below ${this.minLines}`);
      // A preamble's world size × threads is the file's word, not a fact: no key table of 10^9.
      if (lines > MAX_DECLARED_LINES) return this.skip(`the input declares ${lines} timelines, more than the ${MAX_DECLARED_LINES} indexed while converting`);
      this.space = provisionalKeys(lines);
      this.levels = levelsFor(lines, this.blockKeys);
      this.scanner = new NodeScanner((id) => (id >= 0 && id < lines ? id : -1), lines);
    }
    const depthNodes = (this.nodes[n.depth] ??= []);
    if (n.xpos !== depthNodes.length) return this.skip(`node (${n.depth}, ${n.xpos}) came after ${depthNodes.length} nodes of its depth`);
    depthNodes.push({ depth: n.depth, xpos: n.xpos, fptr: n.fptr, size: n.size });
    let open = this.open[n.depth];
    if (open === undefined) {
      open = { chunk: this.free.pop() ?? new ChunkRegrouper(this.levels, this.blockKeys), firstXpos: n.xpos };
      this.open[n.depth] = open;
    }
    const before = open.chunk.bytes;
    regroupNode(this.scanner, open.chunk, n.bytes, n, this.name, 'SLOG 2.0.6', n.record);
    this.openBytes += open.chunk.bytes - before;
    if (open.chunk.bytes >= this.chunkLimit) this.seal(n.depth);
    else if (this.openBytes >= 2 * this.chunkLimit) this.seal(this.largestOpen());
  }

  private largestOpen(): number {
    let best = 0;
    for (let d = 1; d < this.open.length; d++) if ((this.open[d]?.chunk.bytes ?? 0) > (this.open[best]?.chunk.bytes ?? 0)) best = d;
    return best;
  }

  private seal(depth: number): void {
    const open = this.open[depth];
    if (open === undefined) return;
    this.open[depth] = undefined;
    this.openBytes -= open.chunk.bytes;
    this.sealed.push({ chunk: open.chunk, depth, firstXpos: open.firstXpos });
  }

  /** Writes the sealed chunks (call it with the SLOG-2 writer's drain: it bounds the memory held). */
  async drain(): Promise<void> {
    if (this.skipped !== undefined) return;
    if (!this.started) {
      if (this.sealed.length === 0) return;
      this.started = true;
      await this.out.start();
    }
    while (this.sealed.length > 0) {
      const s = this.sealed.shift()!;
      const entry = await this.out.writeChunk(s.chunk, 0);
      this.placed.push({ entry, depth: s.depth, firstXpos: s.firstXpos });
      this.items += s.chunk.items;
      s.chunk.items = 0;
      s.chunk.reset();
      this.free.push(s.chunk);
    }
  }

  /**
   * Completes the index once the SLOG-2 is finished (`file`, opened from `identity`'s path): the
   * last chunks, the directory, the header. Resolves why not when the keys or nodes differ.
   */
  async finish(file: Slog2File, identity: SourceIdentity): Promise<DirectIndexResult> {
    if (this.skipped === undefined) this.check(file);
    if (this.skipped !== undefined) return { skipped: this.skipped };
    for (let d = 0; d < this.open.length; d++) this.seal(d);
    if (!this.started) {
      this.started = true;
      await this.out.start();
    }
    await this.drain();
    // Ordinals: depth descending, then xpos.
    const offset: number[] = [];
    let o = 0;
    for (let d = this.nodes.length - 1; d >= 0; d--) {
      offset[d] = o;
      o += this.nodes[d]?.length ?? 0;
    }
    for (const p of this.placed) p.entry.first = offset[p.depth]! + p.firstXpos;
    const ordered: IndexedNode[] = [];
    for (let d = this.nodes.length - 1; d >= 0; d--) for (const n of this.nodes[d] ?? []) ordered.push(n); // no spread: data-sized
    const space = this.space!;
    const bytes = await this.out.finish(space, ordered, identity, this.blockKeys, this.levels);
    return {
      report: { bytes, nodes: ordered.length, chunks: this.out.chunks.length, runs: this.out.runs, items: this.items, keys: space.lineIDs.length },
    };
  }

  /** The finished file's keys and nodes must be the ones indexed. */
  private check(file: Slog2File): void {
    const space = this.space;
    if (space === undefined) return this.skip('no tree node was indexed');
    const actual = keySpaceOf(file.lineIDMaps);
    const same =
      actual.mapIndex === space.mapIndex && actual.lineIDs.length === space.lineIDs.length && actual.lineIDs.every((id, k) => id === space.lineIDs[k]);
    if (!same) {
      return this.skip(
        `the trace's ${actual.lineIDs.length} timelines are not the ${space.lineIDs.length} line IDs the input declared in rank order (an unused rank, or lines of other communicators)`,
      );
    }
    const nodes = ordinalOrder(file);
    let i = 0;
    for (let d = this.nodes.length - 1; d >= 0; d--) {
      for (const n of this.nodes[d] ?? []) {
        const f = nodes[i++];
        if (f === undefined || f.depth !== n.depth || f.xpos !== n.xpos || f.fptr !== n.fptr || f.size !== n.size)
          return this.skip(`tree node ${i - 1} differs from the one indexed`);
      }
    }
    if (i !== nodes.length) this.skip(`the trace has ${nodes.length} tree nodes, ${i} were indexed`);
  }
}
