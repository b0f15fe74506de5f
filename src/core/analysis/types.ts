/** Results of the trace analysis (wait states, critical path, trace problems). Times in seconds. */

export const PATTERNS = ['lateSender', 'lateReceiver', 'waitAtBarrier', 'waitAtNxN', 'lateBroadcast', 'earlyReduce'] as const;
export type Pattern = (typeof PATTERNS)[number];

/** One wait: `wait` seconds at the start of the waiter's state [enter, exit], caused by another process. */
export interface WaitInstance {
  readonly pattern: Pattern;
  /** Waiting process (location label, e.g. "2" or "2.1") and the line ID of its state. */
  readonly rank: string;
  readonly lineID: number;
  /** The waiting state: its category name, enter and exit. */
  readonly category: string;
  readonly enter: number;
  readonly exit: number;
  readonly wait: number;
  /** Call site of the waiting state ("file:line"), when the trace records it. */
  readonly site?: string;
  /** Who it waited for: process, line ID, the call it waited for and when that call began. */
  readonly causer: { readonly rank: string; readonly lineID: number; readonly category: string; readonly time: number };
}

export interface PatternTotals {
  time: number;
  count: number;
  byRank: Record<string, number>;
  byCategory: Record<string, number>;
  bySite: Record<string, number>;
  /** By rank label and state name: key `rank\u0000name` (rankCategoryKey). */
  byRankCategory: Record<string, number>;
  /** The longest single wait of the pattern. */
  max: number;
}

export type ProblemKind = 'unmatched-message' | 'receive-before-send' | 'time-order' | 'unknown-category' | 'truncated' | 'dropped-record';

/** Where a problem is, for "show in timeline": a time span on some line IDs. */
export interface ProblemInstance {
  readonly time: number;
  readonly endTime: number;
  readonly lineIDs: readonly number[];
  readonly text: string;
}

export interface Problem {
  readonly kind: ProblemKind;
  count: number;
  readonly message: string;
  /** The first instances (capped), with their place in the trace when known. */
  readonly instances: ProblemInstance[];
  /** receive-before-send: the largest skew (send − receive time) per "sender→receiver" pair. */
  skewByPair?: Record<string, number>;
}

/** A stretch of the critical path on one process; segments are in time order and contiguous. */
export interface PathSegment {
  readonly rank: string;
  readonly lineID: number;
  readonly from: number;
  readonly to: number;
}

export interface CriticalPath {
  readonly start: number;
  readonly end: number;
  /** Σ segment lengths (= end − start when the chain is connected). */
  readonly length: number;
  readonly segments: readonly PathSegment[];
  /** Time on the path per innermost state name ("(no state)" between states). */
  readonly byCategory: Record<string, number>;
  readonly bySite: Record<string, number>;
  readonly byRank: Record<string, number>;
  /** max(0, time on the path − mean exclusive time per process), per state name. */
  readonly imbalance: Record<string, number>;
}

export interface AnalysisResult {
  readonly range: readonly [number, number];
  readonly waitStates: Record<Pattern, PatternTotals>;
  readonly criticalPath: CriticalPath;
  readonly problems: Problem[];
  /** Wait instances (all, or the first `maxInstances`), in the order found. */
  readonly instances: WaitInstance[];
  readonly instancesTruncated: boolean;
  readonly messages: { readonly matched: number; readonly excludedReceiveBeforeSend: number };
  readonly collectives: { readonly instances: number; readonly incomplete: number; readonly rootInferred: number };
  /** Non-fatal notes about how the numbers were obtained. */
  readonly notes: string[];
}

export function emptyTotals(): PatternTotals {
  return { time: 0, count: 0, byRank: {}, byCategory: {}, bySite: {}, byRankCategory: {}, max: 0 };
}

/** The key of `PatternTotals.byRankCategory`. */
export function rankCategoryKey(rank: string, name: string): string {
  return `${rank}\u0000${name}`;
}

export function addTo(rec: Record<string, number>, key: string, v: number): void {
  rec[key] = (rec[key] ?? 0) + v;
}
