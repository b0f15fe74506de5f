/**
 * A DrawableBatch's entries (drawableBatch.ts) as node-list entries, the bytes of SLOG2.md §7.2
 * (kind byte, then a primitive's or a composite's body), big-endian, for the writer's node blocks.
 */
import { copyBytes } from '../../../bytes/copyBytes';
import type { DrawableBatch } from './drawableBatch';

/** Writes primitive p's §7.2 body (category, info, vertices) big-endian at `at`; returns the end. */
function encodePrimitive(b: DrawableBatch, p: number, view: DataView, at: number, infoView: DataView): number {
  view.setInt32(at, b.primCategory[p]!);
  const i0 = b.primInfoStart[p]!;
  const i1 = b.primInfoEnd[p]!;
  view.setInt16(at + 4, i1 - i0);
  at = copyBytes(infoView, i0, view, at + 6, i1 - i0);
  const v0 = b.vertexStart[p]!;
  const v1 = b.vertexStart[p + 1]!;
  view.setInt16(at, v1 - v0);
  at += 2;
  const times = b.vertexTime;
  const lines = b.vertexLine;
  for (let v = v0; v < v1; v++) {
    view.setFloat64(at, times[v]!);
    view.setInt32(at + 8, lines[v]!);
    at += 12;
  }
  return at;
}

/**
 * Writes entry i as a node-list entry (§7.2: kind byte + body) at `at`; returns the end. `view`
 * indexes as `out` does, `infoView` as `b.info` does (info bytes are copied a word at a time).
 */
export function encodeEntry(b: DrawableBatch, i: number, view: DataView, out: Uint8Array, at: number, infoView: DataView): number {
  const p0 = b.primitiveStart[i]!;
  if (b.kind[i] === 0) {
    out[at] = 0;
    return encodePrimitive(b, p0, view, at + 1, infoView);
  }
  out[at] = 1;
  view.setInt32(at + 1, b.category[i]!);
  const i0 = b.entryInfoStart[i]!;
  const i1 = b.entryInfoEnd[i]!;
  view.setInt16(at + 5, i1 - i0);
  at = copyBytes(infoView, i0, view, at + 7, i1 - i0);
  const p1 = b.primitiveStart[i + 1]!;
  view.setInt16(at, p1 - p0);
  at += 2;
  for (let p = p0; p < p1; p++) at = encodePrimitive(b, p, view, at, infoView);
  return at;
}
