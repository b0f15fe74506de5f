/**
 * A synthetic but realistic MPE trace generator (CLOG2, big-endian merged file), for benchmarks,
 * fuzzing and round-trip tests. It models the corpus programs: per iteration every rank runs nested
 * user states Phase ⊃ Solve ⊃ Kernel ⊃ MPI_Allreduce, an info state Compute (cargo on its end
 * event), a ring exchange (Irecv/Isend/Waitall with the send MSGEVT inside MPI_Isend and the
 * receive inside MPE_Irecv_waited), periodic blocking MPI_Send/MPI_Recv pairs and MPI_Bcast, solo
 * events Tick and cargo events Progress;
 * worker threads run ThreadWork ⊃ MPI_Sendrecv. Optional SRCLOC records precede the events they
 * describe. Definitions are placed as MPE places them (user ones at the start, MPI ones at the end).
 *
 * Records of one iteration are generated per rank in time order, then merged by time, so output is
 * globally time-sorted with memory bounded by one iteration. The report says what was written so a
 * reader can be checked against it.
 */
import { formatPreamble, MPE_EVENT_ID_LAYOUT } from '../formats/clog2/preamble';
import { Clog2BlockWriter } from './clog2Writer';
import { COMM_FINALIZE, COMM_INIT, MPI_STATES } from './mpeStates';

export type { SynthExpectation, SynthOptions, SynthReport, SynthStretch } from './synthOptions';
import type { SynthOptions, SynthReport } from './synthOptions';

/** User states in etype order (600 + 2i). */
import {
  COMPUTE,
  Generator,
  Kind,
  KERNEL,
  PHASE,
  PROGRESS,
  SIZES,
  SOLVE,
  THREADWORK,
  TICK,
  USER_SOLO,
  USER_STATES,
  cargo,
  gid,
  maxOf,
  FILE,
  MAX_RANKS,
} from './synthGenerator';
export { MAX_RANKS } from './synthGenerator';

function iteration(g: Generator, k: number, base: number): number {
  const R = g.ranks;
  const clock = new Float64Array(R);
  for (let r = 0; r < R; r++) clock[r] = base + g.dt(0, 5e-6);
  // Phase ⊃ Solve ⊃ Kernel ⊃ MPI_Allreduce.
  for (let r = 0; r < R; r++) {
    let t = clock[r]!;
    g.loc(t, r, 0, 40);
    g.begin((t += 1e-7), r, 0, PHASE, 'Phase');
    g.loc((t += 1e-7), r, 0, 42);
    g.begin((t += 1e-7), r, 0, SOLVE, 'Solve');
    g.loc((t += 1e-7), r, 0, 44);
    g.begin((t += 1e-7), r, 0, KERNEL, 'Kernel');
    t += g.dt(20e-6, 200e-6) * (1 + r / R) * g.factor('Kernel', r);
    g.begin(t, r, 0, MPI_STATES.allreduce.id * 2, 'MPI_Allreduce', MPI_STATES.allreduce);
    clock[r] = t;
  }
  let sync = maxOf(clock) + g.dt(2e-6, 20e-6);
  for (let r = 0; r < R; r++) {
    let t = sync + g.dt(0, 3e-6);
    g.end(t, r, 0, MPI_STATES.allreduce.id * 2 + 1);
    g.end((t += g.dt(1e-7, 1e-6)), r, 0, KERNEL + 1);
    g.end((t += g.dt(1e-7, 1e-6)), r, 0, SOLVE + 1);
    g.begin((t += 1e-7), r, 0, COMPUTE, 'Compute');
    t += g.dt(5e-6, 30e-6) * g.factor('Compute', r);
    g.end(
      t,
      r,
      0,
      COMPUTE + 1,
      cargo([
        ['d', k],
        ['E', 1 / (k + 1) + g.rng.next() * 1e-3],
      ]),
    );
    g.end((t += 1e-7), r, 0, PHASE + 1);
    clock[r] = t;
  }
  // Ring exchange: Irecv from the left, Isend to the right, Waitall with the receive inside it.
  if (R > 1) {
    const tag = 100 + (k % 32);
    const sendTime = new Float64Array(R);
    const sizes = new Int32Array(R);
    for (let r = 0; r < R; r++) {
      let t = clock[r]! + g.dt(1e-7, 2e-6);
      g.begin(t, r, 0, MPI_STATES.irecv.id * 2, 'MPI_Irecv', MPI_STATES.irecv);
      g.end((t += g.dt(5e-7, 3e-6)), r, 0, MPI_STATES.irecv.id * 2 + 1);
      g.begin((t += 1e-7), r, 0, MPI_STATES.isend.id * 2, 'MPI_Isend', MPI_STATES.isend);
      sizes[r] = g.rng.pick(SIZES);
      g.send((t += 1e-7), r, 0, (r + 1) % R, tag, sizes[r]!);
      sendTime[r] = t;
      g.end((t += g.dt(5e-7, 3e-6)), r, 0, MPI_STATES.isend.id * 2 + 1);
      clock[r] = t;
    }
    for (let r = 0; r < R; r++) {
      const from = (r - 1 + R) % R;
      let t = clock[r]! + 1e-7;
      g.begin(t, r, 0, MPI_STATES.waitall.id * 2, 'MPI_Waitall', MPI_STATES.waitall);
      t = Math.max(t + 1e-7, sendTime[from]! + g.dt(2e-6, 20e-6) + sizes[from]! * 1e-10);
      g.begin(t, r, 0, MPI_STATES.irecvWaited.id * 2, 'MPE_Irecv_waited', MPI_STATES.irecvWaited);
      g.receive((t += 1e-7), r, 0, from, tag, sizes[from]!);
      g.end((t += 1e-7), r, 0, MPI_STATES.irecvWaited.id * 2 + 1);
      g.end((t += g.dt(1e-7, 2e-6)), r, 0, MPI_STATES.waitall.id * 2 + 1);
      clock[r] = t;
    }
  }
  // Every 7th iteration a blocking exchange: even ranks MPI_Send to the next odd rank (the send
  // MSGEVT right after the state's start), which MPI_Recv's it (the receive MSGEVT just before the
  // state's end).
  if (k % 7 === 3) {
    for (let r = 0; r + 1 < R; r += 2) {
      const tag = 400 + (k % 8);
      const size = g.rng.pick(SIZES);
      let ts = clock[r]! + g.dt(1e-7, 1e-6);
      g.begin(ts, r, 0, MPI_STATES.send.id * 2, 'MPI_Send', MPI_STATES.send);
      g.send((ts += 1e-7), r, 0, r + 1, tag, size);
      const sent = ts;
      g.end((ts += g.dt(5e-7, 5e-6) + size * 1e-10), r, 0, MPI_STATES.send.id * 2 + 1);
      clock[r] = ts;
      let tr = clock[r + 1]! + g.dt(1e-7, 1e-6);
      g.begin(tr, r + 1, 0, MPI_STATES.recv.id * 2, 'MPI_Recv', MPI_STATES.recv);
      tr = Math.max(tr + 1e-7, sent + g.dt(2e-6, 20e-6) + size * 1e-10);
      g.receive(tr, r + 1, 0, r, tag, size);
      g.end((tr += 1e-7), r + 1, 0, MPI_STATES.recv.id * 2 + 1);
      clock[r + 1] = tr;
    }
  }
  // Every 4th iteration an MPI_Allreduce on each half-communicator (records on its LID).
  if (g.halves !== undefined && k % 4 === 1) {
    const halves = g.halves;
    for (let r = 0; r < R; r++) g.begin((clock[r]! += 1e-7), r, 0, MPI_STATES.allreduce.id * 2, 'MPI_Allreduce', MPI_STATES.allreduce, halves[r]);
    for (const lid of [R + 1, R + 2]) {
      const members = [...Array(R).keys()].filter((r) => halves[r]!.lid === lid);
      const done = maxOf(members.map((r) => clock[r]!)) + g.dt(2e-6, 10e-6);
      for (const r of members) g.end((clock[r] = done + g.dt(0, 2e-6)), r, 0, MPI_STATES.allreduce.id * 2 + 1, undefined, halves[r]);
    }
  }
  // A broadcast every 10 iterations.
  if (k % 10 === 0) {
    for (let r = 0; r < R; r++) g.begin((clock[r]! += 1e-7), r, 0, MPI_STATES.bcast.id * 2, 'MPI_Bcast', MPI_STATES.bcast);
    sync = maxOf(clock) + g.dt(2e-6, 10e-6);
    for (let r = 0; r < R; r++) g.end((clock[r] = sync + g.dt(0, 2e-6)), r, 0, MPI_STATES.bcast.id * 2 + 1);
  }
  // Solo events: Tick on one rank every 5 iterations, Progress (cargo) on every rank.
  for (let r = 0; r < R; r++) {
    let t = clock[r]!;
    if (k % 5 === 0 && r === (k / 5) % R) {
      g.loc((t += 1e-7), r, 0, 60);
      g.solo((t += 1e-7), r, 0, TICK, 'Tick');
    }
    g.loc((t += 1e-7), r, 0, 64);
    g.solo(
      (t += 1e-7),
      r,
      0,
      PROGRESS,
      'Progress',
      cargo([
        ['d', k],
        ['s', k % 2 ? 'odd' : 'even'],
      ]),
    );
    clock[r] = t;
  }
  // Worker threads: ThreadWork ⊃ MPI_Sendrecv around the ring, tag 1000 + thread.
  if (g.threads > 1 && R > 1) {
    for (let th = 1; th < g.threads; th++) {
      const sendTime = new Float64Array(R);
      const start = new Float64Array(R);
      for (let r = 0; r < R; r++) {
        let t = base + g.dt(1e-6, 50e-6);
        g.loc(t, r, th, 80);
        g.begin((t += 1e-7), r, th, THREADWORK, 'ThreadWork');
        g.begin((t += g.dt(1e-6, 10e-6)), r, th, MPI_STATES.sendrecv.id * 2, 'MPI_Sendrecv', MPI_STATES.sendrecv);
        g.send((t += 1e-7), r, th, (r + 1) % R, 1000 + th, 64);
        sendTime[r] = t;
        start[r] = t;
      }
      for (let r = 0; r < R; r++) {
        const from = (r - 1 + R) % R;
        let t = Math.max(start[r]! + 1e-7, sendTime[from]! + g.dt(2e-6, 20e-6));
        g.receive(t, r, th, from, 1000 + th, 64);
        g.end((t += 1e-7), r, th, MPI_STATES.sendrecv.id * 2 + 1);
        g.end((t += g.dt(1e-6, 5e-6)), r, th, THREADWORK + 1);
        if (t > clock[r]!) clock[r] = t;
      }
    }
  }
  return maxOf(clock) + g.dt(1e-6, 10e-6);
}

/** Writes a synthetic CLOG2 file to `options.sink`; returns what it wrote. */
export async function synthesizeClog2(options: SynthOptions): Promise<SynthReport> {
  const R = options.ranks;
  const T = options.threads ?? 1;
  if (!Number.isInteger(R) || R < 1 || R > MAX_RANKS) throw new RangeError(`ranks must be an integer in [1, ${MAX_RANKS}]`);
  if (!Number.isInteger(T) || T < 1 || T > 64) throw new RangeError('threads must be an integer in [1, 64]');
  const blockSize = options.blockSize ?? 65536;
  if (!Number.isInteger(blockSize) || blockSize < 1024 || blockSize % 8 !== 0) throw new RangeError('blockSize must be a multiple of 8, ≥ 1024');
  const seconds = options.seconds ?? (options.bytes === undefined && options.iterations === undefined ? 1 : Infinity);
  const st = options.stretch;
  if (st !== undefined && (!(st.factor > 0 && st.factor < 1e6) || (st.rank !== undefined && !(Number.isInteger(st.rank) && st.rank >= 0 && st.rank < R)))) {
    throw new RangeError('stretch needs a factor in (0, 1e6) and a rank of the run');
  }
  const delay = options.startDelay ?? 0;
  if (!(delay >= 0 && delay < 1e6)) throw new RangeError('startDelay must be in [0, 1e6) seconds');
  const maxBytes = options.bytes ?? Infinity;
  const g = new Generator(options);
  const le = options.littleEndian === true;
  const w = new Clog2BlockWriter(options.sink, blockSize, le);
  const userStates = T > 1 ? USER_STATES.length : USER_STATES.length - 1;
  const preambleFields = {
    isBigEndian: !le,
    isFinalized: true,
    blockSize,
    numBufferedBlocks: 128,
    maxCommWorldSize: R,
    maxThreadCount: T,
    ...MPE_EVENT_ID_LAYOUT,
    userStateIDCount: userStates,
    userSoloEventIDCount: USER_SOLO.length,
  };
  await w.raw(formatPreamble({ ...preambleFields, commtableFptr: 0 }));

  // MPI_Init on every rank: time shift, WORLD/SELF creation, MPE_Comm_init, Comm_rank/size.
  let t0 = 1e-6;
  const gids: Uint8Array[] = [gid(g.rng, t0, le)];
  for (let r = 0; r < R; r++) gids.push(gid(g.rng, t0 + r * 1e-6, le));
  if (g.halves !== undefined) for (let h = 0; h < 2; h++) gids.push(gid(g.rng, t0 + 1e-3 + h * 1e-6, le));
  for (let r = 0; r < R; r++) {
    const t = t0 + r * 2e-6;
    await w.timeshift(t, r, r === 0 ? -0 : -g.rng.next() * 1e-3);
    await w.comm(t, 0, r, 0, 0, 0, r, r, gids[0]!);
    await w.comm(t, 0, r, 0, 1, 1 + r, 0, r, gids[1 + r]!);
  }
  t0 += R * 2e-6;
  await w.constDef(t0, -1, 'MPI_PROC_NULL');
  await w.constDef(t0, -2, 'MPI_ANY_SOURCE');
  await w.constDef(t0, -1, 'MPI_ANY_TAG');
  for (let i = 0; i < userStates; i++) {
    const s = USER_STATES[i]!;
    await w.stateDef(t0, 0, 300 + i, 600 + 2 * i, 601 + 2 * i, s.color, s.name, s.format);
  }
  for (let i = 0; i < USER_SOLO.length; i++) await w.eventDef(t0, 0, 5000 + i, USER_SOLO[i]!.color, USER_SOLO[i]!.name, USER_SOLO[i]!.format);
  for (let r = 0; r < R; r++) {
    const t = t0 + 1e-6 + r * 1e-7;
    g.solo(t, r, 0, COMM_INIT.etype, COMM_INIT.name);
    g.begin(t + 1e-8, r, 0, MPI_STATES.commRank.id * 2, 'MPI_Comm_rank', MPI_STATES.commRank);
    g.end(t + 2e-8, r, 0, MPI_STATES.commRank.id * 2 + 1);
    g.begin(t + 3e-8, r, 0, MPI_STATES.commSize.id * 2, 'MPI_Comm_size', MPI_STATES.commSize);
    g.end(t + 4e-8, r, 0, MPI_STATES.commSize.id * 2 + 1);
  }
  await flushRecords(g, w);
  let tInit = t0 + 2e-6 + R * 1e-7;
  if (g.halves !== undefined) {
    // MPI_Comm_split: the state on world, the INTRA_CREATE COMMEVT, then MPE_Comm_init on the new comm.
    for (let r = 0; r < R; r++) {
      const half = g.halves[r]!;
      const t = tInit + r * 1e-7;
      g.begin(t, r, 0, MPI_STATES.commSplit.id * 2, 'MPI_Comm_split', MPI_STATES.commSplit);
      g.end(t + 3e-8, r, 0, MPI_STATES.commSplit.id * 2 + 1);
      g.solo(t + 4e-8, r, 0, COMM_INIT.etype, COMM_INIT.name, undefined, half);
    }
    // The COMMEVTs come before the records that use the new LIDs (same times, written first).
    for (let r = 0; r < R; r++) await w.comm(tInit + r * 1e-7, 0, r, 0, 100, g.halves[r]!.lid, g.halves[r]!.rank, r, gids[g.halves[r]!.lid]!);
    await flushRecords(g, w);
    tInit += R * 1e-7 + 1e-6;
  }

  let base = Math.max(tInit, t0 + 1e-5) + (options.startDelay ?? 0);
  let k = 0;
  const maxIterations = options.iterations ?? Infinity;
  while (base < seconds && w.written < maxBytes && k < maxIterations) {
    base = iteration(g, k++, base);
    await flushRecords(g, w);
  }
  // MPI_Finalize: MPE_Comm_finalize on every rank, then rank 0 writes the MPI state definitions.
  for (let r = 0; r < R; r++) g.solo(base + r * 1e-7, r, 0, COMM_FINALIZE.etype, COMM_FINALIZE.name);
  await flushRecords(g, w);
  const tEnd = base + R * 1e-7 + 1e-6;
  for (const s of [...g.usedStates].sort((a, b) => a.id - b.id)) await w.stateDef(tEnd, 0, s.id, 2 * s.id, 2 * s.id + 1, s.color, s.name);
  await w.eventDef(tEnd, 0, COMM_INIT.etype, COMM_INIT.color, COMM_INIT.name);
  await w.eventDef(tEnd, 0, COMM_FINALIZE.etype, COMM_FINALIZE.color, COMM_FINALIZE.name);
  await w.endLog();

  // Communicator table: world, every process's MPI_COMM_SELF, then the two halves if any.
  const commtableFptr = w.written;
  const comms = gids.length;
  const table = new Uint8Array(4 + 40 * comms);
  const dv = new DataView(table.buffer);
  dv.setInt32(0, comms, le);
  for (let i = 0; i < comms; i++) {
    table.set(gids[i]!, 4 + 40 * i);
    dv.setInt32(4 + 40 * i + 32, i, le);
    dv.setInt32(4 + 40 * i + 36, 1, le);
  }
  await w.raw(table);
  if (options.rewritePreamble) await options.rewritePreamble(formatPreamble({ ...preambleFields, commtableFptr }));

  const names = ['ENDLOG', 'ENDBLOCK', 'STATEDEF', 'EVENTDEF', 'CONSTDEF', 'BAREEVT', 'CARGOEVT', 'MSGEVT', 'COLLEVT', 'COMMEVT', 'SRCLOC', 'TIMESHIFT'];
  const records: Record<string, number> = {};
  w.recordCounts.forEach((n, i) => {
    if (n > 0) records[names[i]!] = n;
  });
  return {
    bytes: w.written,
    blocks: w.blocks,
    iterations: k,
    records,
    drawables: g.expect,
    srclocRecords: g.srclocRecords,
    srclocSites: g.srclocSites.size,
    commtableFptr,
  };
}

async function flushRecords(g: Generator, w: Clog2BlockWriter): Promise<void> {
  const recs = g.sorted();
  for (const r of recs) {
    switch (r.kind) {
      case Kind.Bare:
        await w.bare(r.t, r.comm?.lid ?? 0, r.comm?.rank ?? r.rank, r.thread, r.etype);
        break;
      case Kind.Cargo:
        await w.cargo(r.t, r.comm?.lid ?? 0, r.comm?.rank ?? r.rank, r.thread, r.etype, r.info!);
        break;
      case Kind.Msg:
        await w.msg(r.t, 0, r.rank, r.thread, r.etype, 0, r.b, r.c, r.d);
        break;
      case Kind.Srcloc:
        await w.srcloc(r.t, r.rank, r.thread, r.a, r.a, FILE);
        break;
    }
  }
  g.recs.length = 0;
}
