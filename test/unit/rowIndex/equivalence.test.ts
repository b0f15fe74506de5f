/**
 * Property: a window built through the row index equals, column by column, the window built by
 * the plain query for the same rows (random windows, row ranges and depths), on every SLOG-2
 * fixture and on synthetic wide traces; the reader reads strictly fewer bytes for few rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildWindow, type WindowSpec } from '../../../src/core/query/buildWindow';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { IndexedWindowSource, RowKeyMapper } from '../../../src/core/query/indexedSource';
import { Prng } from '../../../src/core/synth/prng';
import { fixturesDir } from '../../helpers/paths';
import { checkRandomWindows, indexBytes, openIndex, openSlog2Fixture, synthSlog2 } from './rowIndexHelpers';

const fixtures = fs.readdirSync(fixturesDir).filter((f) => /\.slog2(\.gz)?$/.test(f));

test('row index: same windows as the plain query on every SLOG-2 fixture', async () => {
  assert.ok(fixtures.length >= 5, 'fixtures present');
  for (const name of fixtures) {
    const file = await openSlog2Fixture(name);
    try {
      const index = await openIndex(file, await indexBytes(file, { blockKeys: 2, chunkBytes: 4096 }));
      await checkRandomWindows(file, index, new Prng(name.length * 7919), 12, name);
      // The default map is always served by the index.
      const mapper = new RowKeyMapper(index);
      const layout = rowLayoutOf(file.lineIDMaps[index.keys.mapIndex]!);
      assert.notEqual(mapper.keyRanges(layout, index.keys.mapIndex, 0, 1), undefined, name);
    } finally {
      await file.close();
    }
  }
});

test('row index: same windows on a synthetic wide trace (256 ranks, sources, sub-communicators)', async () => {
  const file = await synthSlog2(256, 1 << 20);
  try {
    for (const blockKeys of [1, 16]) {
      const index = await openIndex(file, await indexBytes(file, { blockKeys, chunkBytes: 64 << 10 }));
      await checkRandomWindows(file, index, new Prng(blockKeys), 25, `synth 256 blockKeys ${blockKeys}`);
    }
  } finally {
    await file.close();
  }
});

test('row index: a few rows read a small part of what all rows read', async () => {
  const file = await synthSlog2(512, 2 << 20);
  try {
    const index = await openIndex(file, await indexBytes(file));
    const layout = rowLayoutOf(file.lineIDMaps[index.keys.mapIndex]!);
    const mapper = new RowKeyMapper(index);
    const [a, b] = file.timeRange;
    const spec = (rowStart: number, rowEnd: number): WindowSpec => ({
      t0: a + (b - a) * 0.4,
      t1: a + (b - a) * 0.5,
      rowStart,
      rowEnd,
      mapIndex: index.keys.mapIndex,
      lowestDepth: 0,
      rowOfLine: layout.rowOfLine,
    });
    const few = new IndexedWindowSource(index, mapper.keyRanges(layout, index.keys.mapIndex, 100, 108)!);
    const all = new IndexedWindowSource(index, mapper.keyRanges(layout, index.keys.mapIndex, 0, layout.labels.length)!);
    const wFew = await buildWindow(few, spec(100, 108));
    await buildWindow(all, spec(0, layout.labels.length));
    assert.ok(wFew.states.start.length > 0, 'the few rows have states');
    assert.ok(few.stats.bytesRead * 10 < all.stats.bytesRead, `8 of 512 rows read ${few.stats.bytesRead} bytes, all rows ${all.stats.bytesRead}`);
    assert.ok(few.stats.decoded * 10 < all.stats.decoded, `decoded ${few.stats.decoded} vs ${all.stats.decoded}`);
  } finally {
    await file.close();
  }
});

test('stateAt through the index equals the plain query, and reads only the rows asked', async () => {
  const { stateAt } = await import('../../../src/core/query/stateAt');
  const file = await synthSlog2(512, 1 << 20, 11);
  try {
    const bytes = await indexBytes(file);
    // A fresh index per measurement: an index keeps decoded segments, which would serve later queries.
    let index = await openIndex(file, bytes);
    const layout = rowLayoutOf(file.lineIDMaps[index.keys.mapIndex]!);
    const mapper = new RowKeyMapper(index);
    const rng = new Prng(5);
    const [a, b] = file.timeRange;
    let nonEmpty = 0;
    for (let i = 0; i < 10; i++) {
      const t = a + (b - a) * rng.next();
      const r0 = rng.int(0, 500);
      const rows: [number, number][] = [[r0, r0 + rng.int(1, 12)]];
      index = await openIndex(file, bytes);
      const viaIndex = new IndexedWindowSource(index, mapper.keyRangesOfRows(layout, index.keys.mapIndex, rows)!);
      const got = await stateAt(viaIndex, layout, t, rows);
      const want = await stateAt(file, layout, t, rows);
      assert.deepEqual(got, want, `t ${t} rows ${rows}`);
      if (got.length > 0) nonEmpty++;
      for (const s of got) assert.ok(s.row >= rows[0]![0] && s.row < rows[0]![1]);
      const all = new IndexedWindowSource(await openIndex(file, bytes), [[0, index.header.keys - 1]]);
      await stateAt(all, layout, t, [[0, layout.labels.length]]);
      assert.ok(viaIndex.stats.bytesRead * 5 < all.stats.bytesRead, `${viaIndex.stats.bytesRead} vs ${all.stats.bytesRead} bytes`);
    }
    assert.ok(nonEmpty >= 5, `${nonEmpty} of 10 instants had states on the rows`);
  } finally {
    await file.close();
  }
});

test('rowDensity: per row block × time bin, from the tables only; busy blocks and bins are non-zero', async () => {
  const { rowDensity } = await import('../../../src/core/query/rowDensity');
  const file = await synthSlog2(512, 1 << 20, 3);
  try {
    const index = await openIndex(file, await indexBytes(file));
    const [a, b] = file.timeRange;
    const d = await rowDensity(index, a, b, 50, [0, index.header.keys - 1]);
    assert.equal(d.bytes.length, Math.ceil(index.header.keys / index.header.blockKeys));
    assert.equal(d.stats.decoded, 0, 'no drawable decoded');
    // Every rank runs the same iterations: every block has activity, and most bins of a block too.
    for (const row of d.bytes) assert.ok(row.filter((x) => x > 0).length > 25, `busy bins ${row.filter((x) => x > 0).length}`);
    // The total equals the level-0 real bytes of all leaves (tables agree with themselves).
    const total = d.bytes.reduce((n, row) => n + row.reduce((m, x) => m + x, 0), 0);
    const leaves = file.level(0).map((l) => index.ordinalOf(l));
    const exact = (await index.blockBytes(leaves, 0, d.bytes.length - 1, { nodesRead: 0, bytesRead: 0, decoded: 0 })).reduce(
      (n, r) => n + r.reduce((m, x) => m + x, 0),
      0,
    );
    assert.ok(Math.abs(total - exact) <= exact * 1e-4, `${total} vs ${exact}`);
  } finally {
    await file.close();
  }
});
