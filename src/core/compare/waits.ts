/**
 * A run's waiting time (the wait-state analysis of the same range) in the shape a comparison needs:
 * seconds per state name, per call site and per (rank, state name), summed over the patterns.
 */
import { PATTERNS, type AnalysisResult } from '../analysis/types';

export { rankCategoryKey } from '../analysis/types';

export interface RunWaits {
  readonly byCategory: Readonly<Record<string, number>>;
  /** By "file:line" of the waiting state's start. */
  readonly bySite: Readonly<Record<string, number>>;
  /** By rank label and state name (key: rankCategoryKey). */
  readonly byRankCategory: Readonly<Record<string, number>>;
}

function addAll(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

export function runWaits(r: AnalysisResult): RunWaits {
  const byCategory: Record<string, number> = {};
  const bySite: Record<string, number> = {};
  const byRankCategory: Record<string, number> = {};
  for (const p of PATTERNS) {
    const t = r.waitStates[p];
    addAll(byCategory, t.byCategory);
    addAll(bySite, t.bySite);
    addAll(byRankCategory, t.byRankCategory);
  }
  return { byCategory, bySite, byRankCategory };
}
