/**
 * Tree nodes, each with the source-location record that follows its block (table.ts), read in
 * large sequential slabs for whole-file passes (the row-index builder). One read per few MiB
 * instead of one per node and one or two per record (reading node by node through the 64 KiB
 * block cache, then each record, was 40 % of the build), with the next slab read while the
 * caller works on this one (two for the index build). Node extents were checked against the file when the TreeDir was read.
 */
import type { Slog2File } from './slog2File';
import type { TreeNodeInfo } from './treeDir';
import { hasNodeRecordMagic, NODE_RECORD_PREFIX_BYTES, nodeRecordSize } from '../srcloc/table';

export interface NodeBytes {
  readonly info: TreeNodeInfo;
  /** The node's block: a view into the slab, overwritten two or more slabs later (copy what you keep). */
  readonly bytes: Uint8Array;
  /** The source-location node record right after the block, when the file has one there. */
  readonly record: Uint8Array | undefined;
}

/** Bytes per slab read; nodes further apart than MAX_GAP start a new slab. */
const SLAB_BYTES = 4 << 20;
const MAX_GAP = 256 << 10;

interface Slab {
  readonly first: number;
  readonly end: number;
  readonly from: number;
  readonly to: number;
}

/** Consecutive nodes (in the caller's order) that lie close together and ascending in the file. */
function planSlabs(nodes: readonly TreeNodeInfo[], fileSize: number, slabBytes: number): Slab[] {
  const slabs: Slab[] = [];
  let i = 0;
  while (i < nodes.length) {
    const from = nodes[i]!.fptr;
    let to = from + nodes[i]!.size;
    let j = i + 1;
    for (; j < nodes.length; j++) {
      const n = nodes[j]!;
      if (n.fptr < to || n.fptr - to > MAX_GAP || n.fptr + n.size - from > slabBytes) break;
      to = n.fptr + n.size;
    }
    // The gap before the next node holds the last node's record; without a next node, read a little past.
    const next = nodes[j];
    const tail = next !== undefined && next.fptr >= to && next.fptr - to <= MAX_GAP ? next.fptr : Math.min(fileSize, to + NODE_RECORD_PREFIX_BYTES);
    slabs.push({ first: i, end: j, from, to: tail });
    i = j;
  }
  return slabs;
}

/**
 * The slab whose nodes are being yielded: other blocks inside it (the upper nodes the one-pass
 * writer puts between leaves) can be taken from it instead of read again. A view is valid until
 * the caller pulls the next node (the slab's buffer is reused two or more slabs later).
 */
export class HeldSlab {
  private from = 0;
  private bytes: Uint8Array | undefined;

  /** The slab now in use (nodesInSlabs sets it), or none. */
  hold(from: number, bytes: Uint8Array | undefined): void {
    this.from = from;
    this.bytes = bytes;
  }

  /** Bytes [at, at + size) of the file when the slab holds all of them. */
  view(at: number, size: number): Uint8Array | undefined {
    const b = this.bytes;
    const local = at - this.from;
    if (b === undefined || local < 0 || local + size > b.length) return undefined;
    return b.subarray(local, local + size);
  }
}

/**
 * `withRecords`: look for source-location records (files with a source-location table).
 * `readAhead`: slabs read ahead of the one in use. The index build reads two: with one it waited
 * 0.9 s (in ~80 short waits) of a 16 384-rank build while its writes kept the disk busy.
 * `held`: told which slab is in use while its nodes are yielded (HeldSlab).
 */
export async function* nodesInSlabs(
  file: Slog2File,
  nodes: readonly TreeNodeInfo[],
  withRecords: boolean,
  { slabBytes = SLAB_BYTES, readAhead = 1, held }: { readonly slabBytes?: number; readonly readAhead?: number; readonly held?: HeldSlab } = {},
): AsyncGenerator<NodeBytes> {
  const source = file.source;
  const slabs = planSlabs(nodes, source.size, slabBytes);
  // When the source can read into buffers: this slab's and the next `readAhead`, in rotation. A
  // source that returns views of its cache reads one ahead (see below).
  const into = source.readInto?.bind(source);
  const ahead = into === undefined ? 1 : Math.max(1, readAhead);
  let longest = 0;
  for (const s of slabs) longest = Math.max(longest, s.to - s.from);
  const buffers = into === undefined ? [] : Array.from({ length: ahead + 1 }, () => new Uint8Array(longest));
  const read = (k: number): Promise<Uint8Array> | undefined => {
    const s = slabs[k];
    if (s === undefined) return undefined;
    let p: Promise<Uint8Array>;
    if (into !== undefined) {
      const target = buffers[k % buffers.length]!.subarray(0, s.to - s.from);
      p = into(s.from, target).then(() => target);
    } else {
      // A read may return a view into the source's cache, valid until its next read (ByteSource):
      // such views are copied, since the next slab is read while this one is used.
      p = source.read(s.from, s.to - s.from).then((b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : b.slice()));
    }
    p.catch(() => undefined); // awaited below; a failure surfaces there
    return p;
  };
  const pending: (Promise<Uint8Array> | undefined)[] = [];
  for (let k = 0; k < ahead; k++) pending.push(read(k));
  try {
    for (let k = 0; k < slabs.length; k++) {
      const s = slabs[k]!;
      held?.hold(s.from, undefined);
      const slab = await pending.shift()!;
      pending.push(read(k + ahead));
      held?.hold(s.from, slab);
      for (let i = s.first; i < s.end; i++) {
        const info = nodes[i]!;
        const at = info.fptr - s.from;
        const bytes = slab.subarray(at, at + info.size);
        yield { info, bytes, record: withRecords ? await recordAfter(file, info, slab, s.from) : undefined };
      }
    }
  } finally {
    held?.hold(0, undefined);
  }
}

/**
 * The size of the record starting at `at`, from its first bytes: none when they are not a record
 * or it would pass the file's end; a damaged size throws (nodeRecordSize).
 */
function recordSize(prefix: Uint8Array, at: number, source: { readonly size: number; readonly name: string }): number | undefined {
  if (!hasNodeRecordMagic(prefix)) return undefined;
  const size = nodeRecordSize(prefix, at, source.name);
  return at + size > source.size ? undefined : size;
}

/**
 * The record after a node's block, from the held slab (as nodeRecordBytes reads it: none when the
 * bytes there are not a record, or a damaged one), or 'outside' when the slab ends before it does.
 */
export function recordInSlab(held: HeldSlab, info: TreeNodeInfo, source: { readonly size: number; readonly name: string }): Uint8Array | undefined | 'outside' {
  const at = info.fptr + info.size;
  if (at + NODE_RECORD_PREFIX_BYTES > source.size) return undefined;
  const prefix = held.view(at, NODE_RECORD_PREFIX_BYTES);
  if (prefix === undefined) return 'outside';
  let size: number | undefined;
  try {
    size = recordSize(prefix, at, source);
  } catch {
    return undefined;
  }
  return size === undefined ? undefined : (held.view(at, size) ?? 'outside');
}

/** The node record starting where the node ends: from the slab, or read when it runs past it. */
async function recordAfter(file: Slog2File, info: TreeNodeInfo, slab: Uint8Array, slabFrom: number): Promise<Uint8Array | undefined> {
  const at = info.fptr + info.size;
  if (at + NODE_RECORD_PREFIX_BYTES > file.source.size) return undefined;
  const local = at - slabFrom;
  const prefix =
    local + NODE_RECORD_PREFIX_BYTES <= slab.length
      ? slab.subarray(local, local + NODE_RECORD_PREFIX_BYTES)
      : await file.source.read(at, NODE_RECORD_PREFIX_BYTES);
  const size = recordSize(prefix, at, file.source);
  if (size === undefined) return undefined;
  return local + size <= slab.length ? slab.subarray(local, local + size) : (await file.source.read(at, size)).slice();
}
