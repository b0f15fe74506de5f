/**
 * Property: a window of part of the rows built by scanning node bytes (ScannedWindowSource, the
 * wide-trace path before its row index exists) equals, column by column, the plain query's window
 * of the same rows (random windows, row ranges, maps and depths), on every SLOG-2 fixture and on a
 * synthetic wide trace with source locations; it parses only a small part for few rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildWindow, type WindowSpec } from '../../../src/core/query/buildWindow';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { fileKeysOf, ScannedWindowSource } from '../../../src/core/query/scannedSource';
import type { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { Prng } from '../../../src/core/synth/prng';
import { fixturesDir } from '../../helpers/paths';
import { checkRandomSourceWindows, openSlog2Fixture, synthSlog2 } from './rowIndexHelpers';

const fixtures = fs.readdirSync(fixturesDir).filter((f) => /\.slog2(\.gz)?$/.test(f));

/** Random windows from scanned node bytes equal the plain query's. */
function checkRandomScans(file: Slog2File, rng: Prng, rounds: number, label: string): Promise<void> {
  const keys = fileKeysOf(file);
  return checkRandomSourceWindows(file, keys.space.mapIndex, rng, rounds, label, (layout, mapIndex, rowStart, rowEnd) => {
    const ranges = keys.keyRanges(layout, mapIndex, rowStart, rowEnd);
    return ranges === undefined ? undefined : new ScannedWindowSource(file, keys, ranges);
  });
}

test('scanned windows: same as the plain query on every SLOG-2 fixture', async () => {
  assert.ok(fixtures.length >= 5, 'fixtures present');
  for (const name of fixtures) {
    const file = await openSlog2Fixture(name);
    try {
      await checkRandomScans(file, new Prng(name.length * 104729), 12, name);
    } finally {
      await file.close();
    }
  }
});

test('scanned windows: same on a synthetic wide trace (256 ranks, sources, sub-communicators); few rows parse little', async () => {
  const file = await synthSlog2(256, 1 << 20);
  try {
    await checkRandomScans(file, new Prng(3), 30, 'synth 256');
    const keys = fileKeysOf(file);
    const layout = rowLayoutOf(file.lineIDMaps[keys.space.mapIndex]!);
    const [a, b] = file.timeRange;
    const spec = (rowStart: number, rowEnd: number): WindowSpec => ({
      t0: a,
      t1: b,
      rowStart,
      rowEnd,
      mapIndex: keys.space.mapIndex,
      lowestDepth: 0,
      rowOfLine: layout.rowOfLine,
    });
    const few = new ScannedWindowSource(file, keys, keys.keyRanges(layout, keys.space.mapIndex, 100, 108)!);
    const all = new ScannedWindowSource(file, keys, keys.keyRanges(layout, keys.space.mapIndex, 0, layout.labels.length)!);
    const w = await buildWindow(few, spec(100, 108));
    await buildWindow(all, spec(0, layout.labels.length));
    assert.ok(w.states.start.length > 0, 'the few rows have states');
    assert.ok(few.decoded * 10 < all.decoded, `8 of 256 rows parsed ${few.decoded} entries, all rows ${all.decoded}`);
    assert.equal(few.nodesRead, all.nodesRead, 'the same nodes are read (the bytes are scanned, not parsed)');
  } finally {
    await file.close();
  }
});
