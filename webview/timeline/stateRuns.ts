/**
 * The runs by depth and row of the payloads' state tables (src/core/query/stateRuns.ts), per
 * table: as shipped with the payload (adoptChunks), else computed once here (an embedded window).
 * A table not in that order has none, and a frame scans it whole.
 */
import { stateRunsOf, type Columns, type StateRuns, type StateSpec } from '../../src/protocol/wire';

const cache = new WeakMap<ArrayLike<number>, StateRuns | null>();

export function stateRuns(st: Columns<StateSpec>): StateRuns | undefined {
  let runs = cache.get(st.start);
  if (runs === undefined) cache.set(st.start, (runs = stateRunsOf(st.depth, st.row, st.start, st.end) ?? null));
  return runs ?? undefined;
}

/** Takes the runs a payload came with for its state table. */
export function adoptStateRuns(st: Columns<StateSpec>, runs: StateRuns | undefined): void {
  if (runs !== undefined) cache.set(st.start, runs);
}
