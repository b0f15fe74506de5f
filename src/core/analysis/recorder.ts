/**
 * Collects wait instances: the totals per pattern (per process, state name and call site), the
 * hops the critical path follows (compact typed columns, so millions of waits stay small) and
 * optionally the first N instances as objects. A multi-completion call (MPI_Waitall …) charges
 * only its worst partner: a second wait on the same state replaces the first when longer.
 */
import type { StateRec } from './stateRecord';
import { addTo, emptyTotals, PATTERNS, rankCategoryKey, type Pattern, type PatternTotals, type WaitInstance } from './types';

export interface Causer {
  readonly loc: number;
  readonly line: number;
  readonly name: string;
  readonly time: number;
}

/** Growable columns of the waits: who waited until when, and whom the path continues on. */
export class HopColumns {
  length = 0;
  waiter = new Int32Array(1024);
  causer = new Int32Array(1024);
  /** Time the waiter resumed (enter + wait). */
  resume = new Float64Array(1024);
  /** Where the path continues on the causer. */
  causerTime = new Float64Array(1024);
  pattern = new Uint8Array(1024);
  wait = new Float64Array(1024);

  push(): number {
    if (this.length === this.waiter.length) {
      const n = this.length * 2;
      const grow = <T extends Int32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(n);
        b.set(a);
        return b;
      };
      this.waiter = grow(this.waiter, (k) => new Int32Array(k));
      this.causer = grow(this.causer, (k) => new Int32Array(k));
      this.resume = grow(this.resume, (k) => new Float64Array(k));
      this.causerTime = grow(this.causerTime, (k) => new Float64Array(k));
      this.pattern = grow(this.pattern, (k) => new Uint8Array(k));
      this.wait = grow(this.wait, (k) => new Float64Array(k));
    }
    return this.length++;
  }
}

interface MutableInstance extends Omit<WaitInstance, 'wait' | 'causer' | 'pattern'> {
  pattern: Pattern;
  wait: number;
  causer: WaitInstance['causer'];
}

export class WaitRecorder {
  readonly totals: Record<Pattern, PatternTotals>;
  readonly hops = new HopColumns();
  readonly instances: MutableInstance[] = [];
  truncated = false;
  /** Hop slot → its index in `instances` (only for the kept ones). */
  private readonly instanceOfSlot = new Map<number, number>();

  constructor(
    private readonly labels: readonly string[],
    private readonly maxInstances: number,
  ) {
    this.totals = Object.fromEntries(PATTERNS.map((p) => [p, emptyTotals()])) as Record<Pattern, PatternTotals>;
  }

  /** Records `wait` seconds at the start of `state`, caused by `causer`; keeps the worst per state. */
  record(pattern: Pattern, state: StateRec, wait: number, causer: Causer): void {
    if (!(wait > 0)) return;
    const t = this.totals[pattern];
    const rank = this.labels[state.loc] ?? String(state.loc);
    let slot = state.slot;
    let delta = wait;
    if (slot >= 0) {
      const old = this.hops.wait[slot]!;
      if (wait <= old) return;
      delta = wait - old;
    } else {
      slot = this.hops.push();
      state.slot = slot;
      t.count++;
    }
    t.time += delta;
    addTo(t.byRank, rank, delta);
    addTo(t.byCategory, state.name, delta);
    addTo(t.byRankCategory, rankCategoryKey(rank, state.name), delta);
    if (state.site !== undefined) addTo(t.bySite, state.site, delta);
    if (wait > t.max) t.max = wait;
    const h = this.hops;
    h.waiter[slot] = state.loc;
    h.causer[slot] = causer.loc;
    h.resume[slot] = state.enter + wait;
    h.causerTime[slot] = causer.time;
    h.pattern[slot] = PATTERNS.indexOf(pattern);
    h.wait[slot] = wait;
    const c = { rank: this.labels[causer.loc] ?? String(causer.loc), lineID: causer.line, category: causer.name, time: causer.time };
    const kept = this.instanceOfSlot.get(slot);
    if (kept !== undefined) {
      const inst = this.instances[kept]!;
      inst.wait = wait;
      inst.causer = c;
    } else if (this.instances.length < this.maxInstances) {
      this.instanceOfSlot.set(slot, this.instances.length);
      const inst: MutableInstance = { pattern, rank, lineID: state.line, category: state.name, enter: state.enter, exit: state.exit, wait, causer: c };
      if (state.site !== undefined) (inst as { site?: string }).site = state.site;
      this.instances.push(inst);
    } else this.truncated = true;
  }
}
