/**
 * One-pass SLOG-2 2.0.6 writer: the reference tree builder of SLOG2.md §11 with the shadows and
 * summaries of §12. Feed drawables in non-decreasing latest time (§8 arrival order); nodes are
 * encoded and queued for the sink as they close (post-order), so memory holds only the open trunk
 * (depth + 1 nodes, each ≤ ~leaf size of drawables) and its shadow buffers. `finish()` closes the
 * trunk and writes the source-location table, CategoryMap, LineIDMapList, TreeDir and the header.
 */
import type { Drawable } from '../../../model/types';
import { SourceLocationTableBuilder, NESTABLE_LIST, NESTLESS_LIST } from '../../srcloc/table';
import type { DrawableBatch } from './drawableBatch';
import { DrawableBatchEncoder } from './drawableBatchEncoder';
import { OpenNode } from './openNode';
import { encodeCategoryMap, encodeHeader, encodeLineIDMaps, encodeTreeDir, NODE_FIXED_BYTES, NULL_BLOCK, type BlockPointer, type TreeDirEntry } from './encode';
import { IntSet } from './intSet';
import { NodeBlocks } from './nodeBlocks';
import { categoryRecords, completeMaps } from './fileTables';
import { OUTPUT_CHUNK_BYTES, OutputBlocks } from './outputBlocks';
import { encodeSnapshot, type Slog2Snapshot } from './snapshot';
import { NodeShadows } from './shadows';
import { SPILL_MIN_BYTES, type ShadowSpill } from './shadowSpill';
import type { OutputSink } from './sink';
import type { Slog2Trailer, Slog2WriteSummary, Slog2WriterOptions, WrittenNode } from './writerTypes';

export type { Slog2Trailer, Slog2WriteSummary, Slog2WriterOptions, WrittenNode } from './writerTypes';

/**
 * Closing nodes pauses (addBatchFrom) once the blocks queued for the sink pass this: on a wide
 * trace every high node's block holds its children's full-width shadows (16 384 ranks: 5–15 MB
 * each), and a switch closing nine levels queued ~40 MB of them at once.
 */
const PAUSE_BYTES = 8 << 20;

/** Blocks bigger than this are encoded in parts of at most this (OutputBlocks' chunk size). */
const PART_BYTES = OUTPUT_CHUNK_BYTES;

/** Real primitives one file may hold: the shadows' per-category counts are 32-bit words. */
const MAX_PRIMITIVES = 0xffffffff;

export class Slog2Writer {
  private readonly fanout: number;
  private readonly leafBytes: number;
  private readonly onNode: ((node: WrittenNode) => void) | undefined;
  private readonly spill: ShadowSpill | undefined;
  private readonly spillMinBytes: number;
  private readonly pauseBytes: number;
  private readonly partBytes: number;
  /** Encodes what add() is given; unused when batches come from elsewhere (addBatch). */
  private readonly encoder: DrawableBatchEncoder;
  /** trunk[0] = current leaf … trunk[last] = current root. */
  private readonly trunk: OpenNode[] = [new OpenNode(0, 0)];
  private readonly treeDir: TreeDirEntry[] = [];
  private readonly out: OutputBlocks;
  private readonly blocks: NodeBlocks;
  private lastLatest = -Infinity;
  private count = 0;
  /** Real primitives added (a composite's members each count). */
  private primitives = 0;
  private rootPointer: BlockPointer = NULL_BLOCK;
  private rootBuffer: NodeShadows | undefined;
  private readonly usedCategories = new IntSet(1 << 16);
  /** Bit t set = topology t used. */
  private usedTopologies = 0;
  private readonly usedLineIDs = new IntSet();
  private readonly srcloc = new SourceLocationTableBuilder();
  private finished = false;
  /** A switch to the next branch paused to drain: the next trunk level to close and the next node's id at that depth. */
  private switching: { readonly level: number; readonly nextDepth: number; readonly nextXpos: number } | undefined;

  constructor(
    private readonly sink: OutputSink,
    options: Slog2WriterOptions,
  ) {
    this.fanout = options.childrenPerNode ?? 2;
    this.leafBytes = options.leafBytes ?? 65536;
    this.onNode = options.onNode;
    this.spill = options.shadowSpill;
    this.spillMinBytes = options.memory?.spillMinBytes ?? SPILL_MIN_BYTES;
    this.pauseBytes = options.memory?.pauseBytes ?? PAUSE_BYTES;
    this.partBytes = options.memory?.partBytes ?? PART_BYTES;
    if (!(this.spillMinBytes >= 0 && this.pauseBytes >= 1 && this.partBytes >= 1 && (options.memory?.writeNowBytes ?? 1) >= 1))
      throw new RangeError(`SLOG-2 writer: memory limits must be positive (${JSON.stringify(options.memory)})`);
    if (!Number.isInteger(this.fanout) || this.fanout < 2 || this.fanout > 32767)
      throw new RangeError(`children per node must be an integer in [2, 32767], got ${this.fanout}`);
    if (!Number.isInteger(this.leafBytes) || this.leafBytes < 64 || this.leafBytes > 0x7fffffff)
      throw new RangeError(`leaf byte size must be an integer in [64, 2^31-1], got ${this.leafBytes}`);
    const topologyOf = options.topologyOf;
    this.encoder = new DrawableBatchEncoder((c) => {
      if (topologyOf === undefined) throw new RangeError('SLOG-2 writer: add() needs the topologyOf option (or use addBatch)');
      return topologyOf(c);
    });
    // The placeholder header (§17: an unfinished file says so).
    this.out = new OutputBlocks(sink, this.header(0, 0, NULL_BLOCK, NULL_BLOCK, NULL_BLOCK, NULL_BLOCK), options.memory?.writeNowBytes);
    this.blocks = new NodeBlocks(this.out, this.partBytes);
  }

  /** Bytes encoded but not yet handed to the sink; call drain() when this grows. */
  get pendingBytes(): number {
    return this.out.pendingBytes;
  }

  /** addBatchFrom() stopped in the middle of closing nodes: drain, then call it again. */
  get switchPaused(): boolean {
    return this.switching !== undefined;
  }

  /** Drawables added so far. */
  get drawables(): number {
    return this.count + this.encoder.pending;
  }

  /** Adds one drawable (arrival order: non-decreasing latest time); validated at once, placed in batches. */
  add(d: Drawable): void {
    if (this.finished) throw new Error('SLOG-2 writer: add() after finish()');
    this.encoder.add(d);
    if (this.encoder.readyCount > 0) this.addEncoded();
  }

  /** Places every batch the internal encoder has sealed. */
  private addEncoded(): void {
    for (let b = this.encoder.takeReady(); b !== undefined; b = this.encoder.takeReady()) {
      this.addBatch(b);
      this.encoder.recycle(b);
    }
  }

  /**
   * Adds a batch of encoded drawables (arrival order, continuing the previous batch). The batch is
   * not retained: it may be reused once this returns.
   */
  addBatch(b: DrawableBatch): void {
    for (let at = 0; at < b.count || this.switching !== undefined;) at = this.addBatchFrom(b, at, Infinity);
  }

  /**
   * addBatch() in steps: adds the entries of `b` from `from` on and returns where it stopped,
   * b.count when it is done. It stops early, in the middle of closing nodes, when their blocks
   * queued for the sink pass PAUSE_BYTES: drain() them, then call again with the index returned
   * (and the same batch) until it returns b.count.
   */
  addBatchFrom(b: DrawableBatch, from: number, pauseBytes = this.pauseBytes): number {
    if (this.finished) throw new Error('SLOG-2 writer: addBatch() after finish()');
    if (from === 0 && this.switching === undefined) {
      // Shadow weights count real primitives in 32 bits (shadowColumns.ts): a file of more cannot be written right.
      if (this.primitives + b.primitives > MAX_PRIMITIVES)
        throw new RangeError(
          `SLOG-2 writer: more than ${MAX_PRIMITIVES} real primitives (${this.primitives} written, ${b.primitives} more): too many for one file`,
        );
      this.primitives += b.primitives;
      if (b.newSites.length > 0) this.srcloc.appendSites(b.firstNewSite, b.newSites);
      this.noteUsed(b);
    }
    // Entry `from` waits for the nodes that close before it (a switch paused to drain).
    let switched = false;
    if (this.switching !== undefined) {
      if (!this.switchToNextBranch(pauseBytes)) return from;
      switched = true;
    }
    const trunk = this.trunk;
    // Entries runFrom .. j go to runNode: copied into it as one run (place() does the rest per
    // entry); what was placed is copied even if a later entry throws. (Not a try/finally: the
    // optimised loop left through its finally without type feedback there, and was thrown back to
    // the interpreter at each batch's end, three times a conversion.)
    let runNode: OpenNode | undefined;
    let runFrom = from;
    let j = from;
    try {
      for (; j < b.count; j++) {
        const earliest = b.earliest[j]!;
        const latest = b.latest[j]!;
        if (!(earliest <= latest) || latest < this.lastLatest) {
          throw new RangeError(
            `drawable ${this.count} (category ${b.category[j]}) has bounds [${earliest}, ${latest}] after one ending at ${this.lastLatest}: input must be in non-decreasing end time`,
          );
        }
        // Entry = kind byte + body.
        const entryBytes = b.entryBytes[j]!;
        if (!switched && this.count > 0 && NODE_FIXED_BYTES + trunk[0]!.drawableBytes + 3 + entryBytes > this.leafBytes) {
          runNode?.drawables.addRange(b, runFrom, j);
          runNode = undefined;
          runFrom = j;
          if (!this.switchToNextBranch(pauseBytes)) return j;
        }
        switched = false;
        let target: OpenNode | undefined;
        for (let k = 0; k < trunk.length; k++) {
          if (trunk[k]!.earliest <= earliest) {
            target = trunk[k]!;
            break;
          }
        }
        if (target === undefined) {
          target = trunk[trunk.length - 1]!;
          target.lowerEarliest(earliest);
        }
        if (target !== runNode) {
          runNode?.drawables.addRange(b, runFrom, j);
          runNode = target;
          runFrom = j;
        }
        this.place(target, b, j, entryBytes);
        this.lastLatest = latest;
        this.count++;
      }
    } catch (e) {
      runNode?.drawables.addRange(b, runFrom, j);
      throw e;
    }
    if (runNode !== undefined) runNode.drawables.addRange(b, runFrom, j);
    return j;
  }

  /** Hands queued blocks to the sink. */
  async drain(): Promise<void> {
    this.encoder.flush();
    this.addEncoded();
    await this.out.drain();
  }

  /** Closes the tree and writes everything after it; the output is complete when this resolves. */
  async finish(trailer: Slog2Trailer): Promise<Slog2WriteSummary> {
    if (this.finished) throw new Error('SLOG-2 writer: finish() called twice');
    if (this.switching !== undefined) throw new Error('SLOG-2 writer: finish() before addBatchFrom() placed its batch');
    this.encoder.flush();
    this.addEncoded();
    if (this.count === 0) throw new Error('no drawables to write: an SLOG-2 file needs at least one tree node');
    this.finished = true;
    for (let i = 0; i < this.trunk.length; i++) {
      const own = this.trunk[i]!.buffer;
      this.finalizeLatest(i);
      this.writeNode(i);
      if (i === this.trunk.length - 1) this.rootBuffer = own;
      if (this.out.pendingBytes >= this.pauseBytes) await this.out.drain();
    }
    await this.drain();

    if (trailer.sourceLocations) {
      this.srcloc.records = trailer.sourceLocations.records;
      this.srcloc.inputSites = trailer.sourceLocations.sites;
    }
    if (!this.srcloc.isEmpty) this.out.append(this.srcloc.encode(), false);

    const records = categoryRecords(trailer.categories, this.rootBuffer!, this.usedCategories, this.usedTopologies);
    const categoryMap = this.out.append(encodeCategoryMap(records), true);
    const { maps, added } = completeMaps(trailer.lineIDMaps, this.usedLineIDs);
    const lineIDMaps = this.out.append(encodeLineIDMaps(maps), true);
    const treeDir = this.out.append(encodeTreeDir(this.treeDir), true);
    await this.drain();
    const root = this.trunk[this.trunk.length - 1]!;
    await this.sink.writeAt(0, this.header(root.depth, this.out.maxBufferBytes, categoryMap, lineIDMaps, this.rootPointer, treeDir));
    return {
      bytes: this.out.offset,
      nodes: this.treeDir.length,
      maxTreeDepth: root.depth,
      maxBufferBytes: this.out.maxBufferBytes,
      drawables: this.count,
      timeRange: [root.earliest, root.latest],
      addedMapRows: added,
      locatedDrawables: this.srcloc.locatedDrawables,
    };
  }

  /**
   * The file as it would read if finished now, leaving the writer as it is (snapshot.ts): the
   * written part is handed to the sink and flushed first. Undefined until a drawable has been added.
   */
  async snapshot(trailer: Slog2Trailer): Promise<Slog2Snapshot | undefined> {
    if (this.finished) throw new Error('SLOG-2 writer: snapshot() after finish()');
    if (this.switching !== undefined) throw new Error('SLOG-2 writer: snapshot() before addBatchFrom() placed its batch');
    await this.drain();
    await this.sink.flush?.();
    if (this.count === 0) return undefined;
    return encodeSnapshot(
      {
        base: this.out.offset,
        trunk: this.trunk,
        lastLatest: this.lastLatest,
        drawables: this.count,
        treeDir: this.treeDir,
        maxBufferBytes: this.out.maxBufferBytes,
        usedCategories: this.usedCategories,
        usedTopologies: this.usedTopologies,
        usedLineIDs: this.usedLineIDs,
        sourceLocationTable: this.srcloc.isEmpty ? undefined : this.srcloc.encode(),
        writeList: (w, drawables, which, sites) => this.blocks.writeList(w, drawables, which, sites),
        header: (depth, maxBuffer, categories, lineIDMaps, root, treeDir) => this.header(depth, maxBuffer, categories, lineIDMaps, root, treeDir),
      },
      trailer,
      NESTLESS_LIST,
      NESTABLE_LIST,
    );
  }

  private header(
    depth: number,
    maxBufferBytes: number,
    categories: BlockPointer,
    lineIDMaps: BlockPointer,
    treeRoot: BlockPointer,
    treeDir: BlockPointer,
  ): Uint8Array {
    return encodeHeader({
      childrenPerNode: this.fanout,
      leafBytes: this.leafBytes,
      maxTreeDepth: depth,
      maxBufferBytes,
      categories,
      lineIDMaps,
      treeRoot,
      treeDir,
    });
  }

  /**
   * The categories (a composite's own too), topologies and lineIDs a batch uses, all at once when
   * it comes: the encoder listed those new in it when it sealed it (DrawableBatch.topologies). Every
   * entry of a batch is placed before anything reads them (a snapshot waits for the whole batch; an
   * entry that cannot be placed fails the file).
   */
  private noteUsed(b: DrawableBatch): void {
    this.usedTopologies |= b.topologies;
    for (const c of b.newCategories) this.usedCategories.add(c);
    for (const l of b.newLineIDs) this.usedLineIDs.add(l);
  }

  /** Accounts entry j of a batch to an open node: its bytes and shadows (addBatch copies the entries; noteUsed the keys). */
  private place(node: OpenNode, b: DrawableBatch, j: number, entryBytes: number): void {
    node.drawableBytes += entryBytes;
    const p1 = b.primitiveStart[j + 1]!;
    for (let p = b.primitiveStart[j]!; p < p1; p++) node.buffer.add(b, p);
  }

  /**
   * §11 step 1: close the full leaf and every ancestor that is not shared with the next branch.
   * False when it paused (the closed nodes' blocks passed PAUSE_BYTES: `switching` says where it
   * goes on); the trunk is then half switched, and only draining and calling it again may follow.
   */
  private switchToNextBranch(pauseBytes: number): boolean {
    const leaf = this.trunk[0]!;
    const resumed = this.switching;
    this.switching = undefined;
    let nextDepth = resumed?.nextDepth ?? 0;
    let nextXpos = resumed?.nextXpos ?? leaf.xpos + 1;
    for (let i = resumed?.level ?? 0; i < this.trunk.length; i++) {
      const node = this.trunk[i]!;
      if (node.depth === nextDepth && node.xpos === nextXpos) break;
      if (this.out.pendingBytes >= pauseBytes) {
        this.switching = { level: i, nextDepth, nextXpos };
        return false;
      }
      this.finalizeLatest(i);
      const isTop = i === this.trunk.length - 1;
      const previousEarliest = node.earliest;
      if (isTop) {
        // Grow a new root first so the written node's shadow buffer has a parent to go to.
        const root = new OpenNode(nextDepth + 1, Math.floor(nextXpos / this.fanout));
        root.lowerEarliest(previousEarliest);
        this.trunk.push(root);
      }
      this.writeNode(i);
      node.setEarliest(node.latest);
      node.setId(nextDepth, nextXpos);
      nextDepth += 1;
      nextXpos = Math.floor(nextXpos / this.fanout);
      if (isTop) break;
    }
    return true;
  }

  /** Sets a node's latest time before it is written (§11) and seals its own shadows' inclusive weights. */
  private finalizeLatest(i: number): void {
    const node = this.trunk[i]!;
    node.latest = i === 0 ? this.lastLatest : this.trunk[i - 1]!.latest;
    node.buffer.latest = node.latest;
    node.buffer.initializeWeights();
  }

  /** Encodes trunk node i, queues it, and hands its finished shadow buffer to its parent. */
  private writeNode(i: number): void {
    const node = this.trunk[i]!;
    let size = NODE_FIXED_BYTES + node.drawableBytes + 4;
    for (const b of node.childBuffers) size += b.byteSize();
    if (size > 0x7fffffff) throw new RangeError(`tree node (${node.depth}, ${node.xpos}) would be ${size} bytes; SLOG-2 blocks are at most 2^31-1`);
    const self: BlockPointer = { fptr: this.out.offset, size };
    this.treeDir.push({ depth: node.depth, xpos: node.xpos, earliest: node.earliest, latest: node.latest, fptr: self.fptr, size });
    this.rootPointer = self;

    // The children's shadows are merged into this node's own as they are written.
    const own = node.buffer;
    const ownRows = own.count;
    const ownArena = own.arenaWords;
    const w = this.blocks.write(node, self, this.srcloc, this.onNode !== undefined);
    own.fptr = self.fptr;
    own.size = size;
    own.finalizeWeights();
    // Source locations of this node's drawables go right after its block (unreferenced bytes).
    const record = this.srcloc.takeNodeRecord();
    if (record) this.out.reserve(record.length, false).raw(record);
    this.onNode?.({
      depth: node.depth,
      xpos: node.xpos,
      fptr: self.fptr,
      size,
      bytes: w!.bytes,
      record: record ? { bytes: record, offset: self.fptr + size, sites: this.srcloc.siteCount } : undefined,
    });

    // The parent writes this buffer as its child stub; this node starts over empty.
    // not read past the trunk's end: a read out of bounds threw writeNode's optimised code away
    const parent = i + 1 < this.trunk.length ? this.trunk[i + 1] : undefined;
    const big = own.memoryBytes >= this.spillMinBytes;
    if (parent) {
      parent.childBuffers.push(own);
      // A big buffer waits for its parent in the spill (shadowSpill.ts); not when finishing, where the parent is next.
      if (big && this.spill !== undefined && !this.finished) own.spill(this.spill);
    }
    node.childBuffers.length = 0;
    node.drawables.clear();
    node.drawableBytes = 0;
    // The next node at this depth will hold about as many shadows: sized for them all when that is
    // little, else for its own only (a wide trace's; its children's come when it is written, reserve()).
    node.buffer = new NodeShadows(big ? ownRows : own.count, big ? ownArena : own.arenaWords);
    node.buffer.depth = node.depth;
    node.buffer.xpos = node.xpos;
  }
}
