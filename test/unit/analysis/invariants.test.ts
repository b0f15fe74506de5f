// Properties that hold on every real trace (test/fixtures): each wait fits inside its state,
// per-rank sums equal the totals, the critical path is a connected chain from the end of the run
// back to the first event of the process where it starts; ring_p2p_4's skewed message (sent
// 0.26399 s, received 0.26253 s) is a receive-before-send problem; SLOG-2 and its CLOG2 agree.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { PATTERNS, type AnalysisResult } from '../../../src/core/analysis';
import { fixture } from '../../helpers/paths';
import { analyzeClog2, analyzeSlog2 } from './analyzeUtil';

const SLOG2 = ['ring_p2p_4', 'collectives_8', 'grid_comms_16', 'pi_bcast_4', 'threads_2x3', 'user_states_4'];
const EPS = 1e-9;

function slog2Bytes(name: string): Uint8Array {
  const plain = fixture(`${name}.slog2`);
  if (fs.existsSync(plain)) return new Uint8Array(fs.readFileSync(plain));
  return new Uint8Array(gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
}

function checkInvariants(name: string, r: AnalysisResult): void {
  let instances = 0;
  for (const i of r.instances) {
    assert.ok(i.wait > 0 && i.wait <= i.exit - i.enter + EPS, `${name}: ${i.pattern} wait ${i.wait} in [${i.enter}, ${i.exit}]`);
    instances++;
  }
  assert.equal(r.instancesTruncated, false);
  let counted = 0;
  for (const p of PATTERNS) {
    const t = r.waitStates[p];
    counted += t.count;
    const byRank = Object.values(t.byRank).reduce((a, b) => a + b, 0);
    const byCategory = Object.values(t.byCategory).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(byRank - t.time) <= EPS * Math.max(1, t.time), `${name} ${p}: Σ byRank ${byRank} ≠ ${t.time}`);
    assert.ok(Math.abs(byCategory - t.time) <= EPS * Math.max(1, t.time), `${name} ${p}: Σ byCategory ${byCategory} ≠ ${t.time}`);
    // The (rank, state) split adds up to the rank totals and to the state totals.
    const rankOf = new Map<string, number>();
    const stateOf = new Map<string, number>();
    for (const [key, v] of Object.entries(t.byRankCategory)) {
      const [rank, state] = key.split('\u0000') as [string, string];
      rankOf.set(rank, (rankOf.get(rank) ?? 0) + v);
      stateOf.set(state, (stateOf.get(state) ?? 0) + v);
    }
    for (const [rank, v] of Object.entries(t.byRank)) assert.ok(Math.abs((rankOf.get(rank) ?? 0) - v) <= EPS * Math.max(1, v), `${name} ${p}: rank ${rank}`);
    for (const [state, v] of Object.entries(t.byCategory))
      assert.ok(Math.abs((stateOf.get(state) ?? 0) - v) <= EPS * Math.max(1, v), `${name} ${p}: state ${state}`);
    for (const i of r.instances.filter((x) => x.pattern === p)) assert.ok((t.byRankCategory[`${i.rank}\u0000${i.category}`] ?? 0) >= i.wait - EPS);
    const fromInstances = r.instances.filter((i) => i.pattern === p).reduce((a, i) => a + i.wait, 0);
    assert.ok(Math.abs(fromInstances - t.time) <= EPS * Math.max(1, t.time), `${name} ${p}: Σ instances ${fromInstances} ≠ ${t.time}`);
  }
  assert.equal(counted, instances, `${name}: counts`);
  const cp = r.criticalPath;
  assert.ok(cp.segments.length > 0, `${name}: empty critical path`);
  const s = cp.segments;
  for (let k = 0; k < s.length; k++) {
    assert.ok(s[k]!.from < s[k]!.to, `${name}: segment ${k} empty or reversed`);
    if (k > 0) assert.ok(Math.abs(s[k - 1]!.to - s[k]!.from) <= EPS, `${name}: gap between segments ${k - 1} and ${k}: ${s[k - 1]!.to} → ${s[k]!.from}`);
  }
  assert.ok(Math.abs(cp.length - (cp.end - cp.start)) <= EPS, `${name}: length ${cp.length} ≠ end − start ${cp.end - cp.start}`);
  const last = s[s.length - 1]!;
  assert.equal(last.to, cp.end);
  assert.ok(Math.abs(cp.end - r.range[1]) <= EPS, `${name}: path ends at ${cp.end}, the run at ${r.range[1]}`);
  const onPath = Object.values(cp.byCategory).reduce((a, b) => a + b, 0);
  assert.ok(onPath <= cp.length + EPS, `${name}: composition ${onPath} > length ${cp.length}`);
}

for (const name of SLOG2) {
  test(`invariants on ${name}.slog2`, async () => {
    checkInvariants(name, await analyzeSlog2(slog2Bytes(name), name));
  });
}

test('invariants on bigrun_medium_4.slog2.gz (60 k drawables)', async () => {
  checkInvariants('bigrun_medium_4', await analyzeSlog2(slog2Bytes('bigrun_medium_4'), 'bigrun_medium_4'));
});

test('ring_p2p_4: the skewed message (send 0.26399 s → receive 0.26253 s) is a receive-before-send problem', async () => {
  const r = await analyzeSlog2(slog2Bytes('ring_p2p_4'), 'ring_p2p_4');
  const p = r.problems.find((x) => x.kind === 'receive-before-send');
  assert.ok(p !== undefined, 'no receive-before-send problem');
  assert.equal(p.count, 1);
  const i = p.instances[0]!;
  assert.equal(i.endTime.toFixed(5), '0.26399');
  assert.equal(i.time.toFixed(5), '0.26253');
  assert.deepEqual(i.lineIDs, [0, 2]);
  assert.ok(p.skewByPair?.['0->2'] !== undefined && Math.abs(p.skewByPair['0->2'] - (i.endTime - i.time)) < 1e-15);
  assert.equal(r.messages.excludedReceiveBeforeSend, 1);
  // 61 arrows in the reference dump, one is the skewed one; all are matched messages.
  assert.equal(r.messages.matched, 60);
});

for (const name of ['ring_p2p_4', 'collectives_8', 'pi_bcast_4']) {
  test(`${name}: the CLOG2 and its SLOG-2 give the same wait states`, async () => {
    const fromClog = await analyzeClog2(new Uint8Array(fs.readFileSync(fixture(`${name}.clog2`))));
    const fromSlog = await analyzeSlog2(slog2Bytes(name), name);
    checkInvariants(`${name}.clog2`, fromClog);
    for (const p of PATTERNS) {
      assert.equal(fromClog.waitStates[p].count, fromSlog.waitStates[p].count, `${name} ${p} count`);
      // SLOG-2 stores f64 times as the reference does; the two agree to float precision.
      assert.ok(Math.abs(fromClog.waitStates[p].time - fromSlog.waitStates[p].time) < 1e-9, `${name} ${p} time`);
    }
  });
}
