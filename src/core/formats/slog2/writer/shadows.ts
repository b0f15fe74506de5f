/**
 * Shadow (preview) accumulation exactly as SLOG2.md §12 describes the reference writer: one
 * shadow per (topology, vertex lineIDs) in each open node's subtree, mean vertex times, union
 * bounds, member counts and per-category weights whose ratios are Java floats (every float
 * operation is rounded with Math.fround, in the reference's order, so the bytes match).
 */
import type { Topology } from '../../../model/types';
import { PREVIEW_ARROW, PREVIEW_EVENT, PREVIEW_STATE } from '../../../model/types';
import { compareBounds } from './drawingOrder';
import { MemberColumns, coverGroups, exclusiveDurations, groupByShadow, memberGroups, memberPool, type Grouped } from './shadowMembers';

const f32 = Math.fround;

/** Topology codes of the file format (§4.1). */
export const EVENT = 0;
export const STATE = 1;
export const ARROW = 2;

/** The file-format code of a topology. */
export function topologyNumber(t: Topology): number {
  return t === 'event' ? EVENT : t === 'state' ? STATE : ARROW;
}

export function previewCategory(topology: number): number {
  return topology === EVENT ? PREVIEW_EVENT : topology === STATE ? PREVIEW_STATE : PREVIEW_ARROW;
}

/** Primitives as columns (see DrawableBatch): primitive p's vertices are vertexStart[p] .. vertexStart[p + 1]. */
export interface PrimitiveColumns {
  primTopology: Uint8Array;
  primCategory: Int32Array;
  primEarliest: Float64Array;
  primLatest: Float64Array;
  vertexStart: Uint32Array;
  vertexTime: Float64Array;
  vertexLine: Int32Array;
}

/**
 * A shadow's weights, packed: WEIGHT_STRIDE numbers per category in insertion order (the order a
 * Map of them once iterated in) — category, inclusive ratio, exclusive ratio (Java floats), count.
 * One array of doubles per shadow: a Weight object per category was most of the writer's
 * garbage on wide traces (a shadow per rank and topology in every node, merged upwards).
 */
export type Weights = number[];
export const WEIGHT_STRIDE = 4;
export const W_CATEGORY = 0;
export const W_INCL = 1;
export const W_EXCL = 2;
export const W_COUNT = 3;

/** Offset of `category`'s weight in `weights`, or −1. */
export function weightSlot(weights: Weights, category: number): number {
  for (let i = 0; i < weights.length; i += WEIGHT_STRIDE) if (weights[i] === category) return i;
  return -1;
}

/** Scratch of addExclusiveWeights (single-threaded writer; consumed before the next call): a Map per shadow was a twentieth of a wide conversion's garbage. */
let sumsScratch = new Float64Array(16);
let sumsTouched = new Uint8Array(16);

function weightSums(n: number): Float64Array {
  if (sumsScratch.length < n) {
    sumsScratch = new Float64Array(Math.max(n, sumsScratch.length * 2));
    sumsTouched = new Uint8Array(sumsScratch.length);
  }
  sumsScratch.fill(0, 0, n);
  sumsTouched.fill(0, 0, n);
  return sumsScratch;
}

export class ShadowRecord {
  earliest: number;
  latest: number;
  numRealObjs: number;
  readonly times: number[];
  /** Shared between shadows of a key (never changed). */
  readonly lineIDs: readonly number[];
  /** Set when the node's latest time is fixed (own shadows) or copied from a child shadow. */
  weights: Weights | undefined;
  /** Own real members (their bounds and categories are in the buffer's MemberColumns); 0 once finalized. */
  memberCount = 0;
  /** Position in its buffer's `shadows` (what MemberColumns.shadow refers to). */
  index = -1;
  /** An own state shadow: the child shadows merged into it reduce its members' exclusive time (their bounds: the buffer's covers). */
  collectsChildren = false;

  constructor(
    readonly topology: number,
    readonly key: number | string,
    times: number[],
    lineIDs: readonly number[],
    earliest: number,
    latest: number,
  ) {
    this.times = times;
    this.lineIDs = lineIDs;
    this.earliest = earliest;
    this.latest = latest;
    this.numRealObjs = 0;
  }

  get category(): number {
    return previewCategory(this.topology);
  }

  /** A new shadow of one real primitive (primitive p of `cols`); the caller records the member. */
  static fromPrimitive(key: number | string, cols: PrimitiveColumns, p: number): ShadowRecord {
    const topology = cols.primTopology[p]!;
    const v0 = cols.vertexStart[p]!;
    const n = cols.vertexStart[p + 1]! - v0;
    const times = new Array<number>(n);
    for (let i = 0; i < n; i++) times[i] = cols.vertexTime[v0 + i]!;
    const lines = typeof key === 'number' && key < LINE_INDEX_LIMIT ? sharedLines(key, n, cols.vertexLine[v0]!) : linesOf(cols, v0, n);
    const s = new ShadowRecord(topology, key, times, lines, cols.primEarliest[p]!, cols.primLatest[p]!);
    s.numRealObjs = 1;
    s.memberCount = 1;
    s.collectsChildren = topology === STATE;
    return s;
  }

  /** A copy of a finished child shadow (weights deep-copied, no members). */
  static copyOf(c: ShadowRecord): ShadowRecord {
    const s = new ShadowRecord(c.topology, c.key, c.times.slice(), c.lineIDs, c.earliest, c.latest);
    s.numRealObjs = c.numRealObjs;
    s.weights = c.weights!.slice();
    return s;
  }

  /** Adds real primitive p of `cols` (same key): mean vertex times, union bounds; the caller records the member. */
  addPrimitive(cols: PrimitiveColumns, p: number): void {
    const n = this.numRealObjs;
    const v0 = cols.vertexStart[p]!;
    const vt = cols.vertexTime;
    const times = this.times;
    for (let i = 0; i < times.length; i++) times[i] = (times[i]! * n + vt[v0 + i]!) / (n + 1);
    const e = cols.primEarliest[p]!;
    const l = cols.primLatest[p]!;
    if (e < this.earliest) this.earliest = e;
    if (l > this.latest) this.latest = l;
    this.numRealObjs = n + 1;
    this.memberCount++;
  }

  /** §12.1 merge of a child's finished shadow with the same key. */
  mergeShadow(c: ShadowRecord): void {
    const oldDuration = this.latest - this.earliest;
    const n = this.numRealObjs;
    const m = c.numRealObjs;
    for (let i = 0; i < this.times.length; i++) this.times[i] = (this.times[i]! * n + c.times[i]! * m) / (n + m);
    if (c.earliest < this.earliest) this.earliest = c.earliest;
    if (c.latest > this.latest) this.latest = c.latest;
    const newDuration = this.latest - this.earliest;
    this.numRealObjs = n + m;
    const ws = this.weights!;
    if (oldDuration !== newDuration) {
      const ratio = f32(oldDuration / newDuration);
      for (let i = 0; i < ws.length; i += WEIGHT_STRIDE) {
        ws[i + W_INCL] = f32(ws[i + W_INCL]! * ratio);
        ws[i + W_EXCL] = f32(ws[i + W_EXCL]! * ratio);
      }
    }
    const ratio = f32((c.latest - c.earliest) / newDuration);
    const cw = c.weights!;
    for (let j = 0; j < cw.length; j += WEIGHT_STRIDE) {
      const at = weightSlot(ws, cw[j]!);
      if (at < 0) {
        ws.push(cw[j]!, f32(cw[j + W_INCL]! * ratio), f32(cw[j + W_EXCL]! * ratio), cw[j + W_COUNT]!);
      } else {
        ws[at + W_COUNT] += cw[j + W_COUNT]!;
        ws[at + W_INCL] = f32(ws[at + W_INCL]! + f32(cw[j + W_INCL]! * ratio));
        ws[at + W_EXCL] = f32(ws[at + W_EXCL]! + f32(cw[j + W_EXCL]! * ratio));
      }
    }
  }

  /**
   * §12.2 second half for an own state shadow: the exclusive ratios of its members (its rows of
   * `members`, in insertion order), summed per category in that order, then added once; the
   * merged child shadows' bounds are its rows of `covers` (if the buffer has any).
   */
  addExclusiveWeights(members: Grouped, covers: Grouped, hasCovers: boolean): void {
    const i = this.index;
    const { earliest, latest, category } = members;
    const from = members.starts[i]!;
    const to = members.starts[i + 1]!;
    const exclusion = exclusiveDurations(
      earliest,
      latest,
      category,
      from,
      to,
      covers,
      hasCovers ? covers.starts[i]! : 0,
      hasCovers ? covers.starts[i + 1]! : 0,
    );
    const duration = this.latest - this.earliest;
    // Per weight (every member's category has one, from initializeWeights): a sum and whether a member added to it.
    const ws = this.weights!;
    const n = ws.length / WEIGHT_STRIDE;
    const sums = weightSums(n);
    let at = -1;
    for (let k = from; k < to; k++) {
      const c = category[k]!;
      if (at < 0 || ws[at] !== c) at = weightSlot(ws, c);
      if (at < 0) throw new Error(`internal error: a member's category ${c} has no weight in its shadow`);
      const i = at / WEIGHT_STRIDE;
      sums[i] = f32(sums[i]! + f32(exclusion[k - from]! / duration));
      sumsTouched[i] = 1;
    }
    for (let i = 0; i < n; i++) {
      if (sumsTouched[i] === 0) continue;
      const e = i * WEIGHT_STRIDE + W_EXCL;
      ws[e] = f32(ws[e]! + sums[i]!);
    }
  }

  /** Record size with `nweights` weights (§7.4). */
  byteSize(nweights: number): number {
    return 36 + 12 * this.times.length + 20 * nweights;
  }
}

export function compareShadows(a: ShadowRecord, b: ShadowRecord): number {
  const c = compareBounds(a, b);
  if (c !== 0) return c;
  const s = a.lineIDs[0]! - b.lineIDs[0]!;
  if (s !== 0) return s;
  return a.lineIDs[a.lineIDs.length - 1]! - b.lineIDs[b.lineIDs.length - 1]!;
}

/** Java's CategoryWeight.INCL_RATIO_ORDER on two weights' inclusive ratios (NaN compares as "greater"). */
export function compareInclRatio(a: number, b: number): number {
  const d = f32(a - b);
  return d < 0 ? -1 : d === 0 ? 0 : 1;
}

/** Keys below this index the line array of a NodeShadows (lineIDs < 4096); the rest go to a Map. */
const LINE_INDEX_LIMIT = 1 << 14;

/** Member (or cover) columns from the pool, emptied. */
function takeColumns(): MemberColumns {
  const c = memberPool.pop() ?? new MemberColumns();
  c.count = 0;
  return c;
}

/** Line indexes of released buffers, for new ones (each grows to up to LINE_INDEX_LIMIT slots; a fresh one per node was a tenth of a wide conversion's garbage). */
const byLinePool: (ShadowRecord | undefined)[][] = [];
const BY_LINE_POOL = 16;

/** The lineIDs of the shadows of each key below LINE_INDEX_LIMIT (one line, once or twice), made once. */
const linesOfKey = new Array<readonly number[] | undefined>(LINE_INDEX_LIMIT); // allocated whole: growing it by far indices would make it a dictionary

function sharedLines(key: number, n: number, line: number): readonly number[] {
  return (linesOfKey[key] ??= n === 1 ? [line] : [line, line]);
}

function linesOf(cols: PrimitiveColumns, v0: number, n: number): number[] {
  const lines = new Array<number>(n);
  for (let i = 0; i < n; i++) lines[i] = cols.vertexLine[v0 + i]!;
  return lines;
}

/**
 * Shadow key: topology + the vertex lineIDs. One line (an event, or a state/arrow whose two
 * vertices share it) → lineID·4 + topology, a small index; two lines → a number above the index
 * range; anything else → a string.
 */
export function shadowKey(cols: PrimitiveColumns, p: number): number | string {
  const topology = cols.primTopology[p]!;
  const v0 = cols.vertexStart[p]!;
  const n = cols.vertexStart[p + 1]! - v0;
  const lines = cols.vertexLine;
  const small = LINE_INDEX_LIMIT / 4;
  if (n === 1) {
    const a = lines[v0]!;
    if (topology === EVENT && a >= 0 && a < small) return a * 4;
    if (a >= 0 && a < 0x40000000) return LINE_INDEX_LIMIT + (a * 4 + topology) * 2;
  } else if (n === 2) {
    const a = lines[v0]!;
    const b = lines[v0 + 1]!;
    if (a === b && topology !== EVENT && a >= 0 && a < small) return a * 4 + topology;
    if (a >= 0 && b >= 0 && a < 0x1000000 && b < 0x1000000) return LINE_INDEX_LIMIT + ((a * 0x1000000 + b) * 4 + topology) * 2 + 1;
  }
  let k = `${topology}`;
  for (let i = 0; i < n; i++) k += `,${lines[v0 + i]!}`;
  return k;
}

/**
 * A node's own shadow buffer (§7.4 ShadowBuffer once written into the parent). Shadows of
 * single-line keys (states, events: the bulk) are found by array index, the others by key.
 */
export class NodeShadows {
  earliest = Infinity;
  latest = -Infinity;
  depth = 0;
  xpos = 0;
  fptr = 0;
  size = 0;
  /** Every shadow, in creation order. */
  readonly shadows: ShadowRecord[] = [];
  /** Index: (lineID·4 + topology) → shadow, for keys of one vertex or two on the same line. */
  private byLine: (ShadowRecord | undefined)[] = byLinePool.pop() ?? [];
  private readonly byKey = new Map<number | string, ShadowRecord>();
  /** Own members, from the first add() until finalizeWeights(). */
  private members: MemberColumns | undefined;
  /** Bounds of child shadows merged into own state shadows (per shadow, in merge order; category unused), until finalizeWeights(). */
  private covers: MemberColumns | undefined;

  private find(key: number | string): ShadowRecord | undefined {
    return typeof key === 'number' && key < LINE_INDEX_LIMIT ? this.byLine[key] : this.byKey.get(key);
  }

  private insert(s: ShadowRecord): void {
    s.index = this.shadows.length;
    this.shadows.push(s);
    const key = s.key;
    if (typeof key === 'number' && key < LINE_INDEX_LIMIT) {
      // Grown in one step (a push per missing slot was a sixteenth of a wide conversion).
      if (this.byLine.length <= key) this.byLine.length = Math.min(LINE_INDEX_LIMIT, Math.max(key + 1, this.byLine.length * 2));
      this.byLine[key] = s;
    } else this.byKey.set(key, s);
  }

  /** Adds real primitive p of `cols` to the shadow of its key. */
  add(cols: PrimitiveColumns, p: number): void {
    const key = shadowKey(cols, p);
    let s = this.find(key);
    if (s === undefined) this.insert((s = ShadowRecord.fromPrimitive(key, cols, p)));
    else s.addPrimitive(cols, p);
    const members = (this.members ??= takeColumns());
    members.push(s.index, cols.primEarliest[p]!, cols.primLatest[p]!, cols.primCategory[p]!);
  }

  /**
   * §12.2 first half, once the bounds are final: each own shadow's inclusive ratios and counts per
   * category, its members summed in insertion order (Java float accumulation). Members are visited
   * in insertion order across shadows, which is insertion order within each.
   */
  initializeWeights(): void {
    const members = this.members;
    if (members === undefined) return;
    const shadows = this.shadows;
    const durations = new Float64Array(shadows.length);
    for (const s of shadows) if (s.memberCount !== 0) durations[s.index] = s.latest - s.earliest;
    const shadowOf = members.shadow;
    const earliest = members.earliest;
    const latest = members.latest;
    const category = members.category;
    let last = -1;
    let ws: Weights = [];
    let at = -1;
    for (let k = 0; k < members.count; k++) {
      const si = shadowOf[k]!;
      const c = category[k]!;
      if (at < 0 || si !== last || ws[at] !== c) {
        const s = shadows[si]!;
        if (s.weights === undefined) {
          // Made to size: a push onto [] reserves 16 slots (most shadows keep one or two weights).
          ws = s.weights = [c, 0, 0, 0];
          at = 0;
        } else {
          ws = s.weights;
          at = weightSlot(ws, c);
          if (at < 0) {
            at = ws.length;
            ws.push(c, 0, 0, 0);
          }
        }
        last = si;
      }
      ws[at + W_INCL] = f32(ws[at + W_INCL]! + f32((latest[k]! - earliest[k]!) / durations[si]!));
      ws[at + W_COUNT] = ws[at + W_COUNT]! + 1;
    }
  }

  /**
   * Merges a finished child buffer's shadows into this one. `adopt`: the child is written and
   * dropped, so a shadow of a key new here is taken over instead of copied (the copies were a
   * tenth of a wide conversion's garbage); its records may change afterwards.
   */
  mergeChild(child: NodeShadows, adopt = false): void {
    for (const c of child.shadows) {
      const s = this.find(c.key);
      if (s === undefined) this.insert(adopt ? c : ShadowRecord.copyOf(c));
      else {
        s.mergeShadow(c);
        if (s.collectsChildren) {
          const covers = (this.covers ??= takeColumns());
          covers.push(s.index, c.earliest, c.latest, 0);
        }
      }
    }
    if (child.earliest < this.earliest) this.earliest = child.earliest;
    if (child.latest > this.latest) this.latest = child.latest;
  }

  /** §12.2 second half: exclusive ratios of own state members (nesting and child covers); members released. */
  finalizeWeights(): void {
    const members = this.members;
    const shadows = this.shadows;
    if (members !== undefined) {
      const grouped = groupByShadow(members, shadows.length, memberGroups);
      const covers = this.covers;
      const coverRows = covers === undefined ? coverGroups : groupByShadow(covers, shadows.length, coverGroups);
      for (const s of shadows) if (s.collectsChildren && s.memberCount !== 0) s.addExclusiveWeights(grouped, coverRows, covers !== undefined);
      memberPool.push(members);
      this.members = undefined;
    }
    if (this.covers !== undefined) {
      memberPool.push(this.covers);
      this.covers = undefined;
    }
    for (const s of shadows) {
      s.memberCount = 0;
      s.collectsChildren = false;
    }
  }

  /** This buffer is merged into its parent and dropped: its line index goes back to the pool, emptied. */
  release(): void {
    const index = this.byLine;
    this.byLine = [];
    if (byLinePool.length >= BY_LINE_POOL) return;
    index.fill(undefined);
    byLinePool.push(index);
  }

  byteSize(): number {
    let n = 42;
    for (const s of this.shadows) n += s.byteSize(s.weights ? s.weights.length / WEIGHT_STRIDE : this.distinctMemberCategories(s));
    return n;
  }

  /** Weights an unfinalized shadow will have: one per distinct category among its members. */
  private distinctMemberCategories(s: ShadowRecord): number {
    const seen = new Set<number>();
    const m = this.members;
    if (m) for (let k = 0; k < m.count; k++) if (m.shadow[k] === s.index) seen.add(m.category[k]!);
    return seen.size;
  }
}
