// The weights arena of a node buffer's shadows: rows that grow one weight at a time, moved,
// packed and grown with the arena, keep their weights in insertion order, as a plain model does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import {
  ShadowColumns,
  WEIGHT_STRIDE,
  pooledShadowColumns,
  releaseShadowColumns,
  takeShadowColumns,
} from '../../../src/core/formats/slog2/writer/shadowColumns';

function weightsOf(c: ShadowColumns, r: number): number[] {
  return c.weightValues(r);
}

test('rows appended to in random order keep their weights through moves, packs and growth', () => {
  const prng = new Prng(11); // seeded: a failure reproduces
  for (const rows of [1, 7, 300, 2000]) {
    const c = new ShadowColumns(4);
    const model: number[][] = [];
    let packedOrGrown = 0;
    for (let step = 0; step < rows * 4; step++) {
      // A new row now and then (no room until its first weight), else a weight for a random row.
      if (model.length < rows && (model.length === 0 || prng.next() < 0.2)) {
        const r = c.addRow();
        c.weightCount[r] = 0;
        c.weightRoom[r] = 0;
        model.push([]);
        continue;
      }
      // A weight for a random row, or (as a merged child does) one for every row in turn.
      const targets = prng.next() < 0.05 ? model.map((_, r) => r) : [Math.floor(prng.next() * model.length)];
      for (const r of targets) {
        const before = c.arena.length;
        const used = c.arenaUsed;
        // ratios are Java floats (float32), the category and count integers
        const w = [model[r]!.length + 100 * r, Math.fround(prng.next()), Math.fround(prng.next()), step];
        c.appendWeight(r, w[0]!, w[1]!, w[2]!, w[3]!);
        model[r]!.push(...w);
        if (c.arena.length !== before || c.arenaUsed < used) packedOrGrown++;
      }
    }
    for (let r = 0; r < model.length; r++) assert.deepEqual(weightsOf(c, r), model[r], `${rows} rows: row ${r}`);
    assert.ok(rows < 300 || packedOrGrown > 3, `${rows} rows: the arena was packed or grown (${packedOrGrown} times)`);
    // Rows' weights never overlap.
    const spans = model.map((_, r) => [c.weightStart[r]!, c.weightStart[r]! + c.weightRoom[r]! * WEIGHT_STRIDE] as const).filter(([a, z]) => z > a);
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) assert.ok(spans[i]![0] >= spans[i - 1]![1], 'rooms do not overlap');
    assert.ok(spans.every(([, z]) => z <= c.arenaUsed && c.arenaUsed <= c.arena.length));
  }
});

test('rows that all grow together (a child merged into each) are packed within the arena', () => {
  // Every row full at once is when a pack must not give each row more than the arena has.
  for (const rows of [64, 500, 3000]) {
    const c = new ShadowColumns(4);
    for (let r = 0; r < rows; r++) {
      c.addRow();
      c.weightCount[r] = 0;
      c.weightRoom[r] = 0;
    }
    for (let round = 0; round < 12; round++) {
      for (let r = 0; r < rows; r++) {
        c.appendWeight(r, round, r, -r, 1);
        assert.ok(c.arenaUsed <= c.arena.length, `${rows} rows, round ${round}: the rooms fit the arena`);
      }
    }
    for (let r = 0; r < rows; r++) {
      const w = weightsOf(c, r);
      assert.deepEqual(
        Array.from({ length: 12 }, (_, k) => w.slice(k * 4, k * 4 + 4)),
        Array.from({ length: 12 }, (_, k) => [k, r, -r, 1]),
        `${rows} rows: row ${r}`,
      );
    }
  }
});

test('released column sets go to the buffer they fit: the smallest that holds what is expected, else the largest', () => {
  while (pooledShadowColumns() > 0) takeShadowColumns();
  // No pooled set: a new one of the expected size.
  const fresh = takeShadowColumns(5000, 300_000);
  assert.ok(fresh.topology.length >= 5000 && fresh.arena.length >= 300_000);
  const small = new ShadowColumns(256, 2048);
  const middle = new ShadowColumns(2048, 65_536);
  const large = new ShadowColumns(8192, 262_144);
  for (const c of [small, middle, large]) {
    c.addRow();
    releaseShadowColumns(c);
    assert.equal(c.count, 0, 'a released set is emptied');
  }
  assert.equal(pooledShadowColumns(), 3);
  // A leaf's few hundred rows get the small set, not the one released last.
  assert.equal(takeShadowColumns(200, 1000), small);
  // Rows fit the middle set but the weights only the large one.
  assert.equal(takeShadowColumns(1000, 100_000), large);
  // Nothing holds 20 000 rows: the largest left (it grows least).
  releaseShadowColumns(large);
  assert.equal(takeShadowColumns(20_000, 0), large);
  assert.equal(takeShadowColumns(), middle);
  assert.equal(pooledShadowColumns(), 0);
});
