/**
 * The storage of a node's shadows (shadows.ts): one row per shadow in typed columns, and their
 * category weights in one arena of 32-bit words. A wide trace starts a shadow for nearly every
 * drawable; as objects (a record, its times, a weights array growing by push) those that lived as
 * long as their node were promoted and died in the old generation, which grew to several times
 * the live heap between full collections (about a third of a 2048-rank conversion's peak memory).
 * Column sets are pooled: a written child's go back when it has been merged into its parent.
 */
import { grown } from '../../../bytes/grown';

/**
 * Words per weight in the arena: category, inclusive ratio, exclusive ratio, count. The ratios are
 * Java floats (every operation on them is rounded to float32), so float32 holds them exactly; the
 * category and count are integers. Half the bytes of doubles: the arena was the largest part of a
 * 2048-rank conversion's writer memory (21 of ~90 MiB at its peak).
 */
export const WEIGHT_STRIDE = 4;
export const W_CATEGORY = 0;
export const W_INCL = 1;
export const W_EXCL = 2;
export const W_COUNT = 3;

/** Scratch of packInPlace: which row's weights start at each slot of an arena (row + 1; 0 = none), all 0 between uses. */
let ownerOfSlot = new Int32Array(0);

/** Bytes per row of the columns other than the arena: six of doubles, seven of 32 bits, three of bytes. */
const ROW_BYTES = 8 * 6 + 4 * 7 + 3;

/** Bytes of one shadow as §7.4 writes it (encode.ts writeShadow): fixed fields, 12 per vertex, 20 per weight. */
export function shadowEntryBytes(vertices: number, weights: number): number {
  return 36 + 12 * vertices + 20 * weights;
}

/** Vertex times and lineIDs of a shadow of more than two vertices (no converter makes one; the format allows them). */
export interface WideVertices {
  readonly times: number[];
  readonly lines: readonly number[];
}

export class ShadowColumns {
  /** Rows in use. */
  count = 0;
  topology = new Uint8Array(0);
  /** A numeric key, or NaN for a string key (in `stringKeys`). */
  key = new Float64Array(0);
  earliest = new Float64Array(0);
  latest = new Float64Array(0);
  numRealObjs = new Float64Array(0);
  /** Vertex count; the first two vertices' times and lineIDs inline, more in `wide`. */
  vertices = new Uint32Array(0);
  time0 = new Float64Array(0);
  time1 = new Float64Array(0);
  line0 = new Int32Array(0);
  line1 = new Int32Array(0);
  /** Weights: row r's are arena[weightStart[r] .. + WEIGHT_STRIDE·weightCount[r]), room for weightRoom[r]. */
  weightStart = new Uint32Array(0);
  weightCount = new Uint32Array(0);
  weightRoom = new Uint32Array(0);
  /** 1 once the row's weights are set (a node's own shadows: when its latest time is fixed). */
  hasWeights = new Uint8Array(0);
  /** Own real members (in the buffer's MemberColumns); 0 once finalized. */
  memberCount = new Uint32Array(0);
  /** An own state shadow: merged child shadows reduce its members' exclusive time. */
  collectsChildren = new Uint8Array(0);
  /** The weights' ratios (W_INCL, W_EXCL) as float32. */
  arena: Float32Array;
  /** The same words as unsigned integers: the category (read back `| 0`), the count, and raw copies. */
  arenaBits: Uint32Array;
  arenaUsed = 0;
  stringKeys: Map<number, string> | undefined;
  wide: Map<number, WideVertices> | undefined;

  constructor(capacity = 64, arenaNumbers = 1024) {
    this.resize(Math.max(1, capacity));
    const words = new ArrayBuffer(4 * Math.max(1024, arenaNumbers));
    this.arena = new Float32Array(words);
    this.arenaBits = new Uint32Array(words);
  }

  /** A new row (index returned), its columns not yet set. */
  addRow(): number {
    if (this.count === this.topology.length) this.resize(this.topology.length * 2);
    return this.count++;
  }

  /**
   * Room for `n` weights at the end of the arena: their start. When the arena is full, the rows
   * are packed into a new one (rows' starts change; callers read them afterwards): of the same
   * size when a quarter of it or more was left behind by moved rows or unused room, else twice
   * as big. A 2048-rank high node's weights took over four times their size without packing.
   */
  reserveWeights(n: number): number {
    const need = this.arenaUsed + n * WEIGHT_STRIDE;
    if (need > this.arena.length) {
      const packedNeed = this.liveWeightSlots() + n * WEIGHT_STRIDE;
      let cap = this.arena.length;
      if (4 * packedNeed > 3 * cap) {
        cap *= 2;
        while (cap < packedNeed) cap *= 2;
        this.packInto(cap);
      } else this.packInPlace();
    }
    const at = this.arenaUsed;
    this.arenaUsed += n * WEIGHT_STRIDE;
    return at;
  }

  /** Numbers of the arena the rows would take packed (pack: each row's weights and room for one more). */
  private liveWeightSlots(): number {
    let live = 0;
    for (let r = 0; r < this.count; r++) if (this.weightRoom[r] !== 0) live += this.weightCount[r]! + 1;
    return live * WEIGHT_STRIDE;
  }

  /**
   * Moves every row's weights to the start of a new arena of `capacity` words, in row order, each
   * with room for one more (not a copy kept for the next packing: 8 MB on a 16 384-rank trace).
   */
  private packInto(capacity: number): void {
    const old = this.arenaBits;
    const words = new ArrayBuffer(4 * capacity);
    const bits = new Uint32Array(words);
    let at = 0;
    for (let r = 0; r < this.count; r++) {
      if (this.weightRoom[r] === 0) continue;
      const n = this.weightCount[r]!;
      const from = this.weightStart[r]!;
      for (let k = 0; k < n * WEIGHT_STRIDE; k++) bits[at + k] = old[from + k]!;
      this.weightStart[r] = at;
      this.weightRoom[r] = n + 1;
      at += (n + 1) * WEIGHT_STRIDE;
    }
    this.arena = new Float32Array(words);
    this.arenaBits = bits;
    this.arenaUsed = at;
  }

  /**
   * Moves every row's weights down to the start of this arena, in the order they lie in it, with no
   * room to spare (a row that gets another weight moves to the end: roomForWeight). In place: a new
   * arena at each packing (~70 of a few MB in a 16 384-rank conversion, 420 MB in all) lived as
   * long as its buffer and died in the old generation, where it stayed until a full collection.
   */
  private packInPlace(): void {
    const slots = Math.ceil(this.arena.length / WEIGHT_STRIDE);
    if (ownerOfSlot.length < slots) ownerOfSlot = new Int32Array(Math.max(slots, 2 * ownerOfSlot.length));
    const owner = ownerOfSlot;
    // A row with room owns the slot its weights start at (rows without room have none).
    for (let r = 0; r < this.count; r++) if (this.weightRoom[r] !== 0) owner[this.weightStart[r]! / WEIGHT_STRIDE] = r + 1;
    const bits = this.arenaBits;
    let at = 0;
    for (let slot = 0; slot < slots; slot++) {
      const r1 = owner[slot]!;
      if (r1 === 0) continue;
      owner[slot] = 0;
      const r = r1 - 1;
      const words = this.weightCount[r]! * WEIGHT_STRIDE;
      const from = this.weightStart[r]!;
      // Down only (at ≤ from: the rows before took no more than they had), so a forward copy is safe.
      for (let k = 0; k < words; k++) bits[at + k] = bits[from + k]!;
      this.weightStart[r] = at;
      this.weightRoom[r] = this.weightCount[r]!;
      at += words;
    }
    this.arenaUsed = at;
  }

  /** Row r's weights with room for one more (moved to the arena's end, with half as much room again, when full). */
  roomForWeight(r: number): void {
    const n = this.weightCount[r]!;
    if (n < this.weightRoom[r]!) return;
    const room = Math.max(2, n + (n >> 1));
    const at = this.reserveWeights(room);
    const from = this.weightStart[r]!;
    this.arenaBits.copyWithin(at, from, from + n * WEIGHT_STRIDE);
    this.weightStart[r] = at;
    this.weightRoom[r] = room;
  }

  /** Arena offset of `category`'s weight in row r, or −1. */
  weightSlot(r: number, category: number): number {
    const bits = this.arenaBits;
    const from = this.weightStart[r]!;
    const to = from + this.weightCount[r]! * WEIGHT_STRIDE;
    for (let i = from; i < to; i += WEIGHT_STRIDE) if ((bits[i + W_CATEGORY]! | 0) === category) return i;
    return -1;
  }

  /** Appends a weight to row r (its arena offset; the arena may have moved). */
  appendWeight(r: number, category: number, incl: number, excl: number, count: number): number {
    this.roomForWeight(r);
    const at = this.weightStart[r]! + this.weightCount[r]! * WEIGHT_STRIDE;
    const a = this.arena;
    const bits = this.arenaBits;
    bits[at + W_CATEGORY] = category;
    a[at + W_INCL] = incl;
    a[at + W_EXCL] = excl;
    bits[at + W_COUNT] = count;
    this.weightCount[r]!++;
    return at;
  }

  /** Row r's weights as numbers, WEIGHT_STRIDE each (category, inclusive, exclusive, count), in insertion order. */
  weightValues(r: number): number[] {
    const out: number[] = [];
    const to = this.weightStart[r]! + this.weightCount[r]! * WEIGHT_STRIDE;
    for (let at = this.weightStart[r]!; at < to; at += WEIGHT_STRIDE)
      out.push(this.arenaBits[at + W_CATEGORY]! | 0, this.arena[at + W_INCL]!, this.arena[at + W_EXCL]!, this.arenaBits[at + W_COUNT]!);
    return out;
  }

  /** Row r gets exclusive ratios (§12.2): a state shadow that collects children, with members of its own. */
  hasExclusiveWeights(r: number): boolean {
    return this.collectsChildren[r] === 1 && this.memberCount[r] !== 0;
  }

  /** Row r's first and last lineID. */
  firstLine(r: number): number {
    return this.vertices[r]! > 2 ? this.wide!.get(r)!.lines[0]! : this.line0[r]!;
  }
  lastLine(r: number): number {
    const nv = this.vertices[r]!;
    if (nv > 2) {
      const lines = this.wide!.get(r)!.lines;
      return lines[lines.length - 1]!;
    }
    return nv === 2 ? this.line1[r]! : this.line0[r]!;
  }

  /** Room for `rows` rows and `arenaWords` words of weights (the rows and arena in use kept). */
  ensure(rows: number, arenaWords: number): void {
    if (rows > this.topology.length) this.resize(rows, true);
    if (arenaWords > this.arena.length) {
      const words = new ArrayBuffer(4 * arenaWords);
      const bits = new Uint32Array(words);
      bits.set(this.arenaBits.subarray(0, this.arenaUsed));
      this.arena = new Float32Array(words);
      this.arenaBits = bits;
    }
  }

  /** Emptied for the next node buffer. */
  clear(): void {
    this.count = 0;
    this.arenaUsed = 0;
    this.stringKeys = undefined;
    this.wide = undefined;
  }

  /** Row r of `from` copied to row `to` of this set, but for its weights' place in the arena (the caller's). */
  copyRow(from: ShadowColumns, r: number, to: number): void {
    this.topology[to] = from.topology[r]!;
    this.key[to] = from.key[r]!;
    this.earliest[to] = from.earliest[r]!;
    this.latest[to] = from.latest[r]!;
    this.numRealObjs[to] = from.numRealObjs[r]!;
    this.vertices[to] = from.vertices[r]!;
    this.time0[to] = from.time0[r]!;
    this.time1[to] = from.time1[r]!;
    this.line0[to] = from.line0[r]!;
    this.line1[to] = from.line1[r]!;
    this.hasWeights[to] = from.hasWeights[r]!;
    this.memberCount[to] = from.memberCount[r]!;
    this.collectsChildren[to] = from.collectsChildren[r]!;
  }

  /**
   * Every row of `from` moved into this empty set, in order (same row numbers: indexes stay
   * valid), with its weights and room for them packed at the arena's start.
   */
  takeRowsOf(from: ShadowColumns): void {
    let words = 0;
    for (let r = 0; r < from.count; r++) words += from.weightRoom[r]! * WEIGHT_STRIDE;
    this.ensure(from.count, words);
    let at = 0;
    for (let r = 0; r < from.count; r++) {
      this.copyRow(from, r, r);
      const n = from.weightCount[r]!;
      const start = from.weightStart[r]!;
      this.arenaBits.set(from.arenaBits.subarray(start, start + n * WEIGHT_STRIDE), at);
      this.weightStart[r] = at;
      this.weightCount[r] = n;
      this.weightRoom[r] = from.weightRoom[r]!;
      at += from.weightRoom[r]! * WEIGHT_STRIDE;
    }
    this.count = from.count;
    this.arenaUsed = at;
    this.stringKeys = from.stringKeys;
    this.wide = from.wide;
  }

  /** Bytes of this set's arrays. */
  get capacityBytes(): number {
    return this.topology.length * ROW_BYTES + this.arena.byteLength;
  }

  /** Every column grown to `capacity` rows (doubling, or to exactly that; the rows copied). */
  private resize(capacity: number, exact = false): void {
    const g = exact ? exactly : grown;
    this.topology = g(this.topology, capacity);
    this.key = g(this.key, capacity);
    this.earliest = g(this.earliest, capacity);
    this.latest = g(this.latest, capacity);
    this.numRealObjs = g(this.numRealObjs, capacity);
    this.vertices = g(this.vertices, capacity);
    this.time0 = g(this.time0, capacity);
    this.time1 = g(this.time1, capacity);
    this.line0 = g(this.line0, capacity);
    this.line1 = g(this.line1, capacity);
    this.weightStart = g(this.weightStart, capacity);
    this.weightCount = g(this.weightCount, capacity);
    this.weightRoom = g(this.weightRoom, capacity);
    this.hasWeights = g(this.hasWeights, capacity);
    this.memberCount = g(this.memberCount, capacity);
    this.collectsChildren = g(this.collectsChildren, capacity);
  }
}

/** A copy of `a` with room for exactly `n` elements (n ≥ its length). */
function exactly<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, n: number): T {
  const next = new (a.constructor as new (n: number) => T)(n);
  next.set(a as never);
  return next;
}

/**
 * Column sets of released buffers (a wide trace's hold thousands of rows and their weights; new
 * ones per node, grown step by step, were most of a 2048-rank conversion's memory traffic).
 * Bounded in number and in bytes. A set is taken by size: a leaf's buffer holds a few hundred rows
 * and a high node's thousands, and when any set went to any buffer, every buffer of the open trunk
 * had the largest's capacity (2048 ranks: 2.6 MB each, mostly unused).
 */
const columnPool: ShadowColumns[] = [];
const COLUMN_POOL = 16;
/** Now that sets go by size, 16 MB holds what the next buffers take (48 MB: a higher peak, no faster). */
const POOL_BYTES = 16 << 20;
let pooledBytes = 0;

/** A pooled set up to this many bytes (beyond four times what is asked) is taken for any buffer. */
const SMALL_SET_BYTES = 256 << 10;

/** Bytes of a column set's arrays. */
function bytesOf(c: ShadowColumns): number {
  return c.capacityBytes;
}

/**
 * A column set for a buffer expected to hold about `rows` rows and `arenaNumbers` numbers of
 * weights (what the last buffer at its depth held): the smallest pooled set that holds them, else
 * the largest pooled one (it grows less), else a new one of that size.
 */
export function takeShadowColumns(rows = 0, arenaNumbers = 0): ShadowColumns {
  let best = -1;
  let bestBytes = Infinity;
  let largest = -1;
  let largestBytes = -1;
  for (let i = 0; i < columnPool.length; i++) {
    const c = columnPool[i]!;
    const bytes = bytesOf(c);
    if (c.topology.length >= rows && c.arena.length >= arenaNumbers && bytes < bestBytes) {
      best = i;
      bestBytes = bytes;
    }
    if (bytes > largestBytes) {
      largest = i;
      largestBytes = bytes;
    }
  }
  // A set many times what is asked would be held by a small buffer for its whole life (a wide
  // trace's pool holds full-width sets): a new one instead.
  const most = 4 * (rows * ROW_BYTES + 4 * arenaNumbers) + SMALL_SET_BYTES;
  const i = best >= 0 ? best : largest;
  if (i < 0 || bytesOf(columnPool[i]!) > most) return new ShadowColumns(Math.max(64, rows), arenaNumbers);
  const c = columnPool[i]!;
  columnPool[i] = columnPool[columnPool.length - 1]!;
  columnPool.pop();
  pooledBytes -= bytesOf(c);
  return c;
}

/** Column sets in the pool (tests). */
export function pooledShadowColumns(): number {
  return columnPool.length;
}

export function releaseShadowColumns(c: ShadowColumns): void {
  c.clear();
  const bytes = bytesOf(c);
  if (columnPool.length >= COLUMN_POOL || pooledBytes + bytes > POOL_BYTES) return;
  columnPool.push(c);
  pooledBytes += bytes;
}
