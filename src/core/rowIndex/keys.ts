/**
 * Keys of the row index: one per line ID of the file's Y maps, ordered by (row in the index map,
 * line ID), line IDs the index map lacks last (format.ts). Computed from the SLOG-2 alone, so the
 * reader recomputes them and refuses an index whose keys differ.
 */
import type { LineIDMap } from '../model/types';
import { defaultMapIndex, rowLayoutOf, type RowLayout } from '../query/rows';

export interface KeySpace {
  readonly mapIndex: number;
  /** Line ID of each key. */
  readonly lineIDs: Int32Array;
  readonly keyOfLine: ReadonlyMap<number, number>;
}

export function keySpaceOf(maps: readonly LineIDMap[]): KeySpace {
  const mapIndex = maps.length > 0 ? defaultMapIndex(maps) : 0;
  const rowOf = maps[mapIndex] ? rowLayoutOf(maps[mapIndex]!).rowOfLine : new Map<number, number>();
  const ids = new Set<number>();
  for (const m of maps) for (const r of m.rows) ids.add(r.lineID);
  const rowKey = (id: number): number => rowOf.get(id) ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...ids].sort((a, b) => rowKey(a) - rowKey(b) || a - b);
  const keyOfLine = new Map<number, number>();
  sorted.forEach((id, k) => keyOfLine.set(id, k));
  return { mapIndex, lineIDs: Int32Array.from(sorted), keyOfLine };
}

/** How rows of one Y map translate to keys: usable when the map's rows never decrease with the key. */
export interface MapKeys {
  /** Keys present in the map, ascending, with their rows (non-decreasing when usable). */
  readonly keys: Int32Array;
  readonly rows: Int32Array;
  readonly usable: boolean;
}

export function mapKeysOf(space: KeySpace, layout: RowLayout): MapKeys {
  const keys: number[] = [];
  const rows: number[] = [];
  let usable = true;
  for (let k = 0; k < space.lineIDs.length; k++) {
    const row = layout.rowOfLine.get(space.lineIDs[k]!);
    if (row === undefined) continue;
    if (rows.length > 0 && row < rows[rows.length - 1]!) usable = false;
    keys.push(k);
    rows.push(row);
  }
  // Every line ID of the map must have a key (always true for a map of the same file).
  for (const id of layout.rowOfLine.keys()) if (!space.keyOfLine.has(id)) usable = false;
  return { keys: Int32Array.from(keys), rows: Int32Array.from(rows), usable };
}

/**
 * Keys to read for rows [rowStart, rowEnd): buildWindow keeps states/events on those rows and
 * arrows whose rows satisfy max ≥ rowStart and min < rowEnd — which, for an empty range, are
 * the arrows crossing it. In keys: max ≥ A (first key on a row ≥ rowStart) and min ≤ B (last key
 * on a row < rowEnd); every such arrow touches [min(A, B), max(A, B)]. Undefined when no key can.
 */
export function keyRangeOfRows(m: MapKeys, rowStart: number, rowEnd: number): readonly [number, number] | undefined {
  const first = lowerBound(m.rows, rowStart);
  const last = lowerBound(m.rows, rowEnd) - 1;
  if (first >= m.keys.length || last < 0) return undefined;
  const a = m.keys[first]!;
  const b = m.keys[last]!;
  return [Math.min(a, b), Math.max(a, b)];
}

function lowerBound(a: Int32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
