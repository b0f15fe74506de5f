/**
 * One chunk of consecutive tree nodes regrouped by (kind, level, key block) into runs: the step
 * both index builders share (build.ts reading a SLOG-2, direct.ts fed by the converter).
 *
 * Two phases, so that no run needs a growing buffer of its own: `addNode` copies the node's bytes
 * into the chunk's arena and notes each item (run, extent, index, source sites) in typed columns;
 * `encode` lays out every run (node table, then data; runs in key order, as format.ts lays out a
 * chunk) in one buffer and scatters the items into place, a counting sort by run that keeps node
 * order within each run. Per-run buffers, as before, allocated ~100 MB of fresh memory in a
 * 1.2 GB build of 16 384 ranks (page faults and garbage collection: a sixth of the build), and
 * their chunk could not be handed to the file in one write.
 */
import { isFormatError } from '../bytes/formatError';
import { grown } from '../bytes/grown';
import { decodeNodeSites, type NodeSites } from '../formats/srcloc/nodeSites';
import { checksum, checksumOf, ITEM_HAS_SOURCE, KIND_REAL, KIND_SHADOW, levelOf, runKey, TABLE_ENTRY_BYTES } from './format';
import type { NodeScanner } from './scan';

/** Where one node's source-location record is and how many sites the table has. */
export interface NodeRecord {
  readonly bytes: Uint8Array;
  /** File offset of the record (for error messages). */
  readonly offset: number;
  readonly sites: number;
}

/** One run of an encoded chunk: its place and where its table and data start in the chunk's bytes. */
export interface EncodedRun {
  readonly kind: number;
  readonly level: number;
  readonly block: number;
  readonly table: number;
  readonly data: number;
}

/** A chunk as written: its bytes (valid until the scratch is used again) and its runs in key order. */
export interface EncodedChunk {
  readonly bytes: Uint8Array;
  readonly runs: readonly EncodedRun[];
}

/** The buffer chunks are encoded into, reused from chunk to chunk (the writer owns it). */
export class EncodeScratch {
  bytes = new Uint8Array(1 << 16);

  ensure(n: number): Uint8Array {
    if (n > this.bytes.length) this.bytes = new Uint8Array(Math.max(n, this.bytes.length * 2));
    return this.bytes;
  }
}

/** The checksum of an empty segment (a node that wrote nothing into a run). */
const EMPTY_SEGMENT_SUM = checksum(new Uint8Array(0));
/** itemFlags of a shadow: its items carry no flags byte. */
const SHADOW_ITEM = -1;

export class ChunkRegrouper {
  nodes = 0;
  /** SLOG-2 node bytes in this chunk. */
  bytes = 0;
  /** Items added (not reset by reset(): the callers count across chunks). */
  items = 0;

  /** Copies of this chunk's node blocks, back to back. */
  private arena = new Uint8Array(1 << 16);
  private arenaUsed = 0;

  // Items in arrival order: node by node, in file order within a node.
  private itemCount = 0;
  private itemRun = new Int32Array(1024);
  private itemStart = new Int32Array(1024);
  private itemEnd = new Int32Array(1024);
  private itemIndex = new Int32Array(1024);
  /** SHADOW_ITEM, 0, or ITEM_HAS_SOURCE (then itemSiteStart/End hold the sites). */
  private itemFlags = new Int32Array(1024);
  private itemSiteStart = new Int32Array(1024);
  private itemSiteEnd = new Int32Array(1024);

  // Per node: its first item and its first entry in `touched` (nodes + 1 entries each).
  private nodeFirstItem = new Int32Array(64);
  private nodeFirstTouch = new Int32Array(64);
  /** The runs each node wrote into, node after node (a run once per node). */
  private touched = new Int32Array(1024);
  private touchedCount = 0;

  // This chunk's runs by slot (order of first use).
  private readonly runKind: number[] = [];
  private readonly runLevel: number[] = [];
  private readonly runBlock: number[] = [];
  private readonly runBytes: number[] = [];
  /** The last chunk-local node that wrote into the run. */
  private readonly runLastNode: number[] = [];
  /** [kind][level] → block → slot + 1 (0: no run yet in this chunk). */
  private readonly slotOf: Int32Array[][] = [[], []];

  constructor(
    private readonly levels: number,
    private readonly blockKeys: number,
  ) {
    // A key interval's block at level l is below keys / (blockKeys · 2^l) ≤ 2^(levels-1-l).
    for (const kind of [KIND_REAL, KIND_SHADOW]) for (let l = 0; l < levels; l++) this.slotOf[kind]!.push(new Int32Array(2 ** Math.max(0, levels - 1 - l)));
  }

  private slotFor(kind: number, lo: number, hi: number, node: number): number {
    const level = levelOf(lo, hi, this.blockKeys, this.levels);
    const block = level === this.levels - 1 ? 0 : Math.floor(lo / (this.blockKeys * 2 ** level));
    const places = this.slotOf[kind]![level]!;
    if (block >= places.length) throw new RangeError(`key interval [${lo}, ${hi}] outside the index's ${this.levels} levels`);
    let slot = places[block]! - 1;
    if (slot < 0) {
      slot = this.runKind.length;
      this.runKind.push(kind);
      this.runLevel.push(level);
      this.runBlock.push(block);
      this.runBytes.push(0);
      this.runLastNode.push(-1);
      places[block] = slot + 1;
    }
    if (this.runLastNode[slot] !== node) {
      this.runLastNode[slot] = node;
      if (this.touchedCount === this.touched.length) this.touched = grown(this.touched, this.touchedCount + 1);
      this.touched[this.touchedCount++] = slot;
    }
    return slot;
  }

  private reserveItems(n: number): void {
    const need = this.itemCount + n;
    if (need <= this.itemRun.length) return;
    this.itemRun = grown(this.itemRun, need);
    this.itemStart = grown(this.itemStart, need);
    this.itemEnd = grown(this.itemEnd, need);
    this.itemIndex = grown(this.itemIndex, need);
    this.itemFlags = grown(this.itemFlags, need);
    this.itemSiteStart = grown(this.itemSiteStart, need);
    this.itemSiteEnd = grown(this.itemSiteEnd, need);
  }

  /**
   * Adds the node `scanner` has just scanned (`bytes`, `size` of them), with its
   * source-location record if any. A damaged record is ignored, as the reader ignores it.
   */
  addNode(scanner: NodeScanner, bytes: Uint8Array, size: number, file: string, record: NodeRecord | undefined): void {
    const nestless = scanner.nestless;
    const d = scanner.drawables;
    const s = scanner.shadows;
    let located: NodeSites | undefined;
    if (record !== undefined) {
      try {
        located = decodeNodeSites(record.bytes, record.offset, file, record.sites, nestless, d.count - nestless);
      } catch (e) {
        if (!isFormatError(e)) throw e;
      }
    }
    const node = this.nodes;
    if (node + 2 > this.nodeFirstItem.length) {
      this.nodeFirstItem = grown(this.nodeFirstItem, node + 2);
      this.nodeFirstTouch = grown(this.nodeFirstTouch, node + 2);
    }
    this.nodeFirstItem[node] = this.itemCount;
    this.nodeFirstTouch[node] = this.touchedCount;

    const base = this.arenaUsed;
    if (base + bytes.length > this.arena.length) this.arena = grown(this.arena, base + bytes.length);
    this.arena.set(bytes, base);
    this.arenaUsed = base + bytes.length;

    this.reserveItems(d.count + s.count);
    const runBytes = this.runBytes;
    let p = 0;
    for (let i = 0; i < d.count; i++) {
      if (d.kept[i] === 0) continue;
      const slot = this.slotFor(KIND_REAL, d.lo[i]!, d.hi[i]!, node);
      // As Slog2File.withSources: the record numbers drawables as written (one dropped for a NaN/∞
      // time holds its place); p, the index among the kept ones, is the reader's drawable index.
      const sites = located === undefined ? undefined : i < nestless ? located.nestless : located.nestable;
      const at = i < nestless ? i : i - nestless;
      const start = d.start[i]!;
      const end = d.end[i]!;
      const k = this.itemCount++;
      this.itemRun[k] = slot;
      this.itemStart[k] = base + start;
      this.itemEnd[k] = base + end;
      this.itemIndex[k] = p;
      if (sites !== undefined && sites.located[at] === 1 && bytes[start] === 0) {
        this.itemFlags[k] = ITEM_HAS_SOURCE;
        this.itemSiteStart[k] = sites.start[at]!;
        this.itemSiteEnd[k] = sites.end[at]!;
        runBytes[slot] += 13 + end - start;
      } else {
        this.itemFlags[k] = 0;
        runBytes[slot] += 5 + end - start;
      }
      p++;
    }
    let q = 0;
    for (let i = 0; i < s.count; i++) {
      if (s.kept[i] === 0) continue;
      const slot = this.slotFor(KIND_SHADOW, s.lo[i]!, s.hi[i]!, node);
      const k = this.itemCount++;
      this.itemRun[k] = slot;
      this.itemStart[k] = base + s.start[i]!;
      this.itemEnd[k] = base + s.end[i]!;
      this.itemIndex[k] = q;
      this.itemFlags[k] = SHADOW_ITEM;
      runBytes[slot] += 4 + s.end[i]! - s.start[i]!;
      q++;
    }
    this.nodeFirstItem[node + 1] = this.itemCount;
    this.nodeFirstTouch[node + 1] = this.touchedCount;
    this.items += p + q;
    this.nodes++;
    this.bytes += size;
  }

  /** The chunk's bytes as the index stores them: per run (key order) its node table, then its data. */
  encode(scratch: EncodeScratch): EncodedChunk {
    const n = this.nodes;
    const slots = this.runKind.length;
    const order = Array.from({ length: slots }, (_, i) => i);
    const keys = order.map((i) => runKey(this.runKind[i]!, this.runLevel[i]!, this.runBlock[i]!));
    order.sort((a, b) => keys[a]! - keys[b]!);

    const tableAt = new Float64Array(slots);
    const dataAt = new Float64Array(slots);
    const runs: EncodedRun[] = [];
    let size = 0;
    for (const slot of order) {
      tableAt[slot] = size;
      size += n * TABLE_ENTRY_BYTES;
      dataAt[slot] = size;
      size += this.runBytes[slot]!;
      runs.push({ kind: this.runKind[slot]!, level: this.runLevel[slot]!, block: this.runBlock[slot]!, table: tableAt[slot]!, data: dataAt[slot]! });
    }
    const out = scratch.ensure(size);
    const dv = new DataView(out.buffer, out.byteOffset, size);
    const arena = this.arena;
    const av = new DataView(arena.buffer, arena.byteOffset, this.arenaUsed);

    const cursor = Float64Array.from(dataAt);
    const segmentStart = new Float64Array(slots);
    // Per run: table entries written so far (nodes 0 .. filled-1) and the last segment's end.
    const filled = new Int32Array(slots);
    const lastEnd = new Float64Array(slots);
    const fillTo = (slot: number, node: number): void => {
      for (let k = filled[slot]!; k < node; k++) {
        dv.setUint32(tableAt[slot]! + k * TABLE_ENTRY_BYTES, lastEnd[slot]!);
        dv.setUint32(tableAt[slot]! + k * TABLE_ENTRY_BYTES + 4, EMPTY_SEGMENT_SUM);
      }
      filled[slot] = Math.max(filled[slot]!, node);
    };

    for (let node = 0; node < n; node++) {
      const t0 = this.nodeFirstTouch[node]!;
      const t1 = this.nodeFirstTouch[node + 1]!;
      for (let t = t0; t < t1; t++) segmentStart[this.touched[t]!] = cursor[this.touched[t]!]!;
      const i1 = this.nodeFirstItem[node + 1]!;
      for (let i = this.nodeFirstItem[node]!; i < i1; i++) {
        const slot = this.itemRun[i]!;
        let at = cursor[slot]!;
        dv.setUint32(at, this.itemIndex[i]!);
        at += 4;
        const flags = this.itemFlags[i]!;
        if (flags !== SHADOW_ITEM) {
          out[at++] = flags;
          if (flags === ITEM_HAS_SOURCE) {
            dv.setInt32(at, this.itemSiteStart[i]!);
            dv.setInt32(at + 4, this.itemSiteEnd[i]!);
            at += 8;
          }
        }
        const from = this.itemStart[i]!;
        const to = this.itemEnd[i]!;
        if (to - from > 256) out.set(arena.subarray(from, to), at);
        else {
          // Four bytes at a time (little-endian both ways: a copy either way, and V8's
          // big-endian accesses are slower); set(subarray) costs an object per short item.
          let a = at;
          let j = from;
          for (; j + 4 <= to; j += 4, a += 4) dv.setUint32(a, av.getUint32(j, true), true);
          for (; j < to; j++) out[a++] = arena[j]!;
        }
        cursor[slot] = at + to - from;
      }
      for (let t = t0; t < t1; t++) {
        const slot = this.touched[t]!;
        fillTo(slot, node);
        const end = cursor[slot]! - dataAt[slot]!;
        dv.setUint32(tableAt[slot]! + node * TABLE_ENTRY_BYTES, end);
        dv.setUint32(tableAt[slot]! + node * TABLE_ENTRY_BYTES + 4, checksumOf(dv, out, segmentStart[slot]!, cursor[slot]!));
        filled[slot] = node + 1;
        lastEnd[slot] = end;
      }
    }
    for (let slot = 0; slot < slots; slot++) fillTo(slot, n);
    return { bytes: out.subarray(0, size), runs };
  }

  /** Starts a new chunk, keeping the buffers for reuse. */
  reset(): void {
    for (let slot = 0; slot < this.runKind.length; slot++) this.slotOf[this.runKind[slot]!]![this.runLevel[slot]!]![this.runBlock[slot]!] = 0;
    this.runKind.length = 0;
    this.runLevel.length = 0;
    this.runBlock.length = 0;
    this.runBytes.length = 0;
    this.runLastNode.length = 0;
    this.itemCount = 0;
    this.touchedCount = 0;
    this.arenaUsed = 0;
    this.nodes = 0;
    this.bytes = 0;
  }
}
