// The LRU behind the reader's node cache and the host's payload cache: bounded by count and by weight.
// And the buffer pool a recycling column stream returns evicted nodes' buffers to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BufferPool } from '../../../src/core/bytes/bufferPool';
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

test('evictions are reported (to recycle what an entry holds); deletes, replacements and clears are not', () => {
  const evicted: string[] = [];
  const c = new LruCache<string, number>(2, Infinity, (v, k) => evicted.push(`${k}=${v}`));
  c.set(1, 'a');
  c.set(2, 'b');
  c.get(1);
  c.set(3, 'c');
  assert.deepEqual(evicted, ['2=b'], 'the least recently used, once');
  c.set(3, 'c2');
  c.delete(1);
  c.clear();
  assert.deepEqual(evicted, ['2=b']);
});

test('BufferPool: a buffer given back is handed out again when it fits; none is handed out twice', () => {
  const pool = new BufferPool(2);
  const a = pool.take(3000);
  assert.equal(a.byteLength, 4096, 'rounded up to a power of two');
  const b = pool.take(3000);
  assert.notEqual(a, b);
  pool.give(a);
  assert.equal(pool.take(5000).byteLength, 8192, 'too small: a new one');
  assert.equal(pool.take(2000), a);
  assert.notEqual(pool.take(2000), a, 'taken: not handed out again');
  pool.give(new ArrayBuffer(16));
  assert.equal(pool.kept, 0, 'tiny buffers are not kept');
  const huge = pool.take(pool.maxPooledBytes + 1);
  assert.equal(huge.byteLength, pool.maxPooledBytes + 1, 'a huge one is exact and not kept');
  pool.give(huge);
  assert.equal(pool.kept, 0);
});
