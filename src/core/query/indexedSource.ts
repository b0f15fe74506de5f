/**
 * Window queries through the row index: a WindowSource for buildWindow that yields, node by node
 * in the plain query's order, only the drawables of the asked key ranges (plus, at most, the
 * others sharing their key blocks, which buildWindow drops as it drops every off-row drawable).
 * Same drawables, same order as Slog2File.query restricted to the rows.
 */
import type { Slog2File, NodeSlice } from '../formats/slog2/slog2File';
import type { Category, Shadow } from '../model/types';
import { emptyStats, type ReadStats, type RowIndex } from '../index/rowIndex';
import type { KeySpace } from '../index/keys';
import type { SliceLike, WindowSource } from './buildWindow';
import type { RowLayout } from './rows';

function overlaps(a: { earliest: number; latest: number }, t0: number, t1: number): boolean {
  return a.earliest <= t1 && t0 <= a.latest;
}

export class IndexedWindowSource implements WindowSource {
  readonly stats: ReadStats = emptyStats();

  constructor(
    private readonly index: RowIndex,
    private readonly keyRanges: readonly (readonly [number, number])[],
  ) {}

  get categories(): ReadonlyMap<number, Category> {
    return this.index.slog.categories;
  }

  get nodesRead(): number {
    return this.stats.nodesRead;
  }

  async *query(t0: number, t1: number, options: { lowestDepth?: number; signal?: AbortSignal } = {}): AsyncGenerator<NodeSlice & SliceLike> {
    const file: Slog2File = this.index.slog;
    const lowest = Math.max(0, Math.min(file.maxDepth, Math.floor(options.lowestDepth ?? 0)));
    const order: number[] = [];
    const shadowsOf = new Set<number>();
    for (let depth = file.maxDepth; depth >= lowest; depth--) {
      for (const info of file.nodesOverlapping(depth, t0, t1)) {
        const o = this.index.ordinalOf(info);
        order.push(o);
        if (depth === lowest && lowest > 0) shadowsOf.add(o);
      }
    }
    if (this.keyRanges.length === 0) return;
    const items = await this.index.readNodes(order, this.keyRanges, shadowsOf, this.stats, options.signal);
    for (const o of order) {
      const info = this.index.node(o);
      const got = items.get(o)!;
      const shadows: Shadow[] = shadowsOf.has(o) ? got.shadows.filter((s) => overlaps(s, t0, t1)) : [];
      yield {
        depth: info.depth,
        xpos: info.xpos,
        earliest: info.earliest,
        latest: info.latest,
        drawables: got.drawables.filter((d) => overlaps(d, t0, t1)),
        shadows,
      };
    }
  }
}

/** How rows of one Y map translate to keys: usable when the map's rows never decrease with the key. */
export interface MapKeys {
  /** Keys present in the map, ascending, with their rows (non-decreasing when usable). */
  readonly keys: Int32Array;
  readonly rows: Int32Array;
  readonly usable: boolean;
}

export function mapKeysOf(space: KeySpace, layout: RowLayout): MapKeys {
  // Filled in place (arrays grown by push, then copied, for 100 000 keys were most of this)
  const keys = new Int32Array(space.lineIDs.length);
  const rows = new Int32Array(space.lineIDs.length);
  let n = 0;
  let usable = true;
  for (let k = 0; k < space.lineIDs.length; k++) {
    const row = layout.rowOfLine.get(space.lineIDs[k]!);
    if (row === undefined) continue;
    if (n > 0 && row < rows[n - 1]!) usable = false;
    keys[n] = k;
    rows[n++] = row;
  }
  // Every line ID of the map must have a key (always true for a map of the same file).
  for (const id of layout.rowOfLine.keys()) if (!space.keyOfLine.has(id)) usable = false;
  return { keys: keys.slice(0, n), rows: rows.slice(0, n), usable };
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

/** Caches, per Y map, how its rows translate to keys. */
export class RowKeyMapper {
  private readonly maps = new Map<number, MapKeys>();
  constructor(private readonly index: RowIndex) {}

  /** Key ranges for rows [rowStart, rowEnd) of a map, or undefined when the index cannot serve that map. */
  keyRanges(layout: RowLayout, mapIndex: number, rowStart: number, rowEnd: number): (readonly [number, number])[] | undefined {
    let m = this.maps.get(mapIndex);
    if (m === undefined) this.maps.set(mapIndex, (m = mapKeysOf(this.index.keys, layout)));
    if (!m.usable) return undefined;
    const r = keyRangeOfRows(m, rowStart, rowEnd);
    return r === undefined ? [] : [r];
  }

  /** Key ranges of a set of row ranges (merged), or undefined when unusable. */
  keyRangesOfRows(layout: RowLayout, mapIndex: number, rows: readonly (readonly [number, number])[]): (readonly [number, number])[] | undefined {
    const out: (readonly [number, number])[] = [];
    for (const [a, b] of rows) {
      const r = this.keyRanges(layout, mapIndex, a, b);
      if (r === undefined) return undefined;
      for (const x of r) out.push(x); // no spread: data-sized
    }
    return out;
  }
}
