// concurrently(): every item once, never more than `limit` in flight, no new item after a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { concurrently } from '../../../src/core/bytes/concurrently';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('runs every item once with at most `limit` in flight', async () => {
  const items = Array.from({ length: 40 }, (_, i) => i);
  const seen: number[] = [];
  let inFlight = 0;
  let most = 0;
  await concurrently(items, 5, async (i) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await tick(i % 3);
    seen.push(i);
    inFlight--;
  });
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    items,
  );
  assert.equal(most, 5);
});

test('an empty list resolves; a limit below one still runs one at a time', async () => {
  await concurrently([], 4, async () => assert.fail('no item'));
  let inFlight = 0;
  const seen: number[] = [];
  await concurrently([1, 2, 3], 0, async (i) => {
    assert.equal(++inFlight, 1);
    await tick(1);
    seen.push(i);
    inFlight--;
  });
  assert.deepEqual(seen, [1, 2, 3]);
});

test('the first failure rejects and no item starts after it', async () => {
  const started: number[] = [];
  await assert.rejects(
    concurrently(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (i) => {
        started.push(i);
        await tick(2);
        if (i === 4) throw new Error('item 4 failed');
      },
    ),
    /item 4 failed/,
  );
  await tick(20);
  // Items 0-5 may have started (3 lanes, item 4 fails in the second round); none of the rest.
  assert.ok(started.length <= 7, `started ${started.join(',')}`);
});
