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
    let packedInPlace = 0;
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
        const beforeBuffer = c.arenaBits.buffer;
        const used = c.arenaUsed;
        // ratios are Java floats (float32), the category and count integers
        const w = [model[r]!.length + 100 * r, Math.fround(prng.next()), Math.fround(prng.next()), step];
        c.appendWeight(r, w[0]!, w[1]!, w[2]!, w[3]!);
        model[r]!.push(...w);
        if (c.arena.length !== before || c.arenaUsed < used) packedOrGrown++;
        if (c.arenaBits.buffer === beforeBuffer && c.arenaUsed < used) packedInPlace++;
      }
    }
    for (let r = 0; r < model.length; r++) assert.deepEqual(weightsOf(c, r), model[r], `${rows} rows: row ${r}`);
    assert.ok(rows < 300 || packedOrGrown > 3, `${rows} rows: the arena was packed or grown (${packedOrGrown} times)`);
    // Packing without growing reuses the arena (a new one per packing was old-generation garbage).
    assert.ok(rows < 300 || packedInPlace > 0, `${rows} rows: packed in place ${packedInPlace} times`);
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

test('released column sets go to the buffer they fit: the smallest that holds what is expected, else the largest, never one many times too big', () => {
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
  // A set many times what is asked stays for a buffer that needs it (a wide trace's high node):
  // an empty buffer gets a new small set, not the 400 KB one.
  const empty = takeShadowColumns();
  assert.notEqual(empty, middle);
  assert.ok(empty.topology.length <= 64 && empty.arena.length <= 1024, 'a new small set');
  assert.equal(pooledShadowColumns(), 1);
  assert.equal(takeShadowColumns(600, 20_000), middle, 'within four times what is asked: taken');
  assert.equal(pooledShadowColumns(), 0);
});

test('rows moved to a bigger set keep their numbers, values and weights', () => {
  const c = new ShadowColumns(4, 1024);
  for (let r = 0; r < 100; r++) {
    c.addRow();
    c.key[r] = r * 4 + 1;
    c.earliest[r] = r;
    c.latest[r] = r + 0.5;
    c.time0[r] = r + 0.25;
    c.line0[r] = r;
    c.vertices[r] = 1;
    c.numRealObjs[r] = r + 1;
    c.topology[r] = 1;
    c.weightCount[r] = 0;
    c.weightRoom[r] = 0; // no room until the first weight, as newShadow leaves it
    for (let k = 0; k < r % 5; k++) c.appendWeight(r, k, r / 3, -r, k + 1);
  }
  const before = Array.from({ length: 100 }, (_, r) => [c.key[r], c.earliest[r], c.latest[r], c.time0[r], c.line0[r], c.numRealObjs[r], weightsOf(c, r)]);
  const next = new ShadowColumns(8, 1024);
  next.takeRowsOf(c);
  next.ensure(5000, 100_000);
  assert.equal(next.count, 100);
  assert.ok(next.topology.length === 5000 && next.arena.length === 100_000, 'ensure: exactly the room asked');
  const after = Array.from({ length: 100 }, (_, r) => [
    next.key[r],
    next.earliest[r],
    next.latest[r],
    next.time0[r],
    next.line0[r],
    next.numRealObjs[r],
    weightsOf(next, r),
  ]);
  assert.deepEqual(after, before);
  // And they go on growing there as before.
  for (let r = 0; r < 100; r++) next.appendWeight(r, 9, 1, 1, 1);
  for (let r = 0; r < 100; r++) assert.deepEqual(weightsOf(next, r), [...(before[r]![6] as number[]), 9, 1, 1, 1]);
});
