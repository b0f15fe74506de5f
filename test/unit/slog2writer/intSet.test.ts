// IntSet: the writer's used categories and lineIDs. addAll (a batch's column at once) must give the
// set that add gives value by value: negatives and values past the bitmap in the Set, the bitmap
// grown on the way, only the range asked for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IntSet } from '../../../src/core/formats/slog2/writer/intSet';
import { Prng } from '../../../src/core/synth/prng';

test('addAll adds what add adds one by one, and only values[from .. to)', () => {
  const rng = new Prng(7);
  for (const limit of [1 << 10, 1 << 14, 1 << 24]) {
    const one = new IntSet(limit);
    const all = new IntSet(limit);
    for (let round = 0; round < 20; round++) {
      const values = new Int32Array(500);
      for (let i = 0; i < values.length; i++) {
        const r = rng.next();
        // small ones (the bitmap), a few far ones (growth past 1024, past the limit), negatives
        values[i] =
          r < 0.8 ? Math.floor(rng.next() * 900) : r < 0.9 ? Math.floor(rng.next() * 40_000) : r < 0.95 ? -1 - Math.floor(rng.next() * 5) : 2 ** 30 + i;
      }
      const from = Math.floor(rng.next() * 100);
      const to = values.length - Math.floor(rng.next() * 100);
      for (let i = from; i < to; i++) one.add(values[i]!);
      all.addAll(values, from, to);
      assert.deepEqual(all.values(), one.values());
    }
    for (const v of one.values()) assert.ok(all.has(v));
  }
});
