/**
 * Rows of a Y map (SLOG2.md §5): each distinct label path is one timeline row, rows in
 * lexicographic integer order of their paths; several line IDs may share a row. The window query
 * uses `rowOfLine` to put each drawable on its row; the webview shows `labels`.
 */
import type { LineIDMap } from '../model/types';

export interface RowLayout {
  readonly title: string;
  readonly columns: readonly string[];
  /** One label per row, e.g. "3" (Process View) or "1 / 2" (commID / comm_rank). */
  readonly labels: readonly string[];
  readonly rowOfLine: ReadonlyMap<number, number>;
}

function comparePaths(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export function rowLayoutOf(map: LineIDMap): RowLayout {
  return map.rows.every((r) => r.path.length === 1 && Number.isInteger(r.path[0])) ? singleColumnLayout(map) : pathLayout(map);
}

/** rowLayoutOf for any paths (exported for the tests that compare it with singleColumnLayout). */
export function pathLayout(map: LineIDMap): RowLayout {
  // One key string per timeline (at 16 384 ranks three joins per row were a third of the open).
  const keys = map.rows.map((r) => r.path.join(','));
  const byPath = new Map<string, { readonly path: readonly number[]; row: number }>();
  map.rows.forEach((r, i) => {
    if (!byPath.has(keys[i]!)) byPath.set(keys[i]!, { path: r.path, row: 0 });
  });
  const distinct = [...byPath.values()].sort((a, b) => comparePaths(a.path, b.path));
  distinct.forEach((d, row) => (d.row = row));
  const rowOfLine = new Map<number, number>();
  map.rows.forEach((r, i) => rowOfLine.set(r.lineID, byPath.get(keys[i]!)!.row));
  return { title: map.title, columns: map.columns, labels: distinct.map((d) => d.path.join(' / ')), rowOfLine };
}

/**
 * rowLayoutOf for paths of one number (a Process View: the world rank), the same layout without a
 * key string, an object and a map entry per timeline: one native sort of the values (a 100 000-rank
 * trace's layout took 90 ms the general way).
 */
function singleColumnLayout(map: LineIDMap): RowLayout {
  const n = map.rows.length;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = map.rows[i]!.path[0]!;
  const distinct = values.slice().sort();
  let count = 0;
  for (let i = 0; i < n; i++) if (count === 0 || distinct[i] !== distinct[count - 1]) distinct[count++] = distinct[i]!;
  const rowOfLine = new Map<number, number>();
  for (let i = 0; i < n; i++) rowOfLine.set(map.rows[i]!.lineID, rowOfValue(distinct, count, values[i]!));
  const labels: string[] = new Array<string>(count);
  for (let row = 0; row < count; row++) labels[row] = String(distinct[row]);
  return { title: map.title, columns: map.columns, labels, rowOfLine };
}

/** The index of `v` among the first `count` (ascending, distinct) values. */
function rowOfValue(sorted: Float64Array, count: number, v: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The map to show first: "Process View" (or the thread variant) when present, else the first. */
export function defaultMapIndex(maps: readonly LineIDMap[]): number {
  const i = maps.findIndex((m) => /^Process/i.test(m.title));
  return i >= 0 ? i : 0;
}

/** The line IDs of `rows` (in their order; all line IDs of a row), for bookmarks and view links. */
export function linesOfRows(layout: RowLayout, rows: readonly number[]): number[] {
  const byRow = new Map<number, number[]>();
  for (const [line, row] of layout.rowOfLine) {
    const list = byRow.get(row);
    if (list) list.push(line);
    else byRow.set(row, [line]);
  }
  return rows.flatMap((r) => (byRow.get(r) ?? []).sort((a, b) => a - b));
}

/** The rows of `lines` in order of first appearance (unknown line IDs are skipped). */
export function rowsOfLines(layout: RowLayout, lines: readonly number[]): number[] {
  const seen = new Set<number>();
  const rows: number[] = [];
  for (const line of lines) {
    const r = layout.rowOfLine.get(line);
    if (r === undefined || seen.has(r)) continue;
    seen.add(r);
    rows.push(r);
  }
  return rows;
}
