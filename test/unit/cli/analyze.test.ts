// `mpe-trace analyze`: the JSON keys the issue fixes, on SLOG-2 and on a hand-built CLOG2 (through
// the same open path as the other commands), the range options, and usage errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fixture } from '../../helpers/paths';
import { HandTrace } from '../analysis/handTrace';
import { runCli } from './runCli';

const PATTERN_KEYS = ['lateSender', 'lateReceiver', 'waitAtBarrier', 'waitAtNxN', 'lateBroadcast', 'earlyReduce'];
const KINDS = new Set(['unmatched-message', 'receive-before-send', 'time-order', 'unknown-category', 'truncated', 'dropped-record']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function checkShape(j: any): void {
  assert.deepEqual(Object.keys(j.waitStates), PATTERN_KEYS);
  for (const k of PATTERN_KEYS) {
    const w = j.waitStates[k];
    for (const key of ['time', 'count', 'byRank', 'byCategory', 'byRankAndState']) assert.ok(key in w, `${k}.${key}`);
    assert.equal(typeof w.time, 'number');
    // The (rank, state) split adds up to each rank's total; no internal keys leak into the JSON.
    assert.ok(!('byRankCategory' in w));
    for (const [rank, states] of Object.entries(w.byRankAndState as Record<string, Record<string, number>>)) {
      const sum = Object.values(states).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - w.byRank[rank]) <= 1e-9 * Math.max(1, sum), `${k} rank ${rank}: ${sum} vs ${w.byRank[rank]}`);
    }
  }
  assert.equal(typeof j.criticalPath.length, 'number');
  assert.equal(typeof j.criticalPath.byCategory, 'object');
  assert.ok(Array.isArray(j.problems));
  for (const p of j.problems) {
    assert.ok(KINDS.has(p.kind), p.kind);
    assert.equal(typeof p.count, 'number');
  }
}

test('analyze --json on ring_p2p_4.slog2: keys, the skewed message, late senders', () => {
  const r = runCli(['analyze', fixture('ring_p2p_4.slog2'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  checkShape(j);
  assert.deepEqual(
    j.problems.map((p: { kind: string; count: number }) => [p.kind, p.count]),
    [['receive-before-send', 1]],
  );
  assert.ok(j.waitStates.lateSender.count > 0);
  assert.ok(j.criticalPath.length > 0.3 && j.criticalPath.length <= 0.332);
});

test('analyze on a hand-built CLOG2: late sender 2.0 s and an unmatched send; --from/--to restricts', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-analyze-'));
  try {
    const file = path.join(dir, 'late.clog2');
    const t = new HandTrace(2)
      .state(1, 'MPI_Recv', 1.0, 3.05)
      .recv(1, 3.04, 0)
      .state(0, 'MPI_Send', 3.0, 3.01)
      .send(0, 3.001, 1)
      .state(0, 'MPI_Send', 4.0, 4.1)
      .send(0, 4.05, 1);
    {
      fs.writeFileSync(file, await t.bytes());
      const r = runCli(['analyze', file, '--json']);
      assert.equal(r.status, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      checkShape(j);
      assert.ok(Math.abs(j.waitStates.lateSender.time - 2.0) < 1e-9);
      assert.deepEqual(j.waitStates.lateSender.byRank, { '1': j.waitStates.lateSender.time });
      assert.deepEqual(
        j.problems.map((p: { kind: string; count: number }) => [p.kind, p.count]),
        [['unmatched-message', 1]],
      );
      const late = runCli(['analyze', file, '--json', '--from', '3.5', '--to', '5']);
      assert.equal(late.status, 0, late.stderr);
      assert.equal(JSON.parse(late.stdout).waitStates.lateSender.count, 0);
      const text = runCli(['analyze', file]);
      assert.equal(text.status, 0, text.stderr);
      assert.match(text.stdout, /lateSender\s+2\.000\s+1\s+1 2\.000/);
      assert.match(text.stdout, /problem unmatched-message \(1\)/);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('analyze usage errors', () => {
  const r = runCli(['analyze']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /^mpe-trace: analyze needs exactly one FILE\nusage: mpe-trace analyze /);
  assert.doesNotMatch(r.stderr, /\\x0a/, 'the usage text is printed as lines, not escaped');
  // an argument quoted in the message is still escaped: one line, then the usage
  const quoted = runCli(['synth', 'odd\nname']);
  assert.notEqual(quoted.status, 0);
  assert.match(quoted.stderr, /^mpe-trace: unexpected argument odd\\x0aname\nusage: mpe-trace synth /);
  const bad = runCli(['analyze', fixture('ring_p2p_4.slog2'), '--from', '2', '--to', '1']);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--from 2 is after --to 1/);
});
