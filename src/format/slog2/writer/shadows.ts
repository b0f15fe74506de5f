/**
 * Shadow (preview) accumulation exactly as SLOG2.md §12 describes the reference writer: one
 * shadow per (topology, vertex lineIDs) in each open node's subtree, mean vertex times, union
 * bounds, member counts and per-category weights whose ratios are Java floats (every float
 * operation is rounded with Math.fround, in the reference's order, so the bytes match).
 */
import type { Primitive } from '../../model/types';
import { PREVIEW_ARROW, PREVIEW_EVENT, PREVIEW_STATE } from '../../model/types';
import { compareBounds } from './drawingOrder';

const f32 = Math.fround;

/** Topology codes of the file format (§4.1). */
export const EVENT = 0;
export const STATE = 1;
export const ARROW = 2;

export function previewCategory(topology: number): number {
  return topology === EVENT ? PREVIEW_EVENT : topology === STATE ? PREVIEW_STATE : PREVIEW_ARROW;
}

export interface Weight {
  readonly category: number;
  incl: number;
  excl: number;
  count: number;
}

export class Shadow {
  earliest: number;
  latest: number;
  numRealObjs: number;
  readonly times: number[];
  readonly lineIDs: readonly number[];
  /** Set when the node's latest time is fixed (own shadows) or copied from a child shadow. */
  weights: Map<number, Weight> | undefined;
  /** Own real members in insertion order, and their positions per category (own shadows only). */
  members: Primitive[] | undefined;
  memberPositions: Map<number, number[]> | undefined;
  /** Child shadows merged into an own state shadow: their time covers reduce exclusive time. */
  childShadows: Shadow[] | undefined;
  /** memberPositions list of the last category added (members mostly repeat one category). */
  private lastCategory = NaN;
  private lastPositions: number[] | undefined;

  constructor(
    readonly topology: number,
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

  static fromPrimitive(topology: number, p: Primitive): Shadow {
    const n = p.vertices.length;
    const times = new Array<number>(n);
    const lines = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      times[i] = p.vertices[i]!.time;
      lines[i] = p.vertices[i]!.lineID;
    }
    const s = new Shadow(topology, times, lines, p.earliest, p.latest);
    s.numRealObjs = 1;
    s.members = [p];
    s.memberPositions = new Map([[p.category, [0]]]);
    if (topology === STATE) s.childShadows = [];
    return s;
  }

  /** A copy of a finished child shadow (weights deep-copied, no members). */
  static copyOf(c: Shadow): Shadow {
    const s = new Shadow(c.topology, c.times.slice(), c.lineIDs, c.earliest, c.latest);
    s.numRealObjs = c.numRealObjs;
    s.weights = new Map();
    for (const [k, w] of c.weights!) s.weights.set(k, { category: w.category, incl: w.incl, excl: w.excl, count: w.count });
    return s;
  }

  addPrimitive(p: Primitive): void {
    const n = this.numRealObjs;
    const vs = p.vertices;
    for (let i = 0; i < this.times.length; i++) this.times[i] = (this.times[i]! * n + vs[i]!.time) / (n + 1);
    if (p.earliest < this.earliest) this.earliest = p.earliest;
    if (p.latest > this.latest) this.latest = p.latest;
    this.numRealObjs = n + 1;
    const pos = this.members!.length;
    this.members!.push(p);
    if (p.category === this.lastCategory) {
      this.lastPositions!.push(pos);
      return;
    }
    let list = this.memberPositions!.get(p.category);
    if (list) list.push(pos);
    else this.memberPositions!.set(p.category, (list = [pos]));
    this.lastCategory = p.category;
    this.lastPositions = list;
  }

  /** §12.2 first half: inclusive ratios and counts of the own members, once the bounds are final. */
  initializeWeights(): void {
    if (!this.memberPositions) return;
    const weights = this.weights ?? new Map<number, Weight>();
    const duration = this.latest - this.earliest;
    const members = this.members!;
    for (const [category, positions] of this.memberPositions) {
      let incl = 0;
      for (const pos of positions) {
        const m = members[pos]!;
        incl = f32(incl + f32((m.latest - m.earliest) / duration));
      }
      weights.set(category, { category, incl, excl: 0, count: positions.length });
    }
    this.weights = weights;
  }

  /** §12.1 merge of a child's finished shadow with the same key. */
  mergeShadow(c: Shadow): void {
    const oldDuration = this.latest - this.earliest;
    const n = this.numRealObjs;
    const m = c.numRealObjs;
    for (let i = 0; i < this.times.length; i++) this.times[i] = (this.times[i]! * n + c.times[i]! * m) / (n + m);
    if (c.earliest < this.earliest) this.earliest = c.earliest;
    if (c.latest > this.latest) this.latest = c.latest;
    const newDuration = this.latest - this.earliest;
    this.numRealObjs = n + m;
    const weights = this.weights!;
    if (oldDuration !== newDuration) {
      const ratio = f32(oldDuration / newDuration);
      for (const w of weights.values()) {
        w.incl = f32(w.incl * ratio);
        w.excl = f32(w.excl * ratio);
      }
    }
    const ratio = f32((c.latest - c.earliest) / newDuration);
    for (const cw of c.weights!.values()) {
      const w = weights.get(cw.category);
      if (w === undefined) {
        weights.set(cw.category, { category: cw.category, incl: f32(cw.incl * ratio), excl: f32(cw.excl * ratio), count: cw.count });
      } else {
        w.count += cw.count;
        w.incl = f32(w.incl + f32(cw.incl * ratio));
        w.excl = f32(w.excl + f32(cw.excl * ratio));
      }
    }
    if (this.childShadows) this.childShadows.push(c);
  }

  /** §12.2 second half: exclusive ratios of own state members (nesting and child covers), then drop members. */
  finalizeWeights(): void {
    if (this.childShadows && this.members) {
      const exclusion = this.exclusiveDurations();
      const duration = this.latest - this.earliest;
      for (const [category, positions] of this.memberPositions!) {
        let excl = 0;
        for (const pos of positions) excl = f32(excl + f32(exclusion[pos]! / duration));
        const w = this.weights!.get(category)!;
        w.excl = f32(w.excl + excl);
      }
    }
    this.members = undefined;
    this.memberPositions = undefined;
    this.childShadows = undefined;
    this.lastPositions = undefined;
  }

  /**
   * Exclusive duration of each own member: its duration minus its overlap with every merged child
   * shadow, minus the exclusive durations of the states directly nested in it. Members equal in
   * drawing order count once (the reference keeps them in a sorted set); the others keep 0.
   */
  private exclusiveDurations(): Float64Array {
    const members = this.members!;
    const children = this.childShadows!;
    const n = members.length;
    const exclusion = new Float64Array(n);
    // Members share this shadow's lineIDs, so drawing order reduces to earliest ↑, latest ↓, category ↑.
    const earliest = new Float64Array(n);
    const latest = new Float64Array(n);
    const category = new Int32Array(n);
    let sorted = true;
    for (let i = 0; i < n; i++) {
      const m = members[i]!;
      earliest[i] = m.earliest;
      latest[i] = m.latest;
      category[i] = m.category;
      if (i > 0 && sorted && compareMembers(earliest, latest, category, i - 1, i) > 0) sorted = false;
    }
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    if (!sorted) sortMembers(order, earliest, latest, category);
    const stack = new Uint32Array(n);
    let depth = 0;
    let previous = -1;
    for (let k = 0; k < n; k++) {
      const idx = order[k]!;
      if (previous >= 0 && compareMembers(earliest, latest, category, previous, idx) === 0) continue;
      previous = idx;
      const e = earliest[idx]!;
      const l = latest[idx]!;
      let ex = l - e;
      for (let c = children.length - 1; c >= 0; c--) {
        const child = children[c]!;
        if (!(e > child.latest || child.earliest > l)) ex -= Math.min(l, child.latest) - Math.max(e, child.earliest);
      }
      exclusion[idx] = ex;
      while (depth > 0) {
        const top = stack[depth - 1]!;
        if (earliest[top]! <= e && l <= latest[top]!) {
          exclusion[top] -= ex;
          break;
        }
        depth--;
      }
      stack[depth++] = idx;
    }
    return exclusion;
  }

  byteSize(): number {
    const nweights = this.weights ? this.weights.size : this.memberPositions!.size;
    return 36 + 12 * this.times.length + 20 * nweights;
  }
}

/** Stable sort of member indices: insertion sort (members arrive nearly in order), built-in sort past a move budget. */
function sortMembers(order: Uint32Array, earliest: Float64Array, latest: Float64Array, category: Int32Array): void {
  const n = order.length;
  let budget = 8 * n + 64;
  for (let i = 1; i < n; i++) {
    const item = order[i]!;
    let j = i - 1;
    while (j >= 0 && compareMembers(earliest, latest, category, order[j]!, item) > 0) {
      order[j + 1] = order[j]!;
      j--;
      if (--budget < 0) {
        order[j + 1] = item;
        order.sort((a, b) => compareMembers(earliest, latest, category, a, b) || a - b);
        return;
      }
    }
    order[j + 1] = item;
  }
}

function compareMembers(earliest: Float64Array, latest: Float64Array, category: Int32Array, a: number, b: number): number {
  const ea = earliest[a]!;
  const eb = earliest[b]!;
  if (ea !== eb) return ea < eb ? -1 : 1;
  const la = latest[a]!;
  const lb = latest[b]!;
  if (la !== lb) return la > lb ? -1 : 1;
  return category[a]! - category[b]!;
}

export function compareShadows(a: Shadow, b: Shadow): number {
  const c = compareBounds(a, b);
  if (c !== 0) return c;
  const s = a.lineIDs[0]! - b.lineIDs[0]!;
  if (s !== 0) return s;
  return a.lineIDs[a.lineIDs.length - 1]! - b.lineIDs[b.lineIDs.length - 1]!;
}

/** Java's CategoryWeight.INCL_RATIO_ORDER (NaN compares as "greater"). */
export function compareInclRatio(a: Weight, b: Weight): number {
  const d = f32(a.incl - b.incl);
  return d < 0 ? -1 : d === 0 ? 0 : 1;
}

/** Shadow key: topology + the vertex lineIDs; numeric for the common small-lineID cases. */
export function shadowKey(topology: number, p: Primitive): number | string {
  const vs = p.vertices;
  if (vs.length === 1) {
    const a = vs[0]!.lineID;
    if (a >= 0 && a < 0x40000000) return (a * 4 + topology) * 2;
  } else if (vs.length === 2) {
    const a = vs[0]!.lineID;
    const b = vs[1]!.lineID;
    if (a >= 0 && b >= 0 && a < 0x1000000 && b < 0x1000000) return ((a * 0x1000000 + b) * 4 + topology) * 2 + 1;
  }
  let k = `${topology}`;
  for (const v of vs) k += `,${v.lineID}`;
  return k;
}

/** A node's own shadow buffer (§7.4 ShadowBuffer once written into the parent). */
export class ShadowBuffer {
  earliest = Infinity;
  latest = -Infinity;
  depth = 0;
  xpos = 0;
  fptr = 0;
  size = 0;
  readonly shadows = new Map<number | string, Shadow>();

  add(topology: number, p: Primitive): void {
    const key = shadowKey(topology, p);
    const s = this.shadows.get(key);
    if (s === undefined) this.shadows.set(key, Shadow.fromPrimitive(topology, p));
    else s.addPrimitive(p);
  }

  initializeWeights(): void {
    for (const s of this.shadows.values()) s.initializeWeights();
  }

  mergeChild(child: ShadowBuffer): void {
    for (const [key, c] of child.shadows) {
      const s = this.shadows.get(key);
      if (s === undefined) this.shadows.set(key, Shadow.copyOf(c));
      else s.mergeShadow(c);
    }
    if (child.earliest < this.earliest) this.earliest = child.earliest;
    if (child.latest > this.latest) this.latest = child.latest;
  }

  finalizeWeights(): void {
    for (const s of this.shadows.values()) s.finalizeWeights();
  }

  byteSize(): number {
    let n = 42;
    for (const s of this.shadows.values()) n += s.byteSize();
    return n;
  }
}
