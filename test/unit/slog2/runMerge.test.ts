// mergeRuns (a leaf window's refs, one ascending run per node) against the generic stable sort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeRuns, RunMergeScratch } from '../../../src/core/formats/slog2/runMerge';

test('runs of any sizes, empty ones and ties: the order of a stable sort, refs moving with their keys', () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const scratch = new RunMergeScratch();
  for (let c = 0; c < 400; c++) {
    const runCount = Math.floor(next() * (c < 50 ? 3 : 20));
    const keys: number[] = [];
    const starts: number[] = [];
    for (let r = 0; r < runCount; r++) {
      starts.push(keys.length);
      // A big run now and then (a leaf's), small or empty ones otherwise (the nodes above it).
      const len = next() < 0.2 ? Math.floor(next() * 400) : Math.floor(next() * 8);
      let t = Math.floor(next() * 30);
      for (let i = 0; i < len; i++) keys.push((t += Math.floor(next() * 3)));
    }
    const n = keys.length;
    scratch.ensure(n);
    // Leftovers past n from the last case must not matter.
    scratch.keys[0].set(keys);
    for (let i = 0; i < n; i++) scratch.refs[0][i] = 1000 + i;
    const b = mergeRuns(scratch, n, starts);
    const want = keys.map((k, i) => [k, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    assert.deepEqual(
      Array.from(scratch.keys[b].subarray(0, n)),
      want.map((w) => w[0]),
      `case ${c}`,
    );
    assert.deepEqual(
      Array.from(scratch.refs[b].subarray(0, n)),
      want.map((w) => 1000 + w[1]),
      `case ${c}`,
    );
  }
});

test('ensure keeps the items already gathered when it grows', () => {
  const s = new RunMergeScratch();
  s.ensure(3);
  s.keys[0].set([1, 2, 3]);
  s.refs[0].set([7, 8, 9]);
  s.ensure(10_000);
  assert.deepEqual(Array.from(s.keys[0].subarray(0, 3)), [1, 2, 3]);
  assert.deepEqual(Array.from(s.refs[0].subarray(0, 3)), [7, 8, 9]);
  assert.ok(s.keys[1].length >= 10_000 && s.refs[1].length >= 10_000);
});
