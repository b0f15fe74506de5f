/**
 * Collective wait states. An instance is the k-th call of the same collective by each rank of the
 * same communicator (MPE draws a sub-communicator's calls on that communicator's own line IDs, so
 * the line tells the communicator). An instance is evaluated once every rank of the communicator
 * has made its k-th call, or at the end of the stream with the ranks that did (then "incomplete").
 *
 * With E = enter, X = exit of each member, L = the latest enter (its rank is the causer):
 * - wait at barrier / at N×N: max(0, min(L, X_i) − E_i) on every member;
 * - late broadcast (Bcast, Scatter[v]): max(0, min(E_root, X_i) − E_i) on non-roots;
 * - early reduce (Reduce, Gather[v]): max(0, min(L_senders, X_root) − E_root) on the root.
 * MPE does not record the root: it is inferred as the member that left first (1-to-N: the root
 * need not wait for anyone) or last (N-to-1: the root waits for every contribution).
 */
import type { LineRoles } from './lines';
import type { WaitRecorder } from './recorder';
import type { StateRec } from './stateRecord';

interface Instance {
  readonly members: StateRec[];
  readonly expected: number;
}

/** One collective (category) on one communicator: each member's calls so far and the instances still open. */
interface CommCalls {
  /** Calls made so far by each rank of the communicator. */
  readonly calls: Map<number, number>;
  /** Open instances by occurrence number. */
  readonly open: Map<number, Instance>;
}

export class CollectiveMatcher {
  /**
   * By category, then communicator: numbers, not a string key built per state (three strings
   * and their hashing per collective call were most of the matcher's time in a first pass).
   */
  private readonly byCategory = new Map<number, Map<number, CommCalls>>();
  /** Every open instance in the order it opened (finish evaluates them in that order). */
  private readonly opened = new Set<Instance>();
  instances = 0;
  incomplete = 0;
  rootInferred = 0;

  constructor(
    private readonly roles: LineRoles,
    private readonly recorder: WaitRecorder,
    /** Ranks of a communicator whose size the Y maps do not give (all processes seen). */
    private readonly fallbackSize: () => number,
  ) {}

  addState(s: StateRec): void {
    const comm = this.roles.comm(s.line);
    let byComm = this.byCategory.get(s.cat);
    if (byComm === undefined) this.byCategory.set(s.cat, (byComm = new Map()));
    let at = byComm.get(comm);
    if (at === undefined) byComm.set(comm, (at = { calls: new Map(), open: new Map() }));
    const rank = this.roles.commRank(s.line);
    const k = at.calls.get(rank) ?? 0;
    at.calls.set(rank, k + 1);
    let inst = at.open.get(k);
    if (inst === undefined) {
      inst = { members: [], expected: this.roles.commSize(comm) ?? this.fallbackSize() };
      at.open.set(k, inst);
      this.opened.add(inst);
    }
    inst.members.push(s);
    if (inst.members.length >= inst.expected) {
      at.open.delete(k);
      this.opened.delete(inst);
      this.evaluate(inst.members);
    }
  }

  finish(): void {
    for (const inst of this.opened) {
      this.incomplete++;
      if (inst.members.length > 1) this.evaluate(inst.members);
    }
    this.opened.clear();
    this.byCategory.clear();
  }

  private evaluate(members: readonly StateRec[]): void {
    this.instances++;
    const kind = members[0]!.kind;
    if (kind === 'barrier' || kind === 'nxn') {
      const latest = pick(members, (a, b) => a.enter > b.enter);
      const pattern = kind === 'barrier' ? 'waitAtBarrier' : 'waitAtNxN';
      for (const m of members) {
        if (m === latest) continue;
        const until = Math.min(latest.enter, m.exit);
        this.recorder.record(pattern, m, until - m.enter, { loc: latest.loc, line: latest.line, name: latest.name, time: until });
      }
    } else if (kind === 'oneToN') {
      this.rootInferred++;
      const root = pick(members, (a, b) => a.exit < b.exit);
      for (const m of members) {
        if (m === root) continue;
        const until = Math.min(root.enter, m.exit);
        this.recorder.record('lateBroadcast', m, until - m.enter, { loc: root.loc, line: root.line, name: root.name, time: until });
      }
    } else if (kind === 'nToOne') {
      this.rootInferred++;
      const root = pick(members, (a, b) => a.exit > b.exit);
      const senders = members.filter((m) => m !== root);
      if (senders.length === 0) return;
      const latest = pick(senders, (a, b) => a.enter > b.enter);
      const until = Math.min(latest.enter, root.exit);
      this.recorder.record('earlyReduce', root, until - root.enter, { loc: latest.loc, line: latest.line, name: latest.name, time: until });
    }
  }
}

/** The member `better` prefers; ties go to the lowest process index (deterministic). */
function pick(members: readonly StateRec[], better: (a: StateRec, b: StateRec) => boolean): StateRec {
  let best = members[0]!;
  for (const m of members) if (better(m, best) || (!better(best, m) && m.loc < best.loc)) best = m;
  return best;
}
