/**
 * Serialisations of a run comparison shared by the CLI (`mpe-trace diff`) and the Compare panel:
 * the JSON document and flat tables per section (CSV/TSV/text go through the stats table writers).
 */
import type { Table } from '../stats/tables';
import type { CategoryDiff, RankDiff, RunDiff, SiteDiff } from './diff';
import type { Iterations } from './iterations';

export type DiffBy = 'category' | 'site' | 'rank';

const NUMBERS = ['countA', 'countB', 'inclA', 'inclB', 'exclA', 'exclB', 'delta', 'ratio'] as const;

function numbers(r: CategoryDiff): (number | undefined)[] {
  return NUMBERS.map((k) => r[k]);
}

const WAITS = ['waitA', 'waitB'] as const;

/** Waiting columns when the comparison has them (empty cells for rows that cannot wait). */
function waits(on: boolean, r: { waitA?: number; waitB?: number }): (number | undefined)[] {
  return on ? [r.waitA, r.waitB] : [];
}

export function diffTable(d: RunDiff, by: DiffBy): Table {
  const w = d.waiting;
  const wc = w ? WAITS : [];
  if (by === 'category')
    return { columns: ['category', 'kind', ...NUMBERS, ...wc], rows: d.categories.map((r) => [r.name, r.kind, ...numbers(r), ...waits(w, r)]) };
  if (by === 'rank')
    return {
      columns: ['rank', 'category', 'kind', ...NUMBERS, ...wc],
      rows: d.ranks.map((r: RankDiff) => [r.rank, r.name, r.kind, ...numbers(r), ...waits(w, r)]),
    };
  return {
    columns: ['file', 'line', 'countA', 'countB', 'totalA', 'totalB', 'delta', 'ratio', ...wc],
    rows: d.sites.map((s: SiteDiff) => [s.file, s.line, s.countA, s.countB, s.totalA, s.totalB, s.delta, s.ratio, ...waits(w, s)]),
  };
}

export interface IterationsJson {
  readonly marker: string | null;
  readonly count: number;
  readonly starts: readonly number[];
  readonly durations: readonly number[];
  readonly outlierIterations: readonly number[];
  readonly outlierRanks: readonly string[];
}

function iterationsJson(it: Iterations): IterationsJson {
  return {
    marker: it.marker ?? null,
    count: it.starts.length,
    starts: it.starts,
    durations: it.durations,
    outlierIterations: it.outlierIterations,
    outlierRanks: it.outlierRanks,
  };
}

/** The `mpe-trace diff --json` document: seconds; a ratio with a zero A is null. */
export function diffJson(d: RunDiff, iterations?: { readonly a: Iterations; readonly b: Iterations }): object {
  const nullRatio = <T extends { ratio: number | undefined }>(r: T): Omit<T, 'ratio'> & { ratio: number | null } => ({ ...r, ratio: r.ratio ?? null });
  return {
    rangeA: d.rangeA,
    rangeB: d.rangeB,
    categories: d.categories.map(nullRatio),
    sites: d.sites.map(nullRatio),
    ranks: d.ranks.map(nullRatio),
    ...(iterations !== undefined ? { iterations: { a: iterationsJson(iterations.a), b: iterationsJson(iterations.b) } } : {}),
  };
}
