// The one request/reply helper: answers by id, stale answers dropped, cancellation tells the peer,
// a newer call under the same key supersedes the older, timeouts, failures as rejections or values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcChannel, type RpcFailure } from '../../../src/protocol/rpc';

class Failed extends Error {
  constructor(readonly failure: RpcFailure) {
    super(failure.message);
  }
}

function channel(): { rpc: RpcChannel<string, number>; sent: number[]; cancelled: number[] } {
  const sent: number[] = [];
  const cancelled: number[] = [];
  const rpc = new RpcChannel<string, number>(
    (f) => new Failed(f),
    (id) => cancelled.push(id),
  );
  return { rpc, sent, cancelled };
}

test('answers go to their call by id; a second answer or an unknown id is dropped', async () => {
  const { rpc, sent } = channel();
  const a = rpc.call((id) => sent.push(id));
  const b = rpc.call((id) => sent.push(id));
  assert.equal(sent.length, 2);
  assert.notEqual(sent[0], sent[1]);
  assert.equal(rpc.answer(sent[1]!, 'B'), true);
  assert.equal(rpc.answer(sent[0]!, 'A'), true);
  assert.equal(rpc.answer(sent[0]!, 'again'), false);
  assert.equal(rpc.answer(999, 'nobody'), false);
  assert.deepEqual(await Promise.all([a, b]), ['A', 'B']);
  assert.equal(rpc.size, 0);
});

test('progress reaches the call in flight only', async () => {
  const { rpc, sent } = channel();
  const seen: number[] = [];
  const a = rpc.call((id) => sent.push(id), { onProgress: (p) => seen.push(p) });
  assert.equal(rpc.progress(sent[0]!, 0.5), true);
  rpc.answer(sent[0]!, 'done');
  assert.equal(rpc.progress(sent[0]!, 0.9), false);
  await a;
  assert.deepEqual(seen, [0.5]);
});

test('abort rejects at once, tells the peer, and drops the late answer', async () => {
  const { rpc, sent, cancelled } = channel();
  const ac = new AbortController();
  const a = rpc.call((id) => sent.push(id), { signal: ac.signal });
  ac.abort();
  await assert.rejects(a, (e: unknown) => e instanceof Failed && e.failure.reason === 'cancelled');
  assert.deepEqual(cancelled, sent);
  assert.equal(rpc.answer(sent[0]!, 'late'), false);
  await assert.rejects(
    rpc.call(() => assert.fail('an aborted call is not sent'), { signal: ac.signal }),
    (e: unknown) => e instanceof Failed && e.failure.reason === 'cancelled',
  );
});

test('a newer call under the same key supersedes the older one', async () => {
  const { rpc, sent, cancelled } = channel();
  const first = rpc.call((id) => sent.push(id), { key: 'main' });
  const other = rpc.call((id) => sent.push(id), { key: 'overview' });
  const second = rpc.call((id) => sent.push(id), { key: 'main' });
  await assert.rejects(first, (e: unknown) => e instanceof Failed && e.failure.reason === 'superseded');
  assert.deepEqual(cancelled, [sent[0]]);
  assert.equal(rpc.answer(sent[0]!, 'stale'), false);
  rpc.answer(sent[2]!, 'fresh');
  rpc.answer(sent[1]!, 'ov');
  assert.equal(await second, 'fresh');
  assert.equal(await other, 'ov');
});

test('a call without an answer fails with timeout', async () => {
  const { rpc } = channel();
  const out = await rpc.outcome(() => undefined, { timeoutMs: 10 });
  assert.equal(out.ok, false);
  assert.equal(!out.ok && out.error.reason, 'timeout');
});

test('outcome: failures as values (the peer error, failAll), answers as values', async () => {
  const { rpc, sent } = channel();
  const ok = rpc.outcome((id) => sent.push(id));
  const bad = rpc.outcome((id) => sent.push(id));
  const dead = rpc.outcome((id) => sent.push(id));
  rpc.answer(sent[0]!, 'fine');
  rpc.fail(sent[1]!, { reason: 'failed', message: 'bad regex' });
  rpc.failAll({ reason: 'failed', message: 'worker exited' });
  assert.deepEqual(await ok, { ok: true, value: 'fine' });
  assert.deepEqual(await bad, { ok: false, error: { reason: 'failed', message: 'bad regex' } });
  assert.deepEqual(await dead, { ok: false, error: { reason: 'failed', message: 'worker exited' } });
  assert.equal(rpc.size, 0);
});
