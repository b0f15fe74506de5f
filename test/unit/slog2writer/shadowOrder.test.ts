// A child shadow buffer's shadows as the file lists them: nestless then nestable, each as the
// built-in sort by compareShadowRows orders them (ties in insertion order), at every size and with
// crowded time buckets; NaN bounds keep the built-in sort's own order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { orderedShadows } from '../../../src/core/formats/slog2/writer/shadowOrder';
import { ARROW, EVENT, NodeShadows, STATE, compareShadowRows } from '../../../src/core/formats/slog2/writer/shadows';

function buffer(n: number, prng: Prng, times: number, withNaN = false): NodeShadows {
  const r = (): number => prng.next();
  const b = new NodeShadows();
  for (let i = 0; i < n; i++) {
    const topology = [EVENT, STATE, ARROW][Math.floor(r() * 3)]!;
    const a = Math.floor(r() * 5);
    const lines = topology === EVENT ? [a] : [a, topology === ARROW ? Math.floor(r() * 5) : a];
    const e = withNaN && i % 17 === 3 ? NaN : Math.floor(r() * times) / 4;
    const l = e + Math.floor(r() * 3) / 4;
    b.push(
      topology,
      i,
      lines.map(() => e),
      lines,
      e,
      l,
    );
  }
  return b;
}

/** Rows of `b` in key order (key = row here), each part sorted by the built-in sort. */
function expected(b: NodeShadows): number[] {
  const rows = Array.from({ length: b.count }, (_, r) => r);
  const byOrder = (i: number, j: number): number => compareShadowRows(b, i, j);
  const nestless = rows.filter((r) => b.view(r).topology !== STATE).sort(byOrder);
  const nestable = rows.filter((r) => b.view(r).topology === STATE).sort(byOrder);
  return [...nestless, ...nestable].map((r) => b.keyOf(r) as number);
}

test('orderedShadows: the built-in order of each part, for sizes and crowding of every kind', () => {
  const prng = new Prng(5); // seeded: a failure reproduces
  for (const n of [0, 1, 2, 3, 50, 500, 3000]) {
    for (const times of [1, 4, 40, 100000]) {
      const b = buffer(n, prng, times);
      const { list, nestless, count } = orderedShadows(b);
      assert.equal(count, n);
      assert.equal(nestless, Array.from({ length: n }, (_, r) => b.view(r)).filter((s) => s.topology !== STATE).length);
      assert.deepEqual(
        Array.from(list.subarray(0, count), (r) => b.keyOf(r)),
        expected(b),
        `${n} shadows over ${times} times`,
      );
    }
  }
});

test('orderedShadows: a NaN bound gives the built-in sort its own order', () => {
  const b = buffer(400, new Prng(9), 50, true);
  const { list, count } = orderedShadows(b);
  assert.deepEqual(
    Array.from(list.subarray(0, count), (r) => b.keyOf(r)),
    expected(b),
  );
});
