/**
 * SLOG-2 drawing order (SLOG2.md §8): earliest ascending, latest descending, category ascending,
 * start-vertex lineID ascending, final-vertex lineID ascending. Node lists, shadow lists and
 * composite members must be written in this order (the reference reader does not re-sort).
 */
import type { Drawable, Vertex } from '../../../model/types';

/** What the comparison needs; real drawables and shadows both provide it. */
export interface Orderable {
  readonly earliest: number;
  readonly latest: number;
  readonly category: number;
}

export function startVertex(d: Drawable): Vertex {
  return d.kind === 'primitive' ? d.vertices[0]! : d.primitives[0]!.vertices[0]!;
}

export function finalVertex(d: Drawable): Vertex {
  if (d.kind === 'primitive') return d.vertices[d.vertices.length - 1]!;
  const last = d.primitives[d.primitives.length - 1]!;
  return last.vertices[last.vertices.length - 1]!;
}

/** Compares by the first three keys; 0 means "look at the line IDs". */
export function compareBounds(a: Orderable, b: Orderable): number {
  if (a.earliest !== b.earliest) return a.earliest < b.earliest ? -1 : 1;
  if (a.latest !== b.latest) return a.latest > b.latest ? -1 : 1;
  return a.category - b.category;
}

export function compareDrawables(a: Drawable, b: Drawable): number {
  const c = compareBounds(a, b);
  if (c !== 0) return c;
  const s = startVertex(a).lineID - startVertex(b).lineID;
  if (s !== 0) return s;
  return finalVertex(a).lineID - finalVertex(b).lineID;
}

/** Reusable index arrays (the writer is single-threaded; results are consumed at once). */
let order = new Uint32Array(1024);
let bucketStart = new Uint32Array(1025);
/** The bucket of each subset entry, computed once for the count and the placement. */
let bucketOfEntry = new Uint32Array(1024);

/**
 * Insertion in arrival order gives up (then buckets) after PILOT_MOVES per entry over the first
 * PILOT_ENTRIES entries, or ARRIVAL_MOVES per entry in all. Measured on the bench's traces: with
 * 2 ranks, 1–2 moves an entry; with 16 ranks, 8–16; with 2048, more than 16 (a state is out of
 * place by the states of other ranks it spans): the pilot tells them apart for a few hundred moves.
 */
const PILOT_ENTRIES = 256;
const PILOT_MOVES = 2;
const ARRIVAL_MOVES = 3;

/**
 * After this many pilots in a row gave up, the next calls go straight to the buckets, trying a
 * pilot again every PILOT_RETRY calls (a trace's nodes are alike: with 16 ranks a pilot gave up in
 * nearly every node, 50 ms of a 300 MB conversion's 300 ms of ordering; with 2 ranks it rarely does).
 */
const PILOT_MISSES = 4;
const PILOT_RETRY = 16;
let pilotMisses = 0;
let pilotSkips = 0;

function pilotWorthTrying(n: number): boolean {
  if (n < PILOT_ENTRIES || pilotMisses < PILOT_MISSES) return true;
  if (++pilotSkips < PILOT_RETRY) return false;
  pilotSkips = 0;
  return true;
}

function notePilot(n: number, nearly: boolean): void {
  if (nearly) pilotMisses = 0;
  else if (n >= PILOT_ENTRIES) pilotMisses++;
}

/** Buckets holding more than this are sorted with the built-in sort instead of insertion. */
const INSERTION_LIMIT = 48;

/** Drawing-order keys of a node's entries (see NodeDrawables). */
export interface OrderKeys {
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
  readonly category: Int32Array;
  readonly startLine: Int32Array;
  readonly finalLine: Int32Array;
}

/**
 * The entries `subset[0..n)` of a node in drawing order (stable). Entries arrive by end time, so
 * in most nodes arrival order is nearly drawing order (a state is out of place by the states it
 * contains): insertion sort of `subset` as it comes is tried first, and given up when entries
 * move too far (see PILOT_MOVES). Otherwise indices are distributed by
 * earliest time (the primary key) into about n buckets over their time span — a stable counting
 * sort — and each bucket, a handful of entries, is finished by insertion sort on the full key
 * (about three comparisons per drawable on real traces); crowded buckets use the built-in sort.
 * The returned array is scratch space, valid until the next call.
 */
export function drawingOrderOf(keys: OrderKeys, subset: Uint32Array, n: number): Uint32Array {
  if (n >= order.length) {
    let cap = order.length;
    while (cap <= n) cap *= 2;
    order = new Uint32Array(cap);
    bucketStart = new Uint32Array(cap + 1);
    bucketOfEntry = new Uint32Array(cap);
  }
  const e = keys.earliest;
  const l = keys.latest;
  const c = keys.category;
  const sl = keys.startLine;
  const fl = keys.finalLine;
  // a strictly before b in drawing order (equal in all five keys: not before, which keeps stability).
  const before = (a: number, b: number): boolean => {
    if (e[a] !== e[b]) return e[a]! < e[b]!;
    if (l[a] !== l[b]) return l[a]! > l[b]!;
    if (c[a] !== c[b]) return c[a]! < c[b]!;
    if (sl[a] !== sl[b]) return sl[a]! < sl[b]!;
    return fl[a]! < fl[b]!;
  };
  const out = order;
  out.set(subset.subarray(0, n));
  if (pilotWorthTrying(n)) {
    const nearly = sortNearlyOrdered(out, n, before);
    notePilot(n, nearly);
    if (nearly) return out.subarray(0, n);
  }
  const starts = bucketStart;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < n; k++) {
    const t = e[subset[k]!]!;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const buckets = max > min ? n : 1;
  const [scale, unit] = bucketScale(buckets, min, max);
  starts.fill(0, 0, buckets + 1);
  const bucketOf = bucketOfEntry;
  const last = buckets - 1;
  for (let k = 0; k < n; k++) {
    const b = Math.min(last, Math.floor((e[subset[k]!]! - min) * unit * scale));
    bucketOf[k] = b;
    starts[b + 1]!++;
  }
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  // Place in input order (stable); starts[b] advances to the end of bucket b.
  for (let k = 0; k < n; k++) out[starts[bucketOf[k]!]!++] = subset[k]!;
  let from = 0;
  for (let b = 0; b < buckets; b++) {
    const to = starts[b]!;
    const size = to - from;
    if (size > INSERTION_LIMIT) {
      const part = Array.from(out.subarray(from, to));
      part.sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : x - y));
      out.set(part, from);
    } else if (size > 1) {
      for (let i = from + 1; i < to; i++) {
        const item = out[i]!;
        const t = e[item]!;
        let j = i - 1;
        // The first key inline; the others only on a tie (in a bucket most entries differ in it).
        for (; j >= from; j--) {
          const other = out[j]!;
          const u = e[other]!;
          if (t > u || (t === u && !before(item, other))) break;
          out[j + 1] = other;
        }
        out[j + 1] = item;
      }
    }
    from = to;
  }
  return out.subarray(0, n);
}

/**
 * The bucket of time t among `buckets` over [min, max] is floor((t − min) · unit · scale), monotone in
 * t. For most spans unit is 1 and scale buckets / (max − min). Over a span of subnormal times (a
 * crafted file's) buckets / span overflows to ∞, and the first time's bucket was 0 · ∞ = NaN: its
 * entry was never placed and another one was written twice. There the times are first scaled by
 * 2^600 (exact: a power of two), which brings the span into normal range.
 */
export function bucketScale(buckets: number, min: number, max: number): [scale: number, unit: number] {
  if (!(max > min)) return [0, 1];
  const scale = buckets / (max - min);
  if (Number.isFinite(scale)) return [scale, 1];
  const unit = 2 ** 600;
  return [buckets / ((max - min) * unit), unit];
}

/**
 * Insertion sort of `items[0..n)` in place, for items nearly in order (stable: `before` is strict);
 * false (items are then in some other order) once entries have moved more places than the budget
 * allows (PILOT_MOVES).
 */
export function sortNearlyOrdered(items: Uint32Array, n: number, before: (a: number, b: number) => boolean): boolean {
  let budget = PILOT_MOVES * Math.min(n, PILOT_ENTRIES);
  for (let k = 1; k < n; k++) {
    if (k === PILOT_ENTRIES) budget += ARRIVAL_MOVES * n;
    const item = items[k]!;
    let j = k - 1;
    while (j >= 0 && before(item, items[j]!)) {
      if (--budget < 0) return false;
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
  return true;
}
