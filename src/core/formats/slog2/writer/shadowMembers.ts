/**
 * The own real members of a node's shadows, as reused columns off the JS heap, and the exclusive
 * durations the weights need (SLOG2.md §12): the writer's per-node scratch, so it allocates
 * nothing per drawable. Single-threaded: each scratch is consumed before the next call.
 */
import { bucketScale, sortNearlyOrdered } from './drawingOrder';

/**
 * Exclusive duration of each member (earliest/latest/category[from..to), insertion order; entry
 * k − from of the result): its duration minus its overlap with every merged child shadow, minus
 * the exclusive durations of the states directly nested in it. The covers: the bounds of the
 * child shadows merged into this shadow (rows coverFrom..coverTo of `covers`, in merge order). Members equal in drawing order
 * count once (the reference keeps them in a sorted set); the others keep 0.
 */
export function exclusiveDurations(
  earliest: Float64Array,
  latest: Float64Array,
  category: Int32Array,
  from: number,
  to: number,
  covers: Grouped,
  coverFrom: number,
  coverTo: number,
): Float64Array {
  const n = to - from;
  ensureMemberScratch(n);
  const exclusion = scratchExclusion;
  exclusion.fill(0, 0, n);
  // Members share this shadow's lineIDs, so drawing order reduces to earliest ↑, latest ↓, category ↑.
  let sorted = true;
  for (let i = from + 1; i < to && sorted; i++) if (compareMembers(earliest, latest, category, i - 1, i) > 0) sorted = false;
  const order = scratchOrder;
  if (sorted) for (let i = 0; i < n; i++) order[i] = from + i;
  else sortMembers(order, from, n, earliest, latest, category);
  const stack = scratchStack;
  let depth = 0;
  let previous = -1;
  for (let k = 0; k < n; k++) {
    const idx = order[k]!;
    if (previous >= 0 && compareMembers(earliest, latest, category, previous, idx) === 0) continue;
    previous = idx;
    const e = earliest[idx]!;
    const l = latest[idx]!;
    let ex = l - e;
    const ce = covers.earliest;
    const cl = covers.latest;
    for (let c = coverTo - 1; c >= coverFrom; c--) {
      const childEarliest = ce[c]!;
      const childLatest = cl[c]!;
      if (!(e > childLatest || childEarliest > l)) ex -= Math.min(l, childLatest) - Math.max(e, childEarliest);
    }
    exclusion[idx - from] = ex;
    while (depth > 0) {
      const top = stack[depth - 1]!;
      if (earliest[top]! <= e && l <= latest[top]!) {
        exclusion[top - from] -= ex;
        break;
      }
      depth--;
    }
    stack[depth++] = idx;
  }
  return exclusion;
}

/**
 * The own real members of one node's shadows, in insertion order, as columns: bounds and category
 * (all the weights need) and the shadow each belongs to. Off the JS heap and reused from node to
 * node, so the writer allocates nothing per drawable.
 */
export class MemberColumns {
  count = 0;
  shadow = new Int32Array(4096);
  earliest = new Float64Array(4096);
  latest = new Float64Array(4096);
  category = new Int32Array(4096);

  push(shadow: number, earliest: number, latest: number, category: number): void {
    const i = this.count;
    if (i === this.shadow.length) this.grow();
    this.shadow[i] = shadow;
    this.earliest[i] = earliest;
    this.latest[i] = latest;
    this.category[i] = category;
    this.count = i + 1;
  }

  private grow(): void {
    const n = this.shadow.length * 2;
    const s = new Int32Array(n);
    s.set(this.shadow);
    this.shadow = s;
    const e = new Float64Array(n);
    e.set(this.earliest);
    this.earliest = e;
    const l = new Float64Array(n);
    l.set(this.latest);
    this.latest = l;
    const c = new Int32Array(n);
    c.set(this.category);
    this.category = c;
  }
}

/** Columns of a MemberColumns grouped by shadow: rows starts[i]..starts[i + 1] are shadow i's, in insertion order. */
export interface Grouped {
  earliest: Float64Array;
  latest: Float64Array;
  category: Int32Array;
  starts: Uint32Array;
  fill: Uint32Array;
  /** The columns grouped last, their row count and the shadows then (exclusiveWeights reuses inclusiveWeights' grouping). */
  source?: MemberColumns | undefined;
  sourceCount?: number;
  sourceShadows?: number;
}

/** Scratch for grouping (the writer is single-threaded; each is used at once): a buffer's members, and its child covers. */
export const memberGroups = newGrouped();
export const coverGroups = newGrouped();

function newGrouped(): Grouped {
  return {
    earliest: new Float64Array(4096),
    latest: new Float64Array(4096),
    category: new Int32Array(4096),
    starts: new Uint32Array(257),
    fill: new Uint32Array(256),
    source: undefined,
    sourceCount: 0,
    sourceShadows: 0,
  };
}

/** Rows of `cols` grouped by their shadow (of `shadows`) into `g`, insertion order kept: a stable counting sort. */
export function groupByShadow(cols: MemberColumns, shadows: number, g: Grouped): Grouped {
  const n = cols.count;
  if (g.earliest.length < n) {
    let cap = g.earliest.length;
    while (cap < n) cap *= 2;
    g.earliest = new Float64Array(cap);
    g.latest = new Float64Array(cap);
    g.category = new Int32Array(cap);
  }
  if (g.fill.length < shadows) {
    let cap = g.fill.length;
    while (cap < shadows) cap *= 2;
    g.starts = new Uint32Array(cap + 1);
    g.fill = new Uint32Array(cap);
  }
  const { starts, fill, earliest: e, latest: l, category: c } = g;
  starts.fill(0, 0, shadows + 1);
  for (let k = 0; k < n; k++) starts[cols.shadow[k]! + 1]!++;
  for (let i = 0; i < shadows; i++) starts[i + 1]! += starts[i]!;
  fill.set(starts.subarray(0, shadows));
  for (let k = 0; k < n; k++) {
    const at = fill[cols.shadow[k]!]!++;
    e[at] = cols.earliest[k]!;
    l[at] = cols.latest[k]!;
    c[at] = cols.category[k]!;
  }
  g.source = cols;
  g.sourceCount = n;
  g.sourceShadows = shadows;
  return g;
}

/** Released member columns (one per open node is in use at a time). */
export const memberPool: MemberColumns[] = [];

/** Reusable arrays for exclusiveDurations (single-threaded writer; consumed before the next call). */
let scratchExclusion = new Float64Array(1024);
let scratchOrder = new Uint32Array(1024);
let scratchStack = new Uint32Array(1024);

function ensureMemberScratch(n: number): void {
  if (n <= scratchOrder.length) return;
  let cap = scratchOrder.length;
  while (cap < n) cap *= 2;
  scratchExclusion = new Float64Array(cap);
  scratchOrder = new Uint32Array(cap);
  scratchStack = new Uint32Array(cap);
}

let scratchBuckets = new Uint32Array(1025);

/**
 * Stable sort of member indices base..base+n−1 into `order[0..n)`: insertion in arrival order
 * while they are nearly in order (sortNearlyOrdered), else counting sort into ~n buckets by
 * earliest time, then insertion sort inside each bucket on the full key; crowded buckets use the
 * built-in sort. Same scheme as drawingOrderOf.
 */
function sortMembers(order: Uint32Array, base: number, n: number, earliest: Float64Array, latest: Float64Array, category: Int32Array): void {
  // one row's members arrive by end time: out of order only by the states nested in them
  for (let i = 0; i < n; i++) order[i] = base + i;
  if (sortNearlyOrdered(order, n, (a, b) => compareMembers(earliest, latest, category, a, b) < 0)) return;
  let min = Infinity;
  let max = -Infinity;
  for (let i = base; i < base + n; i++) {
    const t = earliest[i]!;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const buckets = max > min ? n : 1;
  const [scale, unit] = bucketScale(buckets, min, max);
  if (scratchBuckets.length < buckets + 1) scratchBuckets = new Uint32Array(Math.max(buckets + 1, scratchBuckets.length * 2));
  const starts = scratchBuckets;
  starts.fill(0, 0, buckets + 1);
  for (let i = base; i < base + n; i++) starts[Math.min(buckets - 1, Math.floor((earliest[i]! - min) * unit * scale)) + 1]!++;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  for (let i = base; i < base + n; i++) order[starts[Math.min(buckets - 1, Math.floor((earliest[i]! - min) * unit * scale))]!++] = i;
  let from = 0;
  for (let b = 0; b < buckets; b++) {
    const to = starts[b]!;
    if (to - from > 48) {
      const part = Array.from(order.subarray(from, to));
      part.sort((x, y) => compareMembers(earliest, latest, category, x, y) || x - y);
      order.set(part, from);
    } else {
      for (let k = from + 1; k < to; k++) {
        const item = order[k]!;
        let j = k - 1;
        while (j >= from && compareMembers(earliest, latest, category, order[j]!, item) > 0) {
          order[j + 1] = order[j]!;
          j--;
        }
        order[j + 1] = item;
      }
    }
    from = to;
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
