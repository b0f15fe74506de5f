/**
 * Iterations of a run: the repeating structure of its timelines, found from the outermost
 * ("top-level") states of each timeline. The marker is the category that starts each iteration:
 * chosen by the user, or found as the top-level state category of the first timeline that occurs
 * most regularly (its count is the most common count among repeated categories; among those, the
 * one that comes first). Iteration k on a timeline runs from its k-th marker to its next one; the
 * run's iteration k starts at the earliest k-th marker of any timeline.
 *
 * Input must come in non-decreasing start time (a converter's stream or drawablesInTimeOrder):
 * top-level states are then found on the fly, and only they are kept (typed columns per timeline).
 */
import type { Drawable, Primitive } from '../model/types';
import { compareLabels } from '../stats/siteStats';

/** Per timeline: top-level state starts and categories, growable columns. */
class TopLevel {
  starts = new Float64Array(64);
  cats = new Int32Array(64);
  n = 0;
  lastEnd = -Infinity;
  lastStart = NaN;

  push(cat: number, t0: number, t1: number): void {
    if (this.n > 0 && t0 === this.lastStart && t1 > this.lastEnd) {
      // Same start as the previous top-level state but longer: that one was nested in this one.
      this.cats[this.n - 1] = cat;
      this.lastEnd = t1;
      return;
    }
    if (t0 < this.lastEnd) return; // nested in the current top-level state
    if (this.n === this.starts.length) {
      const s = new Float64Array(this.n * 2);
      s.set(this.starts);
      this.starts = s;
      const c = new Int32Array(this.n * 2);
      c.set(this.cats);
      this.cats = c;
    }
    this.starts[this.n] = t0;
    this.cats[this.n] = cat;
    this.n++;
    this.lastStart = t0;
    this.lastEnd = t1;
  }
}

export interface IterationMeta {
  readonly categories: ReadonlyMap<number, { readonly name: string; readonly topology: string }>;
  /** Timeline label of a line ID (e.g. world rank). */
  labelOf(lineID: number): string;
}

export interface Iterations {
  /** The marker category's name; undefined when no repeated top-level state was found. */
  readonly marker: string | undefined;
  /** Timeline labels, in label order (numeric ranks numerically). */
  readonly ranks: readonly string[];
  /** Start of iteration k (earliest k-th marker over all timelines). */
  readonly starts: readonly number[];
  /** Length of iteration k: next start − this start (the last one: to the latest end of a top-level state). */
  readonly durations: readonly number[];
  /** durationsByRank[r][k]: timeline r's own iteration k (NaN where that timeline has no k-th marker). */
  readonly durationsByRank: readonly (readonly number[])[];
  /** Iterations and timelines whose length stands out (robust z-score > 3.5 and ≥ 10 % over the median). */
  readonly outlierIterations: readonly number[];
  readonly outlierRanks: readonly string[];
}

export class IterationCollector {
  private readonly rows = new Map<number, TopLevel>();
  private watermark = -Infinity;

  constructor(private readonly meta: IterationMeta) {}

  add(d: Drawable): void {
    if (d.kind === 'composite') for (const p of d.primitives) this.addPrimitive(p);
    else this.addPrimitive(d);
  }

  private addPrimitive(p: Primitive): void {
    if (this.meta.categories.get(p.category)?.topology !== 'state') return;
    if (!(p.earliest >= this.watermark)) {
      if (Number.isNaN(p.earliest)) return;
      throw new Error(`iteration detection needs drawables in start-time order (${p.earliest} after ${this.watermark})`);
    }
    this.watermark = p.earliest;
    const lineID = p.vertices[0]?.lineID;
    if (lineID === undefined) return;
    let row = this.rows.get(lineID);
    if (row === undefined) this.rows.set(lineID, (row = new TopLevel()));
    row.push(p.category, p.earliest, p.latest);
  }

  result(marker?: string): Iterations {
    const rowIDs = [...this.rows.keys()].sort((a, b) => compareLabels(this.meta.labelOf(a), this.meta.labelOf(b)));
    const ranks = rowIDs.map((id) => this.meta.labelOf(id));
    const markerCats = this.markerCategories(rowIDs, marker);
    if (markerCats === undefined) return emptyIterations(ranks);
    const markerStarts: number[][] = rowIDs.map((id) => {
      const row = this.rows.get(id)!;
      const out: number[] = [];
      for (let i = 0; i < row.n; i++) if (markerCats.has(row.cats[i]!)) out.push(row.starts[i]!);
      return out;
    });
    let count = 0;
    for (const m of markerStarts) count = Math.max(count, m.length);
    const starts: number[] = [];
    for (let k = 0; k < count; k++) {
      let s = Infinity;
      for (const m of markerStarts) if (k < m.length && m[k]! < s) s = m[k]!;
      starts.push(s);
    }
    let end = -Infinity;
    for (const id of rowIDs) end = Math.max(end, this.rows.get(id)!.lastEnd);
    const durations = starts.map((s, k) => (k + 1 < starts.length ? starts[k + 1]! : end) - s);
    const durationsByRank = rowIDs.map((id, r) => {
      const m = markerStarts[r]!;
      const rowEnd = this.rows.get(id)!.lastEnd;
      return starts.map((_, k) => (k < m.length ? (k + 1 < m.length ? m[k + 1]! : rowEnd) - m[k]! : NaN));
    });
    const rankMeans = durationsByRank.map((ds) => mean(ds.filter((d) => Number.isFinite(d))));
    return {
      marker: [...markerCats].map((c) => this.meta.categories.get(c)?.name ?? String(c))[0],
      ranks,
      starts,
      durations,
      durationsByRank,
      outlierIterations: outliers(durations),
      outlierRanks: outliers(rankMeans).map((i) => ranks[i]!),
    };
  }

  /** The category indexes of the marker (a name may have several indexes). */
  private markerCategories(rowIDs: readonly number[], marker: string | undefined): Set<number> | undefined {
    if (marker !== undefined) {
      const cats = new Set<number>();
      for (const [index, c] of this.meta.categories) if (c.name === marker) cats.add(index);
      if (cats.size === 0) throw new Error(`no category named ${JSON.stringify(marker)}`);
      return cats;
    }
    const first = rowIDs.length > 0 ? this.rows.get(rowIDs[0]!) : undefined;
    if (first === undefined) return undefined;
    const counts = new Map<number, number>();
    const firstAt = new Map<number, number>();
    for (let i = 0; i < first.n; i++) {
      const c = first.cats[i]!;
      counts.set(c, (counts.get(c) ?? 0) + 1);
      if (!firstAt.has(c)) firstAt.set(c, i);
    }
    const repeated = [...counts.entries()].filter(([, n]) => n >= 2);
    if (repeated.length === 0) return undefined;
    const howOften = new Map<number, number>();
    for (const [, n] of repeated) howOften.set(n, (howOften.get(n) ?? 0) + 1);
    let modal = 0;
    let modalFreq = 0;
    for (const [n, f] of howOften) if (f > modalFreq || (f === modalFreq && n > modal)) [modal, modalFreq] = [n, f];
    let best: number | undefined;
    for (const [c, n] of repeated) if (n === modal && (best === undefined || firstAt.get(c)! < firstAt.get(best)!)) best = c;
    return new Set([best!]);
  }
}

function emptyIterations(ranks: readonly string[]): Iterations {
  return { marker: undefined, ranks, starts: [], durations: [], durationsByRank: ranks.map(() => []), outlierIterations: [], outlierRanks: [] };
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length > 0 ? s / xs.length : NaN;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Indexes of values far above the rest: modified z-score (median, MAD) over 3.5 and ≥ 10 % over the median. */
export function outliers(values: readonly number[]): number[] {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length < 4) return [];
  const med = median(finite);
  const mad = median(finite.map((v) => Math.abs(v - med)));
  const out: number[] = [];
  values.forEach((v, i) => {
    if (!Number.isFinite(v) || v < med * 1.1) return;
    const z = mad > 0 ? (0.6745 * (v - med)) / mad : Infinity;
    if (z > 3.5) out.push(i);
  });
  return out;
}

/** Time shift that puts iteration k of B on iteration k of A (B time − shift = A time). */
export function iterationShift(a: Iterations, b: Iterations, k: number): number | undefined {
  const sa = a.starts[k];
  const sb = b.starts[k];
  return sa !== undefined && sb !== undefined ? sb - sa : undefined;
}
