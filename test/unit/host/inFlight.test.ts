// Shared background work (the row index build): one run per key, joined by later callers, and
// waiters that can stop waiting without stopping the work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InFlight, untilAborted } from '../../../src/host/inFlight';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

test('a second caller of the same key joins the running work; a new run starts once it settled', async () => {
  const runs = new InFlight<void>();
  const first = deferred();
  let started = 0;
  const start = (): Promise<void> => {
    started++;
    return first.promise;
  };
  const a = runs.run('/idx/a', start);
  const b = runs.run('/idx/a', start);
  const other = runs.run('/idx/b', () => Promise.resolve());
  assert.equal(a, b, 'the same promise');
  assert.equal(started, 1, 'started once');
  await other;
  assert.equal(runs.has('/idx/b'), false, 'a settled run is forgotten');
  first.resolve();
  await a;
  assert.equal(runs.has('/idx/a'), false);
  const failing = runs.run('/idx/a', () => Promise.reject(new Error('disk full')));
  await assert.rejects(failing, /disk full/);
  assert.equal(runs.has('/idx/a'), false, 'a failed run is forgotten too (the next open tries again)');
  await runs.run('/idx/a', start);
  assert.equal(started, 2);
});

test('untilAborted: the waiter stops at its abort, the work goes on and others still get its result', async () => {
  const work = deferred();
  const editor = new AbortController();
  const waiter = untilAborted(work.promise, editor.signal);
  const other = untilAborted(work.promise, new AbortController().signal);
  editor.abort(new Error('editor closed'));
  await assert.rejects(waiter, /editor closed/);
  work.resolve();
  await other;
  const aborted = new AbortController();
  aborted.abort(new Error('already closed'));
  await assert.rejects(untilAborted(Promise.resolve(1), aborted.signal), /already closed/);
  assert.equal(await untilAborted(Promise.resolve(2), new AbortController().signal), 2);
  const failing = untilAborted(Promise.reject(new Error('worker crashed')), new AbortController().signal);
  await assert.rejects(failing, /worker crashed/);
});
