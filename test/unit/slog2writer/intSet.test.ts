// IntSet: the encoder's used categories and lineIDs. addNew (a value at a time, as entries come)
// must give the set that add gives and say which values were new: negatives and values past the
// bitmap in the Set, the bitmap grown on the way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IntSet } from '../../../src/core/formats/slog2/writer/intSet';
import { Prng } from '../../../src/core/synth/prng';

test('addNew adds what add adds one by one, and is true exactly for values not held before', () => {
  const rng = new Prng(7);
  for (const limit of [1 << 10, 1 << 14, 1 << 24]) {
    const one = new IntSet(limit);
    const each = new IntSet(limit);
    const model = new Set<number>();
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 500; i++) {
        const r = rng.next();
        // small ones (the bitmap), a few far ones (growth past 1024, past the limit), negatives
        const v = r < 0.8 ? Math.floor(rng.next() * 900) : r < 0.9 ? Math.floor(rng.next() * 40_000) : r < 0.95 ? -1 - Math.floor(rng.next() * 5) : 2 ** 30 + i;
        one.add(v);
        assert.equal(each.addNew(v), !model.has(v), `value ${v}`);
        model.add(v);
      }
      assert.deepEqual(each.values(), one.values());
    }
    for (const v of model) assert.ok(each.has(v));
  }
});
