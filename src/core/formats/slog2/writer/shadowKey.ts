/**
 * What identifies a shadow (SLOG2.md §12): its topology and its vertices' lineIDs, as a key a
 * node buffer finds it by; the topology codes and primitive columns it is computed from.
 */
import type { Topology } from '../../../model/types';
import { PREVIEW_ARROW, PREVIEW_EVENT, PREVIEW_STATE } from '../../../model/types';

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
 * Keys below this index the line array of a NodeShadows (lineIDs < 16 384); the rest go to a Map.
 * With 4096 lines a 16 384-rank trace kept three quarters of its shadows' keys in Maps (tens of
 * thousands of entries a buffer, made and dropped with each): 256 KB an array is less.
 */
export const LINE_INDEX_LIMIT = 1 << 16;

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
