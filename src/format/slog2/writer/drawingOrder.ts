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
 * Stable in-place sort for lists that arrive nearly in order (drawables come in end-time order,
 * so drawing order differs only around nested or overlapping ones): insertion sort while the
 * number of moves stays below a budget, else the built-in sort. Linear for typical traces.
 */
export function sortNearlySorted<T>(items: T[], compare: (a: T, b: T) => number): void {
  const n = items.length;
  let budget = 8 * n + 64;
  for (let i = 1; i < n; i++) {
    const item = items[i]!;
    let j = i - 1;
    if (compare(items[j]!, item) <= 0) continue;
    while (j >= 0 && compare(items[j]!, item) > 0) {
      items[j + 1] = items[j]!;
      j--;
      if (--budget < 0) {
        items[j + 1] = item;
        items.sort(compare);
        return;
      }
    }
    items[j + 1] = item;
  }
}
