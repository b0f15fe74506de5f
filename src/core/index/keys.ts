/**
 * Keys of the row index: one per line ID of the file's Y maps, ordered by (row in the index map,
 * line ID), line IDs the index map lacks last (format.ts). Computed from the SLOG-2 alone, so the
 * reader recomputes them and refuses an index whose keys differ.
 */
import type { LineIDMap } from '../model/types';

export interface KeySpace {
  readonly mapIndex: number;
  /** Line ID of each key. */
  readonly lineIDs: Int32Array;
  readonly keyOfLine: ReadonlyMap<number, number>;
}

/**
 * The map the keys follow: the one the editor shows first ("Process View" or the thread variant,
 * else the first; the same rule as query/rows.ts defaultMapIndex, which this room may not import).
 */
export function indexMapOf(maps: readonly LineIDMap[]): number {
  const i = maps.findIndex((m) => /^Process/i.test(m.title));
  return i >= 0 ? i : 0;
}

/** Label paths in row order: lexicographic integer order, as query/rows.ts orders rows. */
function comparePaths(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export function keySpaceOf(maps: readonly LineIDMap[]): KeySpace {
  const mapIndex = indexMapOf(maps);
  const pathOf = new Map<number, readonly number[]>();
  for (const r of maps[mapIndex]?.rows ?? []) pathOf.set(r.lineID, r.path);
  const ids = new Set<number>();
  for (const m of maps) for (const r of m.rows) ids.add(r.lineID);
  // Line IDs on the index map in row order (path order), the others after them.
  const order = (x: number, y: number): number => {
    const px = pathOf.get(x);
    const py = pathOf.get(y);
    if (px !== undefined && py !== undefined) return comparePaths(px, py) || x - y;
    if (px !== undefined) return -1;
    if (py !== undefined) return 1;
    return x - y;
  };
  const sorted = sortedByIdWhenSo(pathOf, ids) ?? [...ids].sort(order);
  const keyOfLine = new Map<number, number>();
  sorted.forEach((id, k) => keyOfLine.set(id, k));
  return { mapIndex, lineIDs: Int32Array.from(sorted), keyOfLine };
}

/** Line IDs spread wider than this many per key use the map instead of a table. */
const TABLE_SPREAD = 4;

/**
 * key-of-line-ID as a function, −1 for unknown IDs: a table when the IDs are compact (they are
 * 0…n−1 in MPE traces), since a Map lookup per vertex was a tenth of an index build.
 */
export function keyLookup(space: KeySpace): (lineID: number) => number {
  const ids = space.lineIDs;
  let lo = Infinity;
  let hi = -Infinity;
  for (const id of ids) {
    if (id < lo) lo = id;
    if (id > hi) hi = id;
  }
  if (ids.length === 0 || hi - lo >= TABLE_SPREAD * ids.length + 1024) return (id) => space.keyOfLine.get(id) ?? -1;
  const table = new Int32Array(hi - lo + 1).fill(-1);
  ids.forEach((id, k) => (table[id - lo] = k));
  return (id) => {
    const i = id - lo;
    return i >= 0 && i < table.length ? table[i]! : -1;
  };
}

/**
 * The keys' order without a comparison per pair, when it is simply by line ID: every path on the
 * index map is one number and the paths do not decrease with the line ID (world rank = line ID in
 * MPE traces); then the map's line IDs by ID, the others by ID after them, is keySpaceOf's order
 * (equal paths go by ID there too). Undefined otherwise. The comparator sort looked paths up in a
 * map twice per comparison: a 100 000-rank trace's keys took 40 ms.
 */
function sortedByIdWhenSo(pathOf: ReadonlyMap<number, readonly number[]>, ids: ReadonlySet<number>): number[] | undefined {
  const onMap = new Float64Array(pathOf.size);
  let n = 0;
  for (const [id, path] of pathOf) {
    if (path.length !== 1 || !Number.isInteger(path[0]) || !Number.isInteger(id)) return undefined;
    onMap[n++] = id;
  }
  onMap.sort();
  let last = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = pathOf.get(onMap[i]!)![0]!;
    if (v < last) return undefined;
    last = v;
  }
  const others = new Float64Array(ids.size - n);
  let m = 0;
  for (const id of ids) {
    if (pathOf.has(id)) continue;
    if (!Number.isInteger(id)) return undefined;
    others[m++] = id;
  }
  others.sort();
  const out = new Array<number>(n + m);
  for (let i = 0; i < n; i++) out[i] = onMap[i]!;
  for (let i = 0; i < m; i++) out[n + i] = others[i]!;
  return out;
}
