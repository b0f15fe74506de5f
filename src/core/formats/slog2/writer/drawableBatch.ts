/**
 * Drawables as flat typed-array columns, the writer's only input format: per drawable its
 * drawing-order keys, list, size and source sites; per primitive (a primitive drawable, or a
 * member of a composite) its topology, category, bounds, vertices and info bytes. Nothing is in
 * the big-endian file encoding yet: a node's drawables are encoded (drawableBatchBytes.ts) straight into the
 * output when the node is written, in drawing order.
 *
 * A batch is a plain object of typed arrays, so it can cross a thread boundary by transferring its
 * buffers (structured clone of millions of drawable objects would cost more than converting them)
 * and be sent back for reuse. The same layout, grown on demand, holds an open tree node's drawables
 * (NodeDrawables).
 *
 * `DrawableBatchEncoder` (drawableBatchEncoder.ts) validates drawable objects against the writer's
 * input contract and appends them to batches.
 */
import type { SourceLocation } from '../../../model/types';
import type { PrimitiveColumns } from './shadows';
import { grown } from '../../../bytes/grown';

export interface DrawableBatch extends PrimitiveColumns {
  /** Drawables (node-list entries) in the batch, in arrival order. */
  count: number;
  /** Primitives (one per primitive drawable, the members of composites), vertices, info bytes used. */
  primitives: number;
  vertices: number;
  infoUsed: number;

  earliest: Float64Array;
  latest: Float64Array;
  category: Int32Array;
  startLine: Int32Array;
  finalLine: Int32Array;
  /** 1 = nestable list (states, composites), 0 = nestless (arrows, events). */
  nestable: Uint8Array;
  /** 0 = primitive, 1 = composite (the §7.2 kind byte). */
  kind: Uint8Array;
  /** Encoded size of the entry: kind byte + body (§7.2). */
  entryBytes: Uint32Array;
  /** Source-location site indices (−1 = none) of each entry's start and end. */
  siteStart: Int32Array;
  siteEnd: Int32Array;
  /** Entry i's primitives are primitiveStart[i] .. primitiveStart[i + 1]. */
  primitiveStart: Uint32Array;
  /** A composite's own info bytes: info[entryInfoStart[i] .. entryInfoEnd[i]]. */
  entryInfoStart: Uint32Array;
  entryInfoEnd: Uint32Array;
  /** Primitive p's info bytes: info[primInfoStart[p] .. primInfoEnd[p]]. */
  primInfoStart: Uint32Array;
  primInfoEnd: Uint32Array;
  info: Uint8Array;

  /** Sites first referenced in this batch; their indices are firstNewSite, firstNewSite + 1, … */
  firstNewSite: number;
  newSites: SourceLocation[];

  /**
   * What the batch uses that no batch of its stream used before (the encoder's account, kept as
   * entries are added, on the converter's thread): a bit per topology code of its primitives, and
   * the categories (of primitives and composites) and lineIDs new in it. The writer's tables
   * (category map, lineID maps) list what was used; summing it per batch on the writer's thread
   * was ~3 % of that thread, the longer of the two.
   */
  topologies: number;
  newCategories: number[];
  newLineIDs: number[];
}

/** Capacity of the encoder's batches: a few hundred KiB of drawables each. */
export const BATCH_ENTRIES = 8192;
const BATCH_INFO_BYTES = 128 << 10;

export function newDrawableBatch(entries = BATCH_ENTRIES, infoBytes = BATCH_INFO_BYTES): DrawableBatch {
  const primitives = entries;
  const vertices = 2 * entries;
  // one object literal makes every batch's shape (adoptDrawableBatch's): this one only carries the arrays
  return adoptDrawableBatch({
    count: 0,
    primitives: 0,
    vertices: 0,
    infoUsed: 0,
    earliest: new Float64Array(entries),
    latest: new Float64Array(entries),
    category: new Int32Array(entries),
    startLine: new Int32Array(entries),
    finalLine: new Int32Array(entries),
    nestable: new Uint8Array(entries),
    kind: new Uint8Array(entries),
    entryBytes: new Uint32Array(entries),
    siteStart: new Int32Array(entries),
    siteEnd: new Int32Array(entries),
    primitiveStart: new Uint32Array(entries + 1),
    entryInfoStart: new Uint32Array(entries),
    entryInfoEnd: new Uint32Array(entries),
    primTopology: new Uint8Array(primitives),
    primCategory: new Int32Array(primitives),
    primEarliest: new Float64Array(primitives),
    primLatest: new Float64Array(primitives),
    vertexStart: new Uint32Array(primitives + 1),
    primInfoStart: new Uint32Array(primitives),
    primInfoEnd: new Uint32Array(primitives),
    vertexTime: new Float64Array(vertices),
    vertexLine: new Int32Array(vertices),
    info: new Uint8Array(infoBytes),
    firstNewSite: 0,
    newSites: [],
    topologies: 0,
    newCategories: [],
    newLineIDs: [],
  });
}

/**
 * The same batch (its arrays, emptied) as an object of newDrawableBatch's shape. A batch that came
 * back from another thread is a structured clone, an object of another hidden class: the encoder's
 * hot path met both (a microbench of addParts with batches recycled through clones: 52 ns a
 * drawable, 42 ns with them re-wrapped; 31 ns never recycled).
 */
export function adoptDrawableBatch(b: DrawableBatch): DrawableBatch {
  return {
    count: 0,
    primitives: 0,
    vertices: 0,
    infoUsed: 0,
    earliest: b.earliest,
    latest: b.latest,
    category: b.category,
    startLine: b.startLine,
    finalLine: b.finalLine,
    nestable: b.nestable,
    kind: b.kind,
    entryBytes: b.entryBytes,
    siteStart: b.siteStart,
    siteEnd: b.siteEnd,
    primitiveStart: b.primitiveStart,
    entryInfoStart: b.entryInfoStart,
    entryInfoEnd: b.entryInfoEnd,
    primTopology: b.primTopology,
    primCategory: b.primCategory,
    primEarliest: b.primEarliest,
    primLatest: b.primLatest,
    vertexStart: b.vertexStart,
    primInfoStart: b.primInfoStart,
    primInfoEnd: b.primInfoEnd,
    vertexTime: b.vertexTime,
    vertexLine: b.vertexLine,
    info: b.info,
    firstNewSite: 0,
    newSites: [],
    topologies: 0,
    newCategories: [],
    newLineIDs: [],
  };
}

/** Empties a batch for reuse (capacity kept). */
export function resetDrawableBatch(b: DrawableBatch, firstNewSite = 0): void {
  b.count = 0;
  b.primitives = 0;
  b.vertices = 0;
  b.infoUsed = 0;
  b.primitiveStart[0] = 0;
  b.vertexStart[0] = 0;
  b.firstNewSite = firstNewSite;
  b.newSites = [];
  b.topologies = 0;
  b.newCategories = [];
  b.newLineIDs = [];
}

/** The buffers to transfer when posting a batch to another thread. */
export function batchBuffers(b: DrawableBatch): ArrayBuffer[] {
  const arrays = [
    b.earliest,
    b.latest,
    b.category,
    b.startLine,
    b.finalLine,
    b.nestable,
    b.kind,
    b.entryBytes,
    b.siteStart,
    b.siteEnd,
    b.primitiveStart,
    b.entryInfoStart,
    b.entryInfoEnd,
    b.primTopology,
    b.primCategory,
    b.primEarliest,
    b.primLatest,
    b.vertexStart,
    b.primInfoStart,
    b.primInfoEnd,
    b.vertexTime,
    b.vertexLine,
    b.info,
  ];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/** True if `b` can take one more entry of this many primitives, vertices and info bytes. */
export function hasRoom(b: DrawableBatch, primitives: number, vertices: number, infoBytes: number): boolean {
  return (
    b.count < b.earliest.length &&
    b.primitives + primitives <= b.primTopology.length &&
    b.vertices + vertices <= b.vertexTime.length &&
    b.infoUsed + infoBytes <= b.info.length
  );
}

/** Grows `b` so that it can take `entries` more entries (one by default) of this many primitives, vertices and info bytes. */
export function makeRoom(b: DrawableBatch, primitives: number, vertices: number, infoBytes: number, entries = 1): void {
  if (b.count + entries > b.earliest.length) {
    const n = b.count + entries;
    b.earliest = grown(b.earliest, n);
    b.latest = grown(b.latest, n);
    b.category = grown(b.category, n);
    b.startLine = grown(b.startLine, n);
    b.finalLine = grown(b.finalLine, n);
    b.nestable = grown(b.nestable, n);
    b.kind = grown(b.kind, n);
    b.entryBytes = grown(b.entryBytes, n);
    b.siteStart = grown(b.siteStart, n);
    b.siteEnd = grown(b.siteEnd, n);
    // one more than the entries' own capacity (grown alone, it could stop at the same length:
    // grown(1028, 2049) is 2056 where the entries' grew to 4096; fuzzer case writer:373:2719)
    b.primitiveStart = grown(b.primitiveStart, b.earliest.length + 1);
    b.entryInfoStart = grown(b.entryInfoStart, n);
    b.entryInfoEnd = grown(b.entryInfoEnd, n);
  }
  if (b.primitives + primitives > b.primTopology.length) {
    const n = b.primitives + primitives;
    b.primTopology = grown(b.primTopology, n);
    b.primCategory = grown(b.primCategory, n);
    b.primEarliest = grown(b.primEarliest, n);
    b.primLatest = grown(b.primLatest, n);
    b.vertexStart = grown(b.vertexStart, b.primTopology.length + 1);
    b.primInfoStart = grown(b.primInfoStart, n);
    b.primInfoEnd = grown(b.primInfoEnd, n);
  }
  if (b.vertices + vertices > b.vertexTime.length) {
    b.vertexTime = grown(b.vertexTime, b.vertices + vertices);
    b.vertexLine = grown(b.vertexLine, b.vertices + vertices);
  }
  if (b.infoUsed + infoBytes > b.info.length) b.info = grown(b.info, b.infoUsed + infoBytes);
}

/**
 * Copies info[from .. to) of `src` to `dst` at `at`; returns the end. Longer spans with `set` (32
 * cargo bytes in a third of a byte loop's time), a whole array without a view of it.
 */
export function copyInfo(src: Uint8Array, from: number, to: number, dst: Uint8Array, at: number): number {
  if (to - from > 24) {
    dst.set(from === 0 && to === src.length ? src : src.subarray(from, to), at);
    return at + (to - from);
  }
  for (let k = from; k < to; k++) dst[at++] = src[k]!;
  return at;
}

/** Appends entry j of `src` (with its primitives, vertices and info bytes) to `dst`, growing it as needed. */
export function appendEntry(dst: DrawableBatch, src: DrawableBatch, j: number): void {
  const p0 = src.primitiveStart[j]!;
  const p1 = src.primitiveStart[j + 1]!;
  const composite = src.kind[j] === 1;
  // Info bytes of a primitive entry: its one primitive's; of a composite: its own + its members'.
  const infoBytes = composite
    ? src.entryInfoEnd[j]! - src.entryInfoStart[j]! + src.primInfoEnd[p1 - 1]! - src.primInfoStart[p0]!
    : src.primInfoEnd[p0]! - src.primInfoStart[p0]!;
  const v0 = src.vertexStart[p0]!;
  const v1 = src.vertexStart[p1]!;
  if (!hasRoom(dst, p1 - p0, v1 - v0, infoBytes)) makeRoom(dst, p1 - p0, v1 - v0, infoBytes);
  const i = dst.count;
  dst.earliest[i] = src.earliest[j]!;
  dst.latest[i] = src.latest[j]!;
  dst.category[i] = src.category[j]!;
  dst.startLine[i] = src.startLine[j]!;
  dst.finalLine[i] = src.finalLine[j]!;
  dst.nestable[i] = src.nestable[j]!;
  dst.kind[i] = src.kind[j]!;
  dst.entryBytes[i] = src.entryBytes[j]!;
  dst.siteStart[i] = src.siteStart[j]!;
  dst.siteEnd[i] = src.siteEnd[j]!;
  let at = dst.infoUsed;
  if (composite) {
    dst.entryInfoStart[i] = at;
    at = copyInfo(src.info, src.entryInfoStart[j]!, src.entryInfoEnd[j]!, dst.info, at);
    dst.entryInfoEnd[i] = at;
  }
  // Vertices of the entry's primitives are contiguous in both.
  const v = dst.vertices;
  const srcTimes = src.vertexTime;
  const srcLines = src.vertexLine;
  const dstTimes = dst.vertexTime;
  const dstLines = dst.vertexLine;
  for (let k = v0; k < v1; k++) {
    dstTimes[v + k - v0] = srcTimes[k]!;
    dstLines[v + k - v0] = srcLines[k]!;
  }
  const shift = v - v0;
  let q = dst.primitives;
  for (let p = p0; p < p1; p++, q++) {
    dst.primTopology[q] = src.primTopology[p]!;
    dst.primCategory[q] = src.primCategory[p]!;
    dst.primEarliest[q] = src.primEarliest[p]!;
    dst.primLatest[q] = src.primLatest[p]!;
    dst.vertexStart[q + 1] = src.vertexStart[p + 1]! + shift;
    dst.primInfoStart[q] = at;
    at = copyInfo(src.info, src.primInfoStart[p]!, src.primInfoEnd[p]!, dst.info, at);
    dst.primInfoEnd[q] = at;
  }
  dst.primitives = q;
  dst.vertices = v + (v1 - v0);
  dst.infoUsed = at;
  dst.count = i + 1;
  dst.primitiveStart[i + 1] = q;
}

/**
 * Appends entries from .. to of `src` to `dst` as appendEntry would one by one, column by column
 * (typed-array copies, offsets shifted): a node's drawables arrive in runs of consecutive entries
 * (a leaf's ~1 700 at a time on the bench's traces), where the per-entry copy was ~15 % of the
 * writer's thread. The run's info bytes are copied as the one span they lie in.
 */
export function appendRange(dst: DrawableBatch, src: DrawableBatch, from: number, to: number): void {
  const n = to - from;
  if (n <= 0) return;
  const p0 = src.primitiveStart[from]!;
  const p1 = src.primitiveStart[to]!;
  const v0 = src.vertexStart[p0]!;
  const v1 = src.vertexStart[p1]!;
  let lo = Infinity;
  let hi = 0;
  for (let p = p0; p < p1; p++) {
    lo = Math.min(lo, src.primInfoStart[p]!);
    hi = Math.max(hi, src.primInfoEnd[p]!);
  }
  for (let j = from; j < to; j++) {
    if (src.kind[j] !== 1) continue;
    lo = Math.min(lo, src.entryInfoStart[j]!);
    hi = Math.max(hi, src.entryInfoEnd[j]!);
  }
  // a run without info bytes: its offsets are one point, put at dst.infoUsed as appendEntry puts
  // them (not shifted from 0, which left them past the copied bytes). The test on lo comes first,
  // on every call: only under the rare branch, V8 optimised this function before it had run and
  // threw the code away at the first run without info bytes.
  if (lo === Infinity) lo = 0;
  if (!(hi > lo)) hi = lo;
  if (!hasRoom(dst, p1 - p0, v1 - v0, hi - lo) || dst.count + n > dst.earliest.length) makeRoom(dst, p1 - p0, v1 - v0, hi - lo, n);
  const i = dst.count;
  dst.earliest.set(src.earliest.subarray(from, to), i);
  dst.latest.set(src.latest.subarray(from, to), i);
  dst.category.set(src.category.subarray(from, to), i);
  dst.startLine.set(src.startLine.subarray(from, to), i);
  dst.finalLine.set(src.finalLine.subarray(from, to), i);
  dst.nestable.set(src.nestable.subarray(from, to), i);
  dst.kind.set(src.kind.subarray(from, to), i);
  dst.entryBytes.set(src.entryBytes.subarray(from, to), i);
  dst.siteStart.set(src.siteStart.subarray(from, to), i);
  dst.siteEnd.set(src.siteEnd.subarray(from, to), i);
  // Offsets move with the copies (Uint32 columns: a primitive's unused entry offsets wrap harmlessly).
  const info = dst.infoUsed - lo;
  const q0 = dst.primitives;
  const prims = q0 - p0;
  for (let k = 0; k < n; k++) {
    dst.primitiveStart[i + k + 1] = src.primitiveStart[from + k + 1]! + prims;
    dst.entryInfoStart[i + k] = src.entryInfoStart[from + k]! + info;
    dst.entryInfoEnd[i + k] = src.entryInfoEnd[from + k]! + info;
  }
  dst.primTopology.set(src.primTopology.subarray(p0, p1), q0);
  dst.primCategory.set(src.primCategory.subarray(p0, p1), q0);
  dst.primEarliest.set(src.primEarliest.subarray(p0, p1), q0);
  dst.primLatest.set(src.primLatest.subarray(p0, p1), q0);
  const verts = dst.vertices - v0;
  for (let k = 0; k < p1 - p0; k++) {
    dst.vertexStart[q0 + k + 1] = src.vertexStart[p0 + k + 1]! + verts;
    dst.primInfoStart[q0 + k] = src.primInfoStart[p0 + k]! + info;
    dst.primInfoEnd[q0 + k] = src.primInfoEnd[p0 + k]! + info;
  }
  dst.vertexTime.set(src.vertexTime.subarray(v0, v1), dst.vertices);
  dst.vertexLine.set(src.vertexLine.subarray(v0, v1), dst.vertices);
  if (hi > lo) dst.info.set(src.info.subarray(lo, hi), dst.infoUsed);
  dst.count = i + n;
  dst.primitives = q0 + (p1 - p0);
  dst.vertices += v1 - v0;
  dst.infoUsed += hi - lo;
}
