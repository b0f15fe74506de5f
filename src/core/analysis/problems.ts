/** Trace problems found while analysing (the Problems panel's diagnostics), with the first instances located. */
import type { Problem, ProblemInstance, ProblemKind } from './types';

const MESSAGES: Record<ProblemKind, string> = {
  'unmatched-message': 'message halves without a partner (truncated run, MPI_Waitall beyond MPE_MAX_REQUESTS, cancelled or unknown requests)',
  'receive-before-send': 'messages received before they were sent (clock-condition violation: the ranks\u2019 clocks disagree); excluded from the wait states',
  'time-order': 'states that overlap without nesting on one process (records not in end-time order; they display wrongly nested)',
  'unknown-category': 'UnknownType categories: MPI definitions missing, the run probably never completed MPI_Finalize',
  truncated: 'the trace is truncated or partial (states left open at the end)',
  'dropped-record': 'records dropped while converting (end events without a start, or event roles that do not fit the record)',
};

export class ProblemList {
  private readonly byKind = new Map<ProblemKind, Problem>();

  constructor(private readonly maxInstances = 100) {}

  /** Counts `count` problems of `kind`; `at` locates one of them (kept while under the cap). */
  add(kind: ProblemKind, count: number, at?: ProblemInstance, message?: string): Problem {
    let p = this.byKind.get(kind);
    if (p === undefined) {
      p = { kind, count: 0, message: message ?? MESSAGES[kind], instances: [] };
      this.byKind.set(kind, p);
    }
    p.count += count;
    if (at !== undefined && p.instances.length < this.maxInstances) p.instances.push(at);
    return p;
  }

  list(): Problem[] {
    return [...this.byKind.values()].filter((p) => p.count > 0);
  }
}
