/** The JSON of `mpe-trace analyze --json` (keys documented in the CLI usage and docs). */
import { PATTERNS, type AnalysisResult, type Pattern, type PatternTotals } from './types';

/** A pattern's totals as printed: the (rank, state) split nested by rank, then state name. */
export type PatternTotalsJson = Omit<PatternTotals, 'byRankCategory'> & { readonly byRankAndState: Record<string, Record<string, number>> };

export interface AnalysisJson {
  readonly range: readonly [number, number];
  readonly waitStates: Record<Pattern, PatternTotalsJson>;
  readonly criticalPath: {
    readonly length: number;
    readonly start: number;
    readonly end: number;
    readonly byCategory: Record<string, number>;
    readonly bySite: Record<string, number>;
    readonly byRank: Record<string, number>;
    readonly imbalance: Record<string, number>;
    readonly segments: readonly { readonly rank: string; readonly from: number; readonly to: number }[];
    readonly segmentsTruncated: boolean;
  };
  readonly problems: readonly {
    readonly kind: string;
    readonly count: number;
    readonly message: string;
    readonly skewByPair?: Record<string, number>;
    readonly instances: readonly unknown[];
  }[];
  readonly messages: AnalysisResult['messages'];
  readonly collectives: AnalysisResult['collectives'];
  readonly notes: readonly string[];
}

function totalsJson(t: PatternTotals): PatternTotalsJson {
  const { byRankCategory, ...rest } = t;
  const byRankAndState: Record<string, Record<string, number>> = {};
  for (const [key, v] of Object.entries(byRankCategory)) {
    const cut = key.indexOf('\u0000');
    const rank = key.slice(0, cut);
    (byRankAndState[rank] ??= {})[key.slice(cut + 1)] = v;
  }
  return { ...rest, byRankAndState };
}

export function analysisJson(r: AnalysisResult, options: { readonly maxSegments?: number; readonly maxProblemInstances?: number } = {}): AnalysisJson {
  const maxSegments = options.maxSegments ?? 1000;
  const maxProblems = options.maxProblemInstances ?? 20;
  const cp = r.criticalPath;
  return {
    range: r.range,
    waitStates: Object.fromEntries(PATTERNS.map((p) => [p, totalsJson(r.waitStates[p])])) as Record<Pattern, PatternTotalsJson>,
    criticalPath: {
      length: cp.length,
      start: cp.start,
      end: cp.end,
      byCategory: cp.byCategory,
      bySite: cp.bySite,
      byRank: cp.byRank,
      imbalance: cp.imbalance,
      segments: cp.segments.slice(0, maxSegments).map((s) => ({ rank: s.rank, from: s.from, to: s.to })),
      segmentsTruncated: cp.segments.length > maxSegments,
    },
    problems: r.problems.map((p) => ({
      kind: p.kind,
      count: p.count,
      message: p.message,
      ...(p.skewByPair !== undefined ? { skewByPair: p.skewByPair } : {}),
      instances: p.instances.slice(0, maxProblems),
    })),
    messages: r.messages,
    collectives: r.collectives,
    notes: r.notes,
  };
}
