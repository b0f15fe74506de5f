/**
 * Which rows of a Y map are shown, and in which order (the row half of Jumpshot's ViewMap): a
 * list of row indices, top to bottom. Pure: the controller keeps one and persists it in the view
 * state (`rows`), bookmarks and view links. Rank lists ("0-15,64,128-") select rows by their label
 * when every label of the map is an integer (Process View: the rank), else by row index.
 */

export type RankSpec = readonly (readonly [number, number])[];

export class RankListError extends Error {}

const MAX_SPEC_CHARS = 10_000;

/**
 * Parses "0-15,64,128-" (also "-7", spaces, ";" or whitespace as separators) into inclusive
 * ranges; an open end is Infinity. Throws RankListError naming the bad part.
 */
export function parseRankList(text: string): RankSpec {
  if (text.length > MAX_SPEC_CHARS) throw new RankListError(`rank list too long (${text.length} characters)`);
  const out: [number, number][] = [];
  for (const raw of text.split(/[,;\s]+/)) {
    const part = raw.trim();
    if (part === '') continue;
    const m = /^(\d*)\s*(?:(-|\.\.|–)\s*(\d*))?$/.exec(part);
    if (!m || (m[1] === '' && (m[2] === undefined || m[3] === '')))
      throw new RankListError(`"${part.slice(0, 20)}" is not a rank or range (e.g. 0-15,64,128-)`);
    const a = m[1] === '' ? 0 : Number(m[1]);
    const b = m[2] === undefined ? a : m[3] === '' ? Infinity : Number(m[3]);
    if (!Number.isSafeInteger(a) || (b !== Infinity && !Number.isSafeInteger(b))) throw new RankListError(`"${part.slice(0, 20)}": number too large`);
    if (b < a) throw new RankListError(`"${part}": the range ends before it starts`);
    out.push([a, b]);
  }
  if (out.length === 0) throw new RankListError('empty rank list');
  return out;
}

function inSpec(spec: RankSpec, n: number): boolean {
  for (const [a, b] of spec) if (n >= a && n <= b) return true;
  return false;
}

/** The rank-like number of each row: its label when all labels are integers, else its index. */
export function rowNumbers(labels: readonly string[]): readonly number[] {
  const nums = labels.map((l) => (/^\s*\d+\s*$/.test(l) ? Number(l) : Number.NaN));
  return nums.every((n) => Number.isSafeInteger(n)) ? nums : labels.map((_, i) => i);
}

/** Rows (in file order) whose number is in `spec`. */
export function rowsMatching(spec: RankSpec, labels: readonly string[]): number[] {
  const nums = rowNumbers(labels);
  const rows: number[] = [];
  nums.forEach((n, i) => {
    if (inSpec(spec, n)) rows.push(i);
  });
  return rows;
}

/** The compact text of a row list ("0-3,7"), for the filter field; rows by their numbers. */
export function formatRankList(rows: readonly number[], labels: readonly string[]): string {
  const nums = rowNumbers(labels);
  const values = [...new Set(rows.map((r) => nums[r]!).filter((n) => n !== undefined))].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < values.length;) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    parts.push(j === i ? String(values[i]) : `${values[i]}-${values[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** Every row in file order. */
export function allRows(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}

/** A row order valid for `count` rows: drops out-of-range and repeated rows; undefined = all rows. */
export function normaliseOrder(order: readonly number[] | undefined, count: number): number[] | undefined {
  if (order === undefined) return undefined;
  const seen = new Set<number>();
  const out: number[] = [];
  for (const r of order) {
    if (!Number.isSafeInteger(r) || r < 0 || r >= count || seen.has(r)) continue;
    seen.add(r);
    out.push(r);
  }
  return isIdentity(out, count) ? undefined : out;
}

export function isIdentity(order: readonly number[], count: number): boolean {
  if (order.length !== count) return false;
  for (let i = 0; i < count; i++) if (order[i] !== i) return false;
  return true;
}

/** Row → slot (−1 hidden) for `order`. */
export function slotsOf(order: readonly number[], count: number): Int32Array {
  const s = new Int32Array(count).fill(-1);
  order.forEach((r, i) => {
    if (r >= 0 && r < count) s[r] = i;
  });
  return s;
}

/** `order` without `rows`. */
export function hideRows(order: readonly number[], rows: readonly number[]): number[] {
  const drop = new Set(rows);
  return order.filter((r) => !drop.has(r));
}

/** Moves `row` to position `to` (clamped) in the order; a hidden row is shown there. */
export function moveRow(order: readonly number[], row: number, to: number): number[] {
  const rest = order.filter((r) => r !== row);
  const at = Math.max(0, Math.min(rest.length, to));
  return [...rest.slice(0, at), row, ...rest.slice(at)];
}
