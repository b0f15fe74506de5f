/**
 * Byte encoders for the SLOG-2 2.0.6 blocks the writer emits (SLOG2.md §3–§7). Every encoder
 * computes the exact block size first and fills one preallocated buffer.
 */
import type { Category, LineIDMap } from '../../../model/types';
import { topologyCode } from '../../../model/types';
import { ByteWriter, encodedString } from './byteWriter';
import { HEADER_BYTES } from '../header';
import { NODE_HEADER_BYTES } from '../treeNode';
import { TREEDIR_ENTRY_BYTES, type TreeDirEntry } from '../treeDir';
import { WEIGHT_STRIDE, W_CATEGORY, W_COUNT, W_EXCL, W_INCL, previewCategory, type NodeShadows } from './shadows';
import { ratioOrderLikeBuiltin } from './builtinSort';
import { orderedShadows } from './shadowOrder';
import { shadowEntryBytes } from './shadowColumns';

export const VERSION = 'SLOG 2.0.6';
/** NodeHeader (NODE_HEADER_BYTES) + nestless count + nestable count. */
export const NODE_FIXED_BYTES = NODE_HEADER_BYTES + 8;

export interface BlockPointer {
  readonly fptr: number;
  readonly size: number;
}

export const NULL_BLOCK: BlockPointer = { fptr: 0, size: 0 };

export interface HeaderFields {
  readonly childrenPerNode: number;
  readonly leafBytes: number;
  readonly maxTreeDepth: number;
  readonly maxBufferBytes: number;
  readonly categories: BlockPointer;
  readonly lineIDMaps: BlockPointer;
  readonly treeRoot: BlockPointer;
  readonly treeDir: BlockPointer;
}

export function encodeHeader(h: HeaderFields): Uint8Array {
  const w = new ByteWriter(HEADER_BYTES);
  w.str(encodedString(VERSION, 'version'));
  w.i16(h.childrenPerNode);
  w.i32(h.leafBytes);
  w.i16(h.maxTreeDepth);
  w.i32(h.maxBufferBytes);
  for (const p of [h.categories, NULL_BLOCK, h.lineIDMaps, h.treeRoot, h.treeDir, NULL_BLOCK, NULL_BLOCK]) {
    w.i64(p.fptr);
    w.i32(p.size);
  }
  return w.bytes;
}

export function writeNodeHeader(w: ByteWriter, earliest: number, latest: number, depth: number, xpos: number, self: BlockPointer): void {
  w.f64(earliest);
  w.f64(latest);
  w.i16(depth);
  w.i32(xpos);
  w.i64(self.fptr);
  w.i32(self.size);
}

function writeShadow(w: ByteWriter, b: NodeShadows, r: number): void {
  const t = b.rows;
  const nv = t.vertices[r]!;
  w.i32(previewCategory(t.topology[r]!));
  w.i16(0);
  w.i16(nv);
  if (nv > 2) {
    const { times, lines } = t.wide!.get(r)!;
    for (let i = 0; i < nv; i++) {
      w.f64(times[i]!);
      w.i32(lines[i]!);
    }
  } else {
    w.f64(t.time0[r]!);
    w.i32(t.line0[r]!);
    if (nv === 2) {
      w.f64(t.time1[r]!);
      w.i32(t.line1[r]!);
    }
  }
  w.f64(t.earliest[r]!);
  w.f64(t.latest[r]!);
  w.i64(t.numRealObjs[r]!);
  // Written in ratio order; kept in insertion order, which still breaks ties where a parent merges them.
  const ws = t.arena;
  const base = t.weightStart[r]!;
  const n = t.weightCount[r]!;
  const order = n > 1 ? ratioOrderLikeBuiltin(ws, n, base) : oneWeight;
  w.i32(n);
  for (let i = 0; i < n; i++) {
    const at = base + order[i]! * WEIGHT_STRIDE;
    w.i32(t.arenaBits[at + W_CATEGORY]! | 0);
    w.f32(ws[at + W_INCL]!);
    w.f32(ws[at + W_EXCL]!);
    w.i64(t.arenaBits[at + W_COUNT]!);
  }
}

const oneWeight: readonly number[] = [0];

/** A finished child shadow buffer (§7.4 ShadowBuffer): stub header, nestless shadows, nestable shadows. */
export function writeShadowBuffer(w: ByteWriter, b: NodeShadows): void {
  writeShadowBufferInParts(() => w, b, Infinity);
}

/**
 * writeShadowBuffer through `next(bytes)`, a writer over the next `bytes` bytes of the output
 * (consecutive in the file): the shadows in runs of at most `partBytes` (one shadow if bigger),
 * so a wide node's block need not be one buffer in memory (slog2Writer.ts).
 */
export function writeShadowBufferInParts(next: (bytes: number) => ByteWriter, b: NodeShadows, partBytes: number): void {
  const { list, nestless, count } = orderedShadows(b);
  const head = next(NODE_HEADER_BYTES + 4);
  writeNodeHeader(head, b.earliest, b.latest, b.depth, b.xpos, { fptr: b.fptr, size: b.size });
  head.i32(nestless);
  writeShadowRuns(next, b, list, 0, nestless, partBytes);
  next(4).i32(count - nestless);
  writeShadowRuns(next, b, list, nestless, count, partBytes);
}

/** Shadows list[from..to) of `b`, in runs of at most `partBytes` each through `next`. */
function writeShadowRuns(next: (bytes: number) => ByteWriter, b: NodeShadows, list: Uint32Array, from: number, to: number, partBytes: number): void {
  const t = b.rows;
  for (let i = from; i < to;) {
    let bytes = shadowBytes(t, list[i]!);
    let j = i + 1;
    for (; j < to; j++) {
      const n = shadowBytes(t, list[j]!);
      if (bytes + n > partBytes) break;
      bytes += n;
    }
    const w = next(bytes);
    const start = w.pos;
    for (let k = i; k < j; k++) writeShadow(w, b, list[k]!);
    if (w.pos - start !== bytes)
      throw new Error(`internal error: shadows ${i}..${j} of node (${b.depth}, ${b.xpos}) encoded ${w.pos - start} bytes, expected ${bytes}`);
    i = j;
  }
}

/** Bytes of row r written as a shadow (writeShadow). */
function shadowBytes(t: NodeShadows['rows'], r: number): number {
  return shadowEntryBytes(t.vertices[r]!, t.weightCount[r]!);
}

export interface CategoryRecord {
  readonly category: Category;
  readonly incl: number;
  readonly excl: number;
  readonly count: number;
}

function argb(c: Category): number {
  const [r, g, b, a] = c.rgba;
  return ((a & 255) << 24) | ((r & 255) << 16) | ((g & 255) << 8) | (b & 255);
}

export function encodeCategoryMap(records: readonly CategoryRecord[]): Uint8Array {
  const encoded = records.map(({ category: c }) => ({
    name: encodedString(c.name, `category ${c.index} name`),
    keys: c.infoKeys.map((k, i) => encodedString(k, `category ${c.index} info key ${i}`)),
    types: encodedString(c.infoTypes, `category ${c.index} info types`),
  }));
  let size = 4;
  records.forEach(({ category: c }, i) => {
    const e = encoded[i]!;
    size += 4 + 2 + e.name.length + 4 + 4 + 1 + 1 + 2 + 2 + e.types.length + 2 + 4 * c.methods.length + 16;
    for (const k of e.keys) size += 2 + k.length;
  });
  const w = new ByteWriter(size);
  w.i32(records.length);
  records.forEach((r, i) => {
    const c = r.category;
    const e = encoded[i]!;
    w.i32(c.index);
    w.str(e.name);
    w.i32(topologyCode(c.topology));
    w.i32(argb(c));
    w.u8(c.modifiable ? 1 : 0);
    w.u8(c.width & 255);
    w.i16(e.keys.length);
    for (const k of e.keys) w.str(k);
    w.i16(e.types.length);
    w.raw(e.types);
    w.i16(c.methods.length);
    for (const m of c.methods) w.i32(m);
    w.f32(r.incl);
    w.f32(r.excl);
    w.i64(r.count);
  });
  return w.bytes;
}

export function encodeLineIDMaps(maps: readonly LineIDMap[]): Uint8Array {
  const titles = maps.map((m) => encodedString(m.title, 'LineIDMap title'));
  const columns = maps.map((m) => m.columns.map((c) => encodedString(c, `LineIDMap ${m.title} column label`)));
  let size = 4;
  maps.forEach((m, i) => {
    size += 2 + titles[i]!.length + 4 + 4 + m.rows.length * 4 * (1 + m.columns.length) + 2 + 4 * m.methods.length;
    for (const c of columns[i]!) size += 2 + c.length;
  });
  const w = new ByteWriter(size);
  w.i32(maps.length);
  maps.forEach((m, i) => {
    w.str(titles[i]!);
    w.i32(m.columns.length);
    for (const c of columns[i]!) w.str(c);
    w.i32(m.rows.length);
    for (const row of m.rows) {
      w.i32(row.lineID);
      for (let k = 0; k < m.columns.length; k++) w.i32(row.path[k] ?? 0);
    }
    w.i16(m.methods.length);
    for (const x of m.methods) w.i32(x);
  });
  return w.bytes;
}

export type { TreeDirEntry } from '../treeDir';

/** TreeDir (§6), sorted like the reference: depth descending, then xpos ascending. */
export function encodeTreeDir(entries: readonly TreeDirEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => b.depth - a.depth || a.xpos - b.xpos);
  const w = new ByteWriter(4 + TREEDIR_ENTRY_BYTES * sorted.length);
  w.i32(sorted.length);
  for (const e of sorted) {
    w.i16(e.depth);
    w.i32(e.xpos);
    w.f64(e.earliest);
    w.f64(e.latest);
    w.i64(e.fptr);
    w.i32(e.size);
  }
  return w.bytes;
}
