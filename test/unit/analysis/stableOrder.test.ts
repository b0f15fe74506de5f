// stableOrder (a node's drawables by earliest time) against the generic stable sort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stableOrder } from '../../../src/core/formats/slog2/stableOrder';

function reference(keys: Float64Array, n: number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
}

test("no runs, one run, two runs (a node's two lists) and many, with ties: the same order as a stable sort", () => {
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const cases: number[][] = [[], [5], [1, 2, 2, 3], [3, 4, 4, 9, 1, 4, 4, 10], [2, 1], [3, 3, 3, 1, 1, 1]];
  for (let c = 0; c < 200; c++) {
    const runs = 1 + Math.floor(next() * (c < 100 ? 2 : 9));
    const keys: number[] = [];
    for (let r = 0; r < runs; r++) {
      let t = Math.floor(next() * 20);
      const len = Math.floor(next() * 12);
      for (let i = 0; i < len; i++) keys.push((t += Math.floor(next() * 3)));
    }
    cases.push(keys);
  }
  cases.push(Array.from({ length: 300 }, () => Math.floor(next() * 50))); // no order at all
  for (const k of cases) {
    const keys = new Float64Array([...k, -1, -2]); // longer than n: only the first n count
    assert.deepEqual(Array.from(stableOrder(keys, k.length)), reference(keys, k.length), JSON.stringify(k));
  }
});
