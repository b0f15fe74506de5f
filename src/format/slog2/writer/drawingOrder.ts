/**
 * SLOG-2 drawing order (SLOG2.md §8): earliest ascending, latest descending, category ascending,
 * start-vertex lineID ascending, final-vertex lineID ascending. Node lists, shadow lists and
 * composite members must be written in this order (the reference reader does not re-sort).
 */
import type { Drawable, Vertex } from '../../model/types';

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

/** Reusable key and index arrays (the writer is single-threaded; results are consumed at once). */
let keyEarliest = new Float64Array(1024);
let keyLatest = new Float64Array(1024);
let keyCategory = new Int32Array(1024);
let orderA = new Uint32Array(1024);
let orderB = new Uint32Array(1024);

function ensureScratch(n: number): void {
  if (n <= orderA.length) return;
  let cap = orderA.length;
  while (cap < n) cap *= 2;
  keyEarliest = new Float64Array(cap);
  keyLatest = new Float64Array(cap);
  keyCategory = new Int32Array(cap);
  orderA = new Uint32Array(cap);
  orderB = new Uint32Array(cap);
}

/**
 * The drawing-order permutation of a node list (stable): keys copied once into typed arrays,
 * then a natural merge sort of indices — drawables arrive in end-time order, so long ascending
 * runs are common and the sort is close to linear; O(n log n) at worst. The returned array is
 * scratch space, valid until the next call.
 */
export function drawingOrderIndex(items: readonly Drawable[]): Uint32Array {
  const n = items.length;
  ensureScratch(n);
  const e = keyEarliest;
  const l = keyLatest;
  const c = keyCategory;
  for (let i = 0; i < n; i++) {
    const d = items[i]!;
    e[i] = d.earliest;
    l[i] = d.latest;
    c[i] = d.category;
  }
  // a strictly before b in drawing order (equal in all five keys: not before, which keeps stability).
  const before = (a: number, b: number): boolean => {
    if (e[a] !== e[b]) return e[a]! < e[b]!;
    if (l[a] !== l[b]) return l[a]! > l[b]!;
    if (c[a] !== c[b]) return c[a]! < c[b]!;
    const x = items[a]!;
    const y = items[b]!;
    const s = startVertex(x).lineID - startVertex(y).lineID;
    return s !== 0 ? s < 0 : finalVertex(x).lineID < finalVertex(y).lineID;
  };
  let src = orderA;
  let dst = orderB;
  for (let i = 0; i < n; i++) src[i] = i;
  // Natural merge sort: merge neighbouring ascending runs pairwise until one run remains.
  for (;;) {
    let runs = 0;
    let start = 0;
    while (start < n) {
      let mid = start + 1;
      while (mid < n && !before(src[mid]!, src[mid - 1]!)) mid++;
      let end = mid;
      if (mid < n) {
        end = mid + 1;
        while (end < n && !before(src[end]!, src[end - 1]!)) end++;
      }
      let a = start;
      let b = mid;
      let k = start;
      while (a < mid && b < end) dst[k++] = before(src[b]!, src[a]!) ? src[b++]! : src[a++]!;
      while (a < mid) dst[k++] = src[a++]!;
      while (b < end) dst[k++] = src[b++]!;
      runs++;
      start = end;
    }
    const t = src;
    src = dst;
    dst = t;
    if (runs <= 1) break;
  }
  return src.subarray(0, n);
}
