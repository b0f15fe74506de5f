// The LRU behind the reader's node cache and the host's payload cache: bounded by count and by weight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruCache } from '../../../src/core/bytes/lruCache';

test('count bound: the least recently used entry goes first (a get refreshes)', () => {
  const c = new LruCache<string, number>(2);
  c.set(1, 'a');
  c.set(2, 'b');
  assert.equal(c.get(1), 'a');
  c.set(3, 'c');
  assert.equal(c.get(2), undefined, '2 was the least recently used');
  assert.deepEqual([c.get(1), c.get(3), c.size], ['a', 'c', 2]);
});

test('weight bound: entries leave until the total fits; the newest stays even when it alone is over', () => {
  const c = new LruCache<string, number>(100, 10);
  c.set(1, 'a', 4);
  c.set(2, 'b', 4);
  assert.equal(c.weight, 8);
  c.set(3, 'c', 4);
  assert.equal(c.get(1), undefined, 'the oldest left to make room');
  assert.equal(c.weight, 8);
  c.set(2, 'b2', 1);
  assert.equal(c.weight, 5, 'a replaced entry counts with its new weight');
  c.set(4, 'huge', 50);
  assert.deepEqual([c.size, c.get(4), c.weight], [1, 'huge', 50], 'only the newest, over budget on its own');
  c.delete(4);
  assert.equal(c.weight, 0);
  c.set(5, 'x', 3);
  c.clear();
  assert.deepEqual([c.size, c.weight], [0, 0]);
});
