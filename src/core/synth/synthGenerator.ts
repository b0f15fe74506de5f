/**
 * The synthetic trace generator's machinery (synthClog2.ts models the program): the per-rank
 * record queues of one iteration merged by time into CLOG2 blocks, the state and event ids of
 * the modelled program, and the cargo and SRCLOC encodings.
 */
import { Prng } from './prng';
import type { KnownState } from './mpeStates';
import type { SynthExpectation, SynthOptions, SynthStretch } from './synthClog2';

export const USER_STATES = [
  { name: 'Phase', color: 'red', format: '' },
  { name: 'Solve', color: 'forest green', format: '' },
  { name: 'Kernel', color: 'SteelBlue', format: '' },
  { name: 'Compute', color: 'gold', format: 'iter=%d residual=%E' },
  { name: 'ThreadWork', color: 'LightSeaGreen', format: '' },
] as const;
export const USER_SOLO = [
  { name: 'Tick', color: 'red', format: '' },
  { name: 'Progress', color: 'cyan', format: 'step %d: %s' },
] as const;
export const PHASE = 600;
export const SOLVE = 602;
export const KERNEL = 604;
export const COMPUTE = 606;
export const THREADWORK = 608;
export const TICK = 5000;
export const PROGRESS = 5001;
export const SEND = -101;
export const RECEIVE = -102;
export const SIZES = [0, 8, 64, 512, 4096, 65536];
/** Wide enough for today's largest jobs' timelines (16 384 ranks in the benches); the CLOG2 rank fields are i32. */
export const MAX_RANKS = 131072;

/** Largest value (a loop: spreading 10⁵ arguments overflows the stack). */
export function maxOf(xs: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < xs.length; i++) if (xs[i]! > m) m = xs[i]!;
  return m;
}
export const FILE = 'synth_program.c';

export const enum Kind {
  Bare,
  Cargo,
  Msg,
  Srcloc,
}

/** One pending record of the current iteration. */
export interface Rec {
  readonly t: number;
  readonly seq: number;
  readonly kind: Kind;
  readonly rank: number;
  readonly thread: number;
  readonly etype: number;
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  readonly info: Uint8Array | undefined;
  /** Logged on a sub-communicator (header icomm = its LID, rank = the comm rank), else on world. */
  readonly comm: SubComm | undefined;
}

/** A process's membership in a sub-communicator. */
export interface SubComm {
  readonly lid: number;
  readonly rank: number;
}

export class Generator {
  readonly rng: Prng;
  readonly ranks: number;
  readonly threads: number;
  readonly srcloc: boolean;
  readonly stretch: SynthStretch | undefined;
  /** Per world rank: its half-communicator (made by MPI_Comm_split at init), when enabled. */
  readonly halves: SubComm[] | undefined;
  readonly recs: Rec[] = [];
  private seq = 0;
  readonly expect = new Map<string, SynthExpectation>();
  readonly usedStates = new Set<KnownState>();
  srclocRecords = 0;
  readonly srclocSites = new Set<number>();
  /** Pending SRCLOC per (rank, thread): the next event of that process takes it. */
  private readonly pendingLoc = new Set<number>();
  /** Open states per (rank, thread): [category name, had a start location]. */
  private readonly stacks = new Map<number, { name: string; sourced: boolean }[]>();

  constructor(o: SynthOptions) {
    this.rng = new Prng(o.seed ?? 1);
    this.ranks = o.ranks;
    this.threads = o.threads ?? 1;
    this.srcloc = o.srcloc === true;
    this.stretch = o.stretch;
    if (o.subComms === true && o.ranks >= 2) {
      // Ranks [0, h) and [h, R) split into two communicators with LIDs R+1 and R+2 (after world
      // and the R MPI_COMM_SELFs, as MPE numbers them in a merged file).
      const h = Math.ceil(o.ranks / 2);
      this.halves = Array.from({ length: o.ranks }, (_, r) => (r < h ? { lid: o.ranks + 1, rank: r } : { lid: o.ranks + 2, rank: r - h }));
    }
  }

  private expectation(name: string, kind: 'state' | 'arrow' | 'event'): SynthExpectation {
    let e = this.expect.get(name);
    if (e === undefined) this.expect.set(name, (e = { kind, count: 0, sourcedStart: 0, sourcedEnd: 0 }));
    return e;
  }

  private push(t: number, kind: Kind, rank: number, thread: number, etype: number, a = 0, b = 0, c = 0, d = 0, info?: Uint8Array, comm?: SubComm): void {
    this.recs.push({ t, seq: this.seq++, kind, rank, thread, etype, a, b, c, d, info, comm });
  }

  /** Takes the pending location of (rank, thread), like the reader's rule. */
  private take(rank: number, thread: number): boolean {
    const key = rank * this.threads + thread;
    return this.pendingLoc.delete(key);
  }

  loc(t: number, rank: number, thread: number, line: number): void {
    if (!this.srcloc) return;
    this.push(t, Kind.Srcloc, rank, thread, 0, line);
    this.pendingLoc.add(rank * this.threads + thread);
    this.srclocRecords++;
    this.srclocSites.add(line);
  }

  begin(t: number, rank: number, thread: number, etype: number, name: string, known?: KnownState, comm?: SubComm): void {
    if (known) this.usedStates.add(known);
    const sourced = this.take(rank, thread);
    this.push(t, Kind.Bare, rank, thread, etype, 0, 0, 0, 0, undefined, comm);
    const key = rank * this.threads + thread;
    let s = this.stacks.get(key);
    if (s === undefined) this.stacks.set(key, (s = []));
    s.push({ name, sourced });
  }

  end(t: number, rank: number, thread: number, etype: number, info?: Uint8Array, comm?: SubComm): void {
    const sourced = this.take(rank, thread);
    this.push(t, info ? Kind.Cargo : Kind.Bare, rank, thread, etype, 0, 0, 0, 0, info, comm);
    const s = this.stacks.get(rank * this.threads + thread)!.pop()!;
    const e = this.expectation(s.name, 'state');
    e.count++;
    if (s.sourced) e.sourcedStart++;
    if (sourced) e.sourcedEnd++;
  }

  solo(t: number, rank: number, thread: number, etype: number, name: string, info?: Uint8Array, comm?: SubComm): void {
    const sourced = this.take(rank, thread);
    this.push(t, info ? Kind.Cargo : Kind.Bare, rank, thread, etype, 0, 0, 0, 0, info, comm);
    const e = this.expectation(name, 'event');
    e.count++;
    if (sourced) e.sourcedStart++;
  }

  /** A send MSGEVT; the arrow is counted at the matching receive. */
  send(t: number, rank: number, thread: number, to: number, tag: number, size: number): void {
    this.take(rank, thread);
    this.push(t, Kind.Msg, rank, thread, SEND, 0, to, tag, size);
  }

  receive(t: number, rank: number, thread: number, from: number, tag: number, size: number): void {
    this.take(rank, thread);
    this.push(t, Kind.Msg, rank, thread, RECEIVE, 0, from, tag, size);
    this.expectation('message', 'arrow').count++;
  }

  /** Sorts this iteration's records by time (stable: per-process order is kept). */
  sorted(): Rec[] {
    return this.recs.sort((x, y) => x.t - y.t || x.seq - y.seq);
  }

  /** The length factor of `category` on `rank` (1 unless stretched). */
  factor(category: SynthStretch['category'], rank: number): number {
    const s = this.stretch;
    return s !== undefined && s.category === category && (s.rank === undefined || s.rank === rank) ? s.factor : 1;
  }

  dt(lo: number, hi: number): number {
    return lo + this.rng.next() * (hi - lo);
  }
}

export function cargo(parts: (['d', number] | ['E', number] | ['s', string])[]): Uint8Array {
  const b = new Uint8Array(32);
  const dv = new DataView(b.buffer);
  let p = 0;
  for (const [t, v] of parts) {
    if (t === 'd') {
      dv.setInt32(p, v);
      p += 4;
    } else if (t === 'E') {
      dv.setFloat64(p, v);
      p += 8;
    } else {
      const n = Math.min(v.length, 32 - p - 2);
      dv.setInt16(p, n);
      for (let i = 0; i < n; i++) b[p + 2 + i] = v.charCodeAt(i);
      p += 2 + n;
    }
  }
  return b;
}

export function gid(rng: Prng, time: number, le: boolean): Uint8Array {
  const b = new Uint8Array(32);
  const dv = new DataView(b.buffer);
  dv.setInt32(0, rng.int(0, 0x7fffffff), le);
  dv.setFloat64(4, time, le);
  const host = 'synthhost';
  for (let i = 0; i < host.length; i++) b[12 + i] = host.charCodeAt(i);
  return b;
}

/** Generates one iteration for every rank starting at `base`; returns the iteration end time. */
