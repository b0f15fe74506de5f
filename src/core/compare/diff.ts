/**
 * The computed difference of two runs (A and B): per category, per call site and per (rank,
 * category), the numbers of each run side by side with their delta and ratio, sorted so that what
 * moved most comes first. Rows are matched by name (category name, file:line, rank label), never by
 * index: two runs of one program may number their categories differently. A row present in one run
 * only is listed with zeros for the other.
 */
import type { Topology } from '../model/types';
import type { RangeStats } from '../stats/types';
import { compareLabels, type SiteStat } from '../stats/siteStats';
import { rankCategoryKey, type RunWaits } from './waits';

/** What one run contributes to a comparison. */
export interface RunProfile {
  readonly stats: RangeStats;
  /** Per-site numbers; empty when the trace has no source locations. */
  readonly sites: readonly SiteStat[];
  /** Waiting time of the same range (wait-state analysis), when it was computed. */
  readonly waits?: RunWaits;
}

/** Waiting seconds of a row in A and B (present when both runs were analysed). */
interface Waiting {
  readonly waitA?: number;
  readonly waitB?: number;
}

export interface CategoryDiff extends Waiting {
  readonly name: string;
  readonly kind: Topology;
  readonly countA: number;
  readonly countB: number;
  readonly inclA: number;
  readonly inclB: number;
  readonly exclA: number;
  readonly exclB: number;
  /** The time that moved (seconds, B − A): exclusive time for states, inclusive for arrows, 0 for events. */
  readonly delta: number;
  /** B ÷ A of the same quantity as delta; undefined when A is 0. */
  readonly ratio: number | undefined;
}

export interface RankDiff extends CategoryDiff {
  readonly rank: string;
}

export interface SiteDiff extends Waiting {
  readonly file: string;
  readonly line: number;
  readonly countA: number;
  readonly countB: number;
  readonly totalA: number;
  readonly totalB: number;
  readonly delta: number;
  readonly ratio: number | undefined;
}

export interface RunDiff {
  readonly rangeA: readonly [number, number];
  readonly rangeB: readonly [number, number];
  readonly categories: readonly CategoryDiff[];
  readonly ranks: readonly RankDiff[];
  readonly sites: readonly SiteDiff[];
  /** Whether the state and site rows carry waitA/waitB (both runs analysed). */
  readonly waiting: boolean;
}

interface Numbers {
  kind: Topology;
  count: number;
  incl: number;
  excl: number;
}

const ZERO: Numbers = { kind: 'state', count: 0, incl: 0, excl: 0 };

function movedTime(kind: Topology, incl: number, excl: number): number {
  return kind === 'state' ? excl : kind === 'arrow' ? incl : 0;
}

/**
 * B − A, with differences at the level of floating-point rounding of the sums (a run against
 * itself summed in another order) reported as 0 rather than as "−7e-17 s".
 */
function deltaOf(a: number, b: number): number {
  const d = b - a;
  return Math.abs(d) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) ? 0 : d;
}

function ratioOf(a: number, b: number): number | undefined {
  return a !== 0 ? b / a : undefined;
}

function diffNumbers(a: Numbers | undefined, b: Numbers | undefined): Omit<CategoryDiff, 'name'> {
  const x = a ?? { ...ZERO, kind: b?.kind ?? 'state' };
  const y = b ?? { ...ZERO, kind: x.kind };
  const kind = x.kind;
  const movedA = movedTime(kind, x.incl, x.excl);
  const movedB = movedTime(kind, y.incl, y.excl);
  return {
    kind,
    countA: x.count,
    countB: y.count,
    inclA: x.incl,
    inclB: y.incl,
    exclA: x.excl,
    exclB: y.excl,
    delta: deltaOf(movedA, movedB),
    ratio: ratioOf(movedA, movedB),
  };
}

/** Largest |delta| first; then largest |Δcount|; then by name so the order is stable. */
function byMovement<T extends { delta: number; countA: number; countB: number }>(key: (row: T) => string) {
  return (p: T, q: T): number =>
    Math.abs(q.delta) - Math.abs(p.delta) || Math.abs(q.countB - q.countA) - Math.abs(p.countB - p.countA) || compareLabels(key(p), key(q));
}

function categoryNumbers(stats: RangeStats): Map<string, Numbers> {
  const out = new Map<string, Numbers>();
  for (const c of stats.categories) {
    // Two categories of one name (a redefinition) add up, as a reader of the names would expect.
    const e = out.get(c.name);
    if (e === undefined) out.set(c.name, { kind: c.kind, count: c.count, incl: c.inclusive, excl: c.exclusive });
    else {
      e.count += c.count;
      e.incl += c.inclusive;
      e.excl += c.exclusive;
    }
  }
  return out;
}

function rankNumbers(stats: RangeStats): Map<string, Map<string, Numbers>> {
  const kinds = new Map<number, Topology>(stats.categories.map((c) => [c.index, c.kind]));
  const out = new Map<string, Map<string, Numbers>>();
  for (const row of stats.rows) {
    let m = out.get(row.label);
    if (m === undefined) out.set(row.label, (m = new Map()));
    for (const c of row.categories) {
      const e = m.get(c.name);
      if (e === undefined) m.set(c.name, { kind: kinds.get(c.index) ?? 'state', count: c.count, incl: c.inclusive, excl: c.exclusive });
      else {
        e.count += c.count;
        e.incl += c.inclusive;
        e.excl += c.exclusive;
      }
    }
  }
  return out;
}

function union<K>(a: Iterable<K>, b: Iterable<K>): K[] {
  return [...new Set([...a, ...b])];
}

export function diffCategories(a: RangeStats, b: RangeStats): CategoryDiff[] {
  const x = categoryNumbers(a);
  const y = categoryNumbers(b);
  const rows = union(x.keys(), y.keys()).map((name) => ({ name, ...diffNumbers(x.get(name), y.get(name)) }));
  return rows.sort(byMovement((r) => r.name));
}

export function diffRanks(a: RangeStats, b: RangeStats): RankDiff[] {
  const x = rankNumbers(a);
  const y = rankNumbers(b);
  const rows: RankDiff[] = [];
  for (const rank of union(x.keys(), y.keys())) {
    const ca = x.get(rank) ?? new Map<string, Numbers>();
    const cb = y.get(rank) ?? new Map<string, Numbers>();
    for (const name of union(ca.keys(), cb.keys())) rows.push({ rank, name, ...diffNumbers(ca.get(name), cb.get(name)) });
  }
  return rows.sort(byMovement((r) => `${r.rank}\u0000${r.name}`));
}

export function diffSites(a: readonly SiteStat[], b: readonly SiteStat[]): SiteDiff[] {
  const key = (s: { file: string; line: number }): string => `${s.file}\u0000${s.line}`;
  const x = new Map(a.map((s) => [key(s), s]));
  const y = new Map(b.map((s) => [key(s), s]));
  const rows: SiteDiff[] = union(x.keys(), y.keys()).map((k) => {
    const sa = x.get(k);
    const sb = y.get(k);
    const site = (sa ?? sb)!;
    const totalA = sa?.total ?? 0;
    const totalB = sb?.total ?? 0;
    return {
      file: site.file,
      line: site.line,
      countA: sa?.count ?? 0,
      countB: sb?.count ?? 0,
      totalA,
      totalB,
      delta: deltaOf(totalA, totalB),
      ratio: ratioOf(totalA, totalB),
    };
  });
  return rows.sort(byMovement((r) => `${r.file}:${String(r.line).padStart(10, '0')}`));
}

function waiting(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>, key: string): Waiting {
  return { waitA: a[key] ?? 0, waitB: b[key] ?? 0 };
}

export function diffRuns(a: RunProfile, b: RunProfile): RunDiff {
  const categories = diffCategories(a.stats, b.stats);
  const ranks = diffRanks(a.stats, b.stats);
  const sites = diffSites(a.sites, b.sites);
  const wa = a.waits;
  const wb = b.waits;
  if (wa === undefined || wb === undefined) return { rangeA: a.stats.range, rangeB: b.stats.range, categories, ranks, sites, waiting: false };
  // Only states wait; arrows and events keep no waiting column value.
  return {
    rangeA: a.stats.range,
    rangeB: b.stats.range,
    categories: categories.map((r) => (r.kind === 'state' ? { ...r, ...waiting(wa.byCategory, wb.byCategory, r.name) } : r)),
    ranks: ranks.map((r) => (r.kind === 'state' ? { ...r, ...waiting(wa.byRankCategory, wb.byRankCategory, rankCategoryKey(r.rank, r.name)) } : r)),
    sites: sites.map((s) => ({ ...s, ...waiting(wa.bySite, wb.bySite, `${s.file}:${s.line}`) })),
    waiting: true,
  };
}
