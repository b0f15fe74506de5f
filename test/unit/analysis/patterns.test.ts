// Wait-state patterns on hand-built CLOG2 traces with answers worked out by hand from the record
// times (../shared/notes/analysis.md §1 definitions): blocking and non-blocking late sender, late
// receiver on MPI_Ssend, barrier and N×N with staggered entries, late broadcast, early reduce, a
// skewed message (excluded and reported) and an unmatched send; and the §2.3 critical path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PATTERNS, type AnalysisResult, type Pattern } from '../../../src/core/analysis';
import { analyzeClog2 } from './analyzeUtil';
import { HandTrace } from './handTrace';

const EPS = 1e-9;

function near(actual: number | undefined, expected: number, what: string): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= EPS, `${what}: expected ${expected}, got ${actual}`);
}

/** Only `pattern` has waits, with exactly these per-rank seconds. */
function expectOnly(r: AnalysisResult, pattern: Pattern, byRank: Record<string, number>, category: string): void {
  for (const p of PATTERNS) {
    const t = r.waitStates[p];
    if (p !== pattern) {
      assert.equal(t.count, 0, `${p} should have no waits, has ${JSON.stringify(t)}`);
      continue;
    }
    const total = Object.values(byRank).reduce((a, b) => a + b, 0);
    near(t.time, total, `${p} total`);
    assert.equal(t.count, Object.keys(byRank).length, `${p} count`);
    assert.deepEqual(Object.keys(t.byRank).sort(), Object.keys(byRank).sort());
    for (const [rank, w] of Object.entries(byRank)) near(t.byRank[rank], w, `${p} rank ${rank}`);
    assert.deepEqual(Object.keys(t.byCategory), [category]);
    near(t.byCategory[category], total, `${p} ${category}`);
  }
}

test('blocking late sender: MPI_Recv entered 2.0 s before the matching MPI_Send', async () => {
  const t = new HandTrace(2).state(1, 'MPI_Recv', 1.0, 3.05).recv(1, 3.04, 0).state(0, 'MPI_Send', 3.0, 3.01).send(0, 3.001, 1);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'lateSender', { '1': 2.0 }, 'MPI_Recv');
  const i = r.instances[0]!;
  assert.equal(i.causer.rank, '0');
  assert.equal(i.causer.category, 'MPI_Send');
  near(i.causer.time, 3.0, 'causer time');
  near(i.enter, 1.0, 'enter');
  assert.equal(r.problems.length, 0);
});

test('non-blocking late sender: MPI_Waitall completing two Irecvs (MPE_Irecv_waited) charges the latest sender only', async () => {
  const t = new HandTrace(3)
    .state(1, 'MPI_Irecv', 0.1, 0.11)
    .state(1, 'MPI_Irecv', 0.2, 0.21)
    .state(0, 'MPI_Isend', 0.5, 0.51)
    .send(0, 0.501, 1, 7)
    .state(1, 'MPI_Waitall', 1.0, 2.05)
    .state(2, 'MPI_Isend', 2.0, 2.01)
    .send(2, 2.001, 1, 7)
    .state(1, 'MPE_Irecv_waited', 2.04, 2.041)
    .recv(1, 2.0405, 0, 7)
    .state(1, 'MPE_Irecv_waited', 2.045, 2.046)
    .recv(1, 2.0455, 2, 7);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'lateSender', { '1': 1.0 }, 'MPI_Waitall');
  assert.equal(r.instances[0]!.causer.rank, '2');
  assert.equal(r.messages.matched, 2);
});

test('non-blocking late sender through MPI_Wait', async () => {
  const t = new HandTrace(2)
    .state(1, 'MPI_Irecv', 0.1, 0.11)
    .state(1, 'MPI_Wait', 0.5, 1.25)
    .state(0, 'MPI_Isend', 1.0, 1.01)
    .send(0, 1.001, 1)
    .state(1, 'MPE_Irecv_waited', 1.24, 1.2401)
    .recv(1, 1.24005, 0);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'lateSender', { '1': 0.5 }, 'MPI_Wait');
});

test('late receiver: MPI_Ssend waits 1.5 s for the MPI_Recv to be posted', async () => {
  const t = new HandTrace(2).state(0, 'MPI_Ssend', 1.0, 2.6).send(0, 1.001, 1).state(1, 'MPI_Recv', 2.5, 2.6).recv(1, 2.599, 0);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'lateReceiver', { '0': 1.5 }, 'MPI_Ssend');
  assert.equal(r.instances[0]!.causer.rank, '1');
  near(r.instances[0]!.causer.time, 2.5, 'causer time');
});

test('late receiver against MPI_Sendrecv: MPI_Ssend waits 0.7 s for the Sendrecv that receives it', async () => {
  // Rank 1's Sendrecv [1.7, 2.6] receives rank 0's Ssend [1.0, 2.6] (and sends to rank 0, received by an early Recv there).
  const t = new HandTrace(2)
    .state(0, 'MPI_Ssend', 1.0, 2.6)
    .send(0, 1.001, 1)
    .state(1, 'MPI_Sendrecv', 1.7, 2.6)
    .send(1, 1.701, 0, 5)
    .recv(1, 2.599, 0)
    .state(0, 'MPI_Recv', 2.61, 2.7)
    .recv(0, 2.69, 1, 5);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'lateReceiver', { '0': 0.7 }, 'MPI_Ssend');
  assert.equal(r.instances[0]!.causer.category, 'MPI_Sendrecv');
  near(r.instances[0]!.causer.time, 1.7, 'causer time');
});

test('an eager MPI_Send that returned before the receive was posted is no late receiver', async () => {
  const t = new HandTrace(2).state(0, 'MPI_Send', 1.0, 1.01).send(0, 1.001, 1).state(1, 'MPI_Recv', 2.5, 2.6).recv(1, 2.599, 0);
  const r = await analyzeClog2(await t.bytes());
  for (const p of PATTERNS) assert.equal(r.waitStates[p].count, 0, p);
});

test('wait at barrier with staggered entries 1.0, 1.5, 2.0 (all leave at 2.1)', async () => {
  const t = new HandTrace(3).state(0, 'MPI_Barrier', 1.0, 2.1).state(1, 'MPI_Barrier', 1.5, 2.1).state(2, 'MPI_Barrier', 2.0, 2.1);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'waitAtBarrier', { '0': 1.0, '1': 0.5 }, 'MPI_Barrier');
  assert.ok(r.instances.every((i) => i.causer.rank === '2'));
  assert.equal(r.collectives.instances, 1);
});

test('wait at N×N: MPI_Allreduce with E = [1.0, 1.2, 2.0, 1.5] waits 1.0, 0.8, 0, 0.5 (2.3 s)', async () => {
  const t = new HandTrace(4)
    .state(0, 'MPI_Allreduce', 1.0, 2.1)
    .state(1, 'MPI_Allreduce', 1.2, 2.1)
    .state(2, 'MPI_Allreduce', 2.0, 2.12)
    .state(3, 'MPI_Allreduce', 1.5, 2.11);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'waitAtNxN', { '0': 1.0, '1': 0.8, '3': 0.5 }, 'MPI_Allreduce');
  near(r.waitStates.waitAtNxN.time, 2.3, 'total');
});

test('collective instances are the k-th call on each rank: two barriers, the second staggered the other way', async () => {
  const t = new HandTrace(2)
    .state(0, 'MPI_Barrier', 1.0, 1.4)
    .state(1, 'MPI_Barrier', 1.3, 1.4)
    .state(0, 'MPI_Barrier', 2.0, 2.5)
    .state(1, 'MPI_Barrier', 1.6, 2.5);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'waitAtBarrier', { '0': 0.3, '1': 0.4 }, 'MPI_Barrier');
  assert.equal(r.waitStates.waitAtBarrier.count, 2);
});

test('late broadcast: rank 1 enters MPI_Bcast 2.0 s before the root (root inferred: first to leave)', async () => {
  const t = new HandTrace(3).state(0, 'MPI_Bcast', 3.0, 3.1).state(1, 'MPI_Bcast', 1.0, 3.2).state(2, 'MPI_Bcast', 3.5, 3.6);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'lateBroadcast', { '1': 2.0 }, 'MPI_Bcast');
  assert.equal(r.instances[0]!.causer.rank, '0');
  assert.equal(r.collectives.rootInferred, 1);
});

test('early reduce: the root enters MPI_Reduce at 1.0, the last sender at 2.5 → 1.5 s', async () => {
  const t = new HandTrace(3).state(0, 'MPI_Reduce', 1.0, 2.6).state(1, 'MPI_Reduce', 2.5, 2.55).state(2, 'MPI_Reduce', 1.8, 1.9);
  const r = await analyzeClog2(await t.bytes());
  expectOnly(r, 'earlyReduce', { '0': 1.5 }, 'MPI_Reduce');
  assert.equal(r.instances[0]!.causer.rank, '1');
});

test('a message received before it was sent is reported with its skew and left out of the wait states', async () => {
  const t = new HandTrace(2).state(1, 'MPI_Recv', 1.0, 1.9).recv(1, 1.899, 0).state(0, 'MPI_Send', 2.0, 2.01).send(0, 2.005, 1);
  const r = await analyzeClog2(await t.bytes());
  for (const p of PATTERNS) assert.equal(r.waitStates[p].count, 0, p);
  const p = r.problems.find((x) => x.kind === 'receive-before-send');
  assert.ok(p !== undefined);
  assert.equal(p.count, 1);
  near(p.skewByPair?.['0->1'], 0.106, 'skew');
  near(p.instances[0]!.time, 1.899, 'receive time');
  near(p.instances[0]!.endTime, 2.005, 'send time');
  assert.deepEqual(p.instances[0]!.lineIDs, [0, 1]);
  assert.equal(r.messages.excludedReceiveBeforeSend, 1);
});

test('an unmatched send is a problem (from the CLOG2 conversion) and no wait', async () => {
  const t = new HandTrace(2).state(0, 'MPI_Send', 1.0, 1.1).send(0, 1.05, 1).state(1, 'MPI_Recv', 0.5, 2.0);
  const r = await analyzeClog2(await t.bytes());
  const p = r.problems.find((x) => x.kind === 'unmatched-message');
  assert.equal(p?.count, 1);
  assert.equal(r.messages.matched, 0);
  for (const q of PATTERNS) assert.equal(r.waitStates[q].count, 0, q);
});

test('critical path of the §2.3 example: rank 1 phase A (1.5 s), then rank 0 from its Allreduce (0.1 s) and phase B (2.0 s)', async () => {
  const t = new HandTrace(3);
  const a = [1.0, 1.5, 1.2];
  const end = [3.6, 2.6, 2.6];
  for (let r = 0; r < 3; r++) t.state(r, 'Compute', 0, a[r]!).state(r, 'MPI_Allreduce', a[r]!, 1.6).state(r, 'Compute', 1.6, end[r]!);
  const r = await analyzeClog2(await t.bytes());
  const cp = r.criticalPath;
  near(cp.length, 3.6, 'length');
  assert.deepEqual(
    cp.segments.map((s) => [s.rank, s.from, s.to]),
    [
      ['1', 0, 1.5],
      ['0', 1.5, 3.6],
    ],
  );
  near(cp.byCategory.Compute, 3.5, 'Compute on the path');
  near(cp.byCategory.MPI_Allreduce, 0.1, 'Allreduce on the path');
  near(cp.byRank['1'], 1.5, 'rank 1');
  near(cp.byRank['0'], 2.1, 'rank 0');
  // Compute: 3.5 on the path − mean(3.0, 2.5, 2.2) per process.
  near(cp.imbalance.Compute, 3.5 - 7.7 / 3, 'imbalance');
  assert.equal(cp.imbalance.MPI_Allreduce, undefined);
});

test('the popup sentence of a late sender: "2 s of 2.05 s waiting for rank 0\'s MPI_Send at 3 s"', async () => {
  const { waitSentence, goToLabel } = await import('../../../src/core/analysis/waitText');
  const t = new HandTrace(2).state(1, 'MPI_Recv', 1.0, 3.05).recv(1, 3.04, 0).state(0, 'MPI_Send', 3.0, 3.01).send(0, 3.001, 1);
  const r = await analyzeClog2(await t.bytes());
  assert.equal(waitSentence(r.instances[0]!), "2 s of 2.05 s waiting for rank 0's MPI_Send at 3 s (late sender)");
  assert.equal(goToLabel(r.instances[0]!), 'Go to sender');
});

test('states that overlap without nesting on one rank are a time-order problem', async () => {
  const t = new HandTrace(1).state(0, 'Compute', 1.0, 3.0).state(0, 'MPI_Barrier', 2.0, 4.0);
  const r = await analyzeClog2(await t.bytes());
  const p = r.problems.find((x) => x.kind === 'time-order');
  assert.equal(p?.count, 1);
  near(p?.instances[0]?.time, 2.0, 'start of the overlapping state');
  near(p?.instances[0]?.endTime, 4.0, 'its end');
});
