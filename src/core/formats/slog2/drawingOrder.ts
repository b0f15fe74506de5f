/** The reference's drawing order (SLOG2.md §8), used to sort node lists, shadows and composite members. */
import type { Drawable, Shadow, Vertex } from '../../model/types';

type Ordered = Pick<Drawable | Shadow, 'earliest' | 'latest' | 'category'> &
  ({ vertices: readonly Vertex[] } | { primitives: readonly { vertices: readonly Vertex[] }[] });

function startLine(d: Ordered): number {
  if ('vertices' in d) return d.vertices[0]?.lineID ?? 0;
  return d.primitives[0]?.vertices[0]?.lineID ?? 0;
}

function finalLine(d: Ordered): number {
  if ('vertices' in d) return d.vertices[d.vertices.length - 1]?.lineID ?? 0;
  const last = d.primitives[d.primitives.length - 1];
  return last?.vertices[last.vertices.length - 1]?.lineID ?? 0;
}

/** earliest ↑, latest ↓ (enclosing first), category ↑, start lineID ↑, final lineID ↑. */
export function drawingOrderCompare(a: Ordered, b: Ordered): number {
  return a.earliest - b.earliest || b.latest - a.latest || a.category - b.category || startLine(a) - startLine(b) || finalLine(a) - finalLine(b);
}
