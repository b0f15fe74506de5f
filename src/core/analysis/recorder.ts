/**
 * Collects wait instances: the totals per pattern (per process, state name and call site), the
 * hops the critical path follows (compact typed columns, so millions of waits stay small) and
 * optionally the first N instances as objects. A multi-completion call (MPI_Waitall …) charges
 * only its worst partner: a second wait on the same state replaces the first when longer.
 */
import { grown } from '../bytes/grown';
import { HopColumns } from './hops';
import type { StateRec } from './stateRecord';
import { addTo, emptyTotals, PATTERNS, rankCategoryKey, type Pattern, type PatternTotals, type WaitInstance } from './types';

export interface Causer {
  readonly loc: number;
  readonly line: number;
  readonly name: string;
  readonly time: number;
}

interface MutableInstance extends Omit<WaitInstance, 'wait' | 'causer' | 'pattern'> {
  pattern: Pattern;
  wait: number;
  causer: WaitInstance['causer'];
}

/**
 * One pattern's totals, summed by process and state-name number (a string key and four
 * dictionary updates per wait were ~5 % of a 1 GB analysis); the records keyed by rank label,
 * name and site are built once, in first-seen order, so they equal those summed wait by wait.
 */
class PatternSums {
  time = 0;
  count = 0;
  max = 0;
  private readonly byLoc: number[] = [];
  private readonly locs: number[] = [];
  private readonly names = new Map<string, number>();
  private readonly byName: number[] = [];
  /**
   * Sums by name number, then process; `pairs` holds each (name number × 2^22 + process) in
   * first-seen order. A Map keyed by that number (a heap number past 2^30) was a third of a wait's cost.
   */
  private readonly byLocName: Float64Array[] = [];
  private readonly pairs: number[] = [];
  private readonly bySite = new Map<string, number>();

  add(loc: number, name: string, site: string | undefined, delta: number): void {
    this.time += delta;
    if (this.byLoc[loc] === undefined) {
      this.byLoc[loc] = 0;
      this.locs.push(loc);
    }
    this.byLoc[loc] += delta;
    let n = this.names.get(name);
    if (n === undefined) {
      n = this.names.size;
      this.names.set(name, n);
      this.byName.push(0);
    }
    this.byName[n]! += delta;
    let sums = this.byLocName[n];
    if (sums === undefined || loc >= sums.length) this.byLocName[n] = sums = grownNaN(sums, loc + 1);
    // NaN: not seen yet (a wait is > 0, so a sum never is NaN).
    if (Number.isNaN(sums[loc]!)) {
      sums[loc] = 0;
      this.pairs.push(n * LOC_KEYS + loc);
    }
    sums[loc] += delta;
    if (site !== undefined) this.bySite.set(site, (this.bySite.get(site) ?? 0) + delta);
  }

  totals(labels: readonly string[]): PatternTotals {
    const t = emptyTotals();
    t.time = this.time;
    t.count = this.count;
    t.max = this.max;
    const label = (loc: number): string => labels[loc] ?? String(loc);
    for (const loc of this.locs) addTo(t.byRank, label(loc), this.byLoc[loc]!);
    const names = [...this.names.keys()];
    names.forEach((name, n) => addTo(t.byCategory, name, this.byName[n]!));
    for (const key of this.pairs) {
      const loc = key % LOC_KEYS;
      const n = Math.floor(key / LOC_KEYS);
      addTo(t.byRankCategory, rankCategoryKey(label(loc), names[n]!), this.byLocName[n]![loc]!);
    }
    for (const [site, v] of this.bySite) addTo(t.bySite, site, v);
    return t;
  }
}

/** Processes per name in PatternSums keys (more than any run has: 2^22). */
const LOC_KEYS = 1 << 22;

/** `sums` grown to hold `need`, new slots NaN (not seen). */
function grownNaN(sums: Float64Array | undefined, need: number): Float64Array {
  const next = grown(sums ?? NONE, need);
  return next.fill(NaN, sums?.length ?? 0);
}

const NONE = new Float64Array(0);

export class WaitRecorder {
  private readonly sums: Record<Pattern, PatternSums>;
  readonly hops = new HopColumns();
  readonly instances: MutableInstance[] = [];
  truncated = false;
  /** Hop slot → its index in `instances` (only for the kept ones). */
  private readonly instanceOfSlot = new Map<number, number>();

  constructor(
    private readonly labels: readonly string[],
    private readonly maxInstances: number,
  ) {
    this.sums = Object.fromEntries(PATTERNS.map((p) => [p, new PatternSums()])) as Record<Pattern, PatternSums>;
  }

  /** The totals per pattern (built on each call: ask once, at the end). */
  get totals(): Record<Pattern, PatternTotals> {
    return Object.fromEntries(PATTERNS.map((p) => [p, this.sums[p].totals(this.labels)])) as Record<Pattern, PatternTotals>;
  }

  /** Records `wait` seconds at the start of `state`, caused by `causer`; keeps the worst per state. */
  record(pattern: Pattern, state: StateRec, wait: number, causer: Causer): void {
    if (!(wait > 0)) return;
    const t = this.sums[pattern];
    let slot = state.slot;
    let delta = wait;
    if (slot >= 0) {
      const old = state.wait;
      if (wait <= old) return;
      delta = wait - old;
    } else {
      slot = this.hops.push();
      state.slot = slot;
      t.count++;
    }
    t.add(state.loc, state.name, state.site, delta);
    if (wait > t.max) t.max = wait;
    state.wait = wait;
    this.hops.set(slot, state.loc, causer.loc, state.enter + wait, causer.time);
    // Instance objects only for the kept ones (millions of waits otherwise).
    const kept = this.instanceOfSlot.get(slot);
    if (kept !== undefined) {
      const inst = this.instances[kept]!;
      inst.wait = wait;
      inst.causer = this.causerOf(causer);
    } else if (this.instances.length < this.maxInstances) {
      this.instanceOfSlot.set(slot, this.instances.length);
      const rank = this.labels[state.loc] ?? String(state.loc);
      const inst: MutableInstance = {
        pattern,
        rank,
        lineID: state.line,
        category: state.name,
        enter: state.enter,
        exit: state.exit,
        wait,
        causer: this.causerOf(causer),
      };
      if (state.site !== undefined) (inst as { site?: string }).site = state.site;
      this.instances.push(inst);
    } else this.truncated = true;
  }

  private causerOf(causer: Causer): WaitInstance['causer'] {
    return { rank: this.labels[causer.loc] ?? String(causer.loc), lineID: causer.line, category: causer.name, time: causer.time };
  }
}
