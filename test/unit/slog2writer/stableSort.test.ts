// The writer's allocation-free sorts give the built-in sort's order exactly: the stable merge
// sort for consistent comparators (shadow order), and the short sort even for Java's weight
// order, which is not consistent when a ratio is NaN (an event shadow's 0/0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHORT_SORT_MAX, sortShortLikeBuiltin, sortStable } from '../../../src/core/formats/slog2/writer/stableSort';
import { compareInclRatio } from '../../../src/core/formats/slog2/writer/shadows';

/** A small deterministic generator (xorshift32), so a failure reproduces. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

interface Item {
  readonly key: number;
  readonly id: number;
}
const byKey = (a: Item, b: Item): number => a.key - b.key;

test('sortStable: the built-in order, ties kept in place, for runs of every length and a sub-range', () => {
  const r = random(7);
  for (const n of [0, 1, 2, 15, 16, 17, 31, 33, 64, 100, 257, 1000, 4099]) {
    for (const keys of [8, 1000, 0]) {
      // keys 0: in order but for a few swaps, as shadows mostly come (runs copied without merging).
      const items: Item[] = Array.from({ length: n }, (_, id) => ({ key: keys === 0 ? id >> 2 : Math.floor(r() * keys), id }));
      for (let swaps = keys === 0 ? n >> 5 : 0; swaps > 0; swaps--) {
        const a = Math.floor(r() * n);
        const b = Math.min(n - 1, a + 1 + Math.floor(r() * 40));
        [items[a], items[b]] = [items[b]!, items[a]!];
      }
      const expected = items.slice().sort(byKey);
      const slots: (Item | undefined)[] = [{ key: -1, id: -1 }, ...items, { key: -2, id: -2 }];
      const scratch: (Item | undefined)[] = new Array<Item | undefined>(n + 2);
      sortStable(slots, 1, n + 1, byKey, scratch);
      assert.deepEqual(slots.slice(1, n + 1), expected, `n ${n}, ${keys} keys`);
      assert.deepEqual([slots[0]!.id, slots[n + 1]!.id], [-1, -2], 'outside the range untouched');
      assert.ok(
        scratch.every((s) => s === undefined),
        'the scratch keeps no item',
      );
    }
  }
});

test('sortShortLikeBuiltin: the built-in order of Java weight ratios, NaN included, for every short length', () => {
  const r = random(11);
  const values = [0, 0.25, 0.5, 0.5, 1, NaN, Infinity, -0, Math.fround(1 / 3)];
  let differs = 0;
  for (let round = 0; round < 4000; round++) {
    const n = 2 + Math.floor(r() * (round % 10 === 0 ? SHORT_SORT_MAX - 3 : 6));
    const incl = Array.from({ length: n }, () => values[Math.floor(r() * values.length)]!);
    const byRatio = (a: number, b: number): number => compareInclRatio(incl[a]!, incl[b]!);
    const expected = Array.from({ length: n }, (_, i) => i).sort(byRatio);
    const slots: (number | undefined)[] = Array.from({ length: n }, (_, i) => i);
    sortShortLikeBuiltin(slots, n, byRatio);
    assert.deepEqual(slots, expected, `ratios ${incl.join(', ')}`);
    if (expected.some((w, i) => w !== i)) differs++;
  }
  assert.ok(differs > 1000, `the cases reorder (${differs})`);
});
