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

/**
 * The drawing-order permutation of a node list (stable). Keys are copied once into typed arrays
 * (one pass over the drawables), then indices are insertion-sorted — drawables arrive in end-time
 * order, so drawing order differs only around nested or overlapping ones — with a move budget
 * after which the built-in sort takes over. Linear for typical traces.
 */
export function drawingOrderIndex(items: readonly Drawable[]): Uint32Array {
  const n = items.length;
  const e = new Float64Array(n);
  const l = new Float64Array(n);
  const c = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const d = items[i]!;
    e[i] = d.earliest;
    l[i] = d.latest;
    c[i] = d.category;
  }
  const cmp = (a: number, b: number): number => {
    if (e[a] !== e[b]) return e[a]! < e[b]! ? -1 : 1;
    if (l[a] !== l[b]) return l[a]! > l[b]! ? -1 : 1;
    if (c[a] !== c[b]) return c[a]! - c[b]!;
    // Rare full ties of the bounds and category: compare the line IDs.
    const x = items[a]!;
    const y = items[b]!;
    return startVertex(x).lineID - startVertex(y).lineID || finalVertex(x).lineID - finalVertex(y).lineID;
  };
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let budget = 8 * n + 64;
  for (let i = 1; i < n; i++) {
    const item = order[i]!;
    let j = i - 1;
    while (j >= 0 && cmp(order[j]!, item) > 0) {
      order[j + 1] = order[j]!;
      j--;
      if (--budget < 0) {
        order[j + 1] = item;
        order.sort((a, b) => cmp(a, b) || a - b);
        return order;
      }
    }
    order[j + 1] = item;
  }
  return order;
}
