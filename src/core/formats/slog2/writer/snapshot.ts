/**
 * A snapshot of an SLOG-2 file being written (issue 21: a big conversion shown as it goes). The
 * one-pass writer has written every closed node; what a reader lacks are the open trunk's nodes
 * and the tables `finish()` writes after them. A snapshot encodes those now, without touching the
 * writer's state, as bytes that go after the written part, plus the header that points at them:
 * the written part with this header over its first bytes and the tail after it is a complete
 * SLOG-2 file (`snapshotSource` reads it so, the written file untouched).
 *
 * Its open nodes hold their drawables and the shadows of their written children; the shadows of
 * their own drawables are the finished file's only (they are weighed when a node closes).
 */
import type { ByteSource } from '../../../bytes/byteSource';
import { FormatError } from '../../../bytes/formatError';
import { HEADER_BYTES } from '../header';
import { ByteWriter } from './byteWriter';
import {
  encodeCategoryMap,
  encodeLineIDMaps,
  encodeTreeDir,
  NODE_FIXED_BYTES,
  writeNodeHeader,
  writeShadowBuffer,
  type BlockPointer,
  type TreeDirEntry,
} from './encode';
import { categoryRecords, completeMaps } from './fileTables';
import type { IntSet } from './intSet';
import type { NodeDrawables } from './nodeDrawables';
import type { OpenNode } from './openNode';
import { NodeShadows } from './shadows';
import { SourceLocationTableBuilder } from '../../srcloc/table';
import type { Slog2Trailer } from './slog2Writer';

export interface Slog2Snapshot {
  /** Bytes [HEADER_BYTES, base) of the file being written are the snapshot's too. */
  readonly base: number;
  /** The snapshot's header: replaces the written file's first HEADER_BYTES. */
  readonly header: Uint8Array;
  /** The snapshot's bytes from `base` on: the open nodes, then the tables. */
  readonly tail: Uint8Array;
  readonly drawables: number;
  readonly timeRange: readonly [number, number];
}

/** What the writer lends a snapshot (read only). */
export interface SnapshotState {
  /** End of the written part (everything before it is in the sink). */
  readonly base: number;
  readonly trunk: readonly OpenNode[];
  readonly lastLatest: number;
  readonly drawables: number;
  readonly treeDir: readonly TreeDirEntry[];
  readonly maxBufferBytes: number;
  readonly usedCategories: IntSet;
  readonly usedTopologies: number;
  readonly usedLineIDs: IntSet;
  /** The source-location table so far, if any site was seen: in a snapshot, it follows the root's block. */
  readonly sourceLocationTable: Uint8Array | undefined;
  /** Writes one node list (§7.3) as the writer does, its drawables' sites recorded in `sites`. */
  writeList(w: ByteWriter, drawables: NodeDrawables, which: number, sites: SourceLocationTableBuilder): void;
  header(depth: number, maxBufferBytes: number, categories: BlockPointer, lineIDMaps: BlockPointer, treeRoot: BlockPointer, treeDir: BlockPointer): Uint8Array;
}

/** A snapshot that cannot be made (e.g. the trailer lacks a category the drawables use); the file being written is not affected. */
export class SnapshotError extends Error {
  constructor(cause: unknown) {
    super(`no snapshot: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SnapshotError';
  }
}

export function encodeSnapshot(s: SnapshotState, trailer: Slog2Trailer, nestless: number, nestable: number): Slog2Snapshot {
  try {
    return encode(s, trailer, nestless, nestable);
  } catch (e) {
    throw new SnapshotError(e);
  }
}

function encode(s: SnapshotState, trailer: Slog2Trailer, nestless: number, nestable: number): Slog2Snapshot {
  const blocks: Uint8Array[] = [];
  let offset = s.base;
  let maxBuffer = s.maxBufferBytes;
  const append = (bytes: Uint8Array, counts: boolean): BlockPointer => {
    const p = { fptr: offset, size: bytes.length };
    blocks.push(bytes);
    offset += bytes.length;
    if (counts && bytes.length > maxBuffer) maxBuffer = bytes.length;
    return p;
  };

  const dir = [...s.treeDir];
  // The open nodes' records only (site numbers are the writer's table's).
  const sites = new SourceLocationTableBuilder();
  let stub: NodeShadows | undefined;
  let root: BlockPointer | undefined;
  const top = s.trunk[s.trunk.length - 1]!;
  for (const node of s.trunk) {
    const children = stub === undefined ? node.childBuffers : [...node.childBuffers, stub];
    let size = NODE_FIXED_BYTES + node.drawableBytes + 4;
    for (const b of children) size += b.byteSize();
    const self = { fptr: offset, size };
    const earliest = node.earliest;
    const latest = s.lastLatest;
    const w = new ByteWriter(size);
    writeNodeHeader(w, earliest, latest, node.depth, node.xpos, self);
    s.writeList(w, node.drawables, nestless, sites);
    s.writeList(w, node.drawables, nestable, sites);
    w.i32(children.length);
    // A spilled child is read back for the while (the writer reads it again when it writes the node).
    for (const b of children) b.withRows(() => writeShadowBuffer(w, b));
    if (w.pos !== size) throw new Error(`internal error: snapshot node (${node.depth}, ${node.xpos}) encoded ${w.pos} bytes, expected ${size}`);
    append(w.bytes, true);
    // The node's source-location record right after its block, as the writer places it.
    const record = sites.takeNodeRecord();
    if (record !== undefined) append(record, false);
    dir.push({ depth: node.depth, xpos: node.xpos, earliest, latest, fptr: self.fptr, size });
    stub = stubOf(node, children, self, latest);
    root = self;
  }

  if (s.sourceLocationTable !== undefined) append(s.sourceLocationTable, false);
  const records = categoryRecords(trailer.categories, stub!, s.usedCategories, s.usedTopologies);
  const categoryMap = append(encodeCategoryMap(records), true);
  const lineIDMaps = append(encodeLineIDMaps(completeMaps(trailer.lineIDMaps, s.usedLineIDs).maps), true);
  const treeDir = append(encodeTreeDir(dir), true);

  const tail = new Uint8Array(offset - s.base);
  let at = 0;
  for (const b of blocks) {
    tail.set(b, at);
    at += b.length;
  }
  return {
    base: s.base,
    header: s.header(top.depth, maxBuffer, categoryMap, lineIDMaps, root!, treeDir),
    tail,
    drawables: s.drawables,
    timeRange: [top.earliest, s.lastLatest],
  };
}

/** An open node's shadow buffer as its parent's child stub: its children's shadows merged (copies). */
function stubOf(node: OpenNode, children: readonly NodeShadows[], self: BlockPointer, latest: number): NodeShadows {
  const stub = new NodeShadows();
  for (const b of children) b.withRows(() => stub.mergeChild(b));
  stub.finalizeWeights();
  stub.depth = node.depth;
  stub.xpos = node.xpos;
  stub.fptr = self.fptr;
  stub.size = self.size;
  stub.earliest = node.earliest;
  stub.latest = latest;
  return stub;
}

/**
 * The snapshot as a file: `written` (the file being written, at least `base` bytes long by now)
 * with the snapshot's header over its first bytes and its tail from `base` on. Reads past the
 * written part that `written` no longer has fail as it does.
 */
export function snapshotSource(written: ByteSource, snapshot: Pick<Slog2Snapshot, 'base' | 'header' | 'tail'>): ByteSource {
  const { base, header, tail } = snapshot;
  const size = base + tail.length;
  const name = written.name;
  const check = (offset: number, length: number): void => {
    if (!(offset >= 0 && length >= 0 && offset + length <= size))
      throw new FormatError(name, offset, `read of ${length} bytes at ${offset} outside the ${size}-byte snapshot`);
  };
  const read = async (offset: number, length: number): Promise<Uint8Array> => {
    check(offset, length);
    const end = offset + length;
    // Most reads are in one part: a view, no copy.
    if (end <= base && offset >= HEADER_BYTES) return written.read(offset, length);
    if (offset >= base) return tail.subarray(offset - base, end - base);
    const out = new Uint8Array(length);
    let at = offset;
    if (at < HEADER_BYTES) {
      const n = Math.min(end, HEADER_BYTES) - at;
      out.set(header.subarray(at, at + n), 0);
      at += n;
    }
    if (at < end && at < base) {
      const n = Math.min(end, base) - at;
      out.set(await written.read(at, n), at - offset);
      at += n;
    }
    if (at < end) out.set(tail.subarray(at - base, end - base), at - offset);
    return out;
  };
  return { name, size, read, close: () => written.close() };
}
