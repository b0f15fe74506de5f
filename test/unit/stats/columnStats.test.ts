// Exact statistics from the columnar stream (columnStats.ts) equal those of the object query on
// every fixture and on a converted synthetic trace, for the whole trace and for ranges cutting
// through states; a file with a drawable outside its node's bounds is still counted in full.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { computeRangeStats, exactStatsOfFile, nodeBatches, type RangeStats } from '../../../src/core/stats';
import { primitiveBatchesInTimeOrder } from '../../../src/core/formats/slog2/columnStream';
import { FIXTURE_TRACES, fixtureSlog2Bytes, openFixtureSlog2 } from '../../helpers/fixtureTraces';
import { assertSame } from '../../helpers/sameStats';

function objectStats(file: Slog2File, range: [number, number]): Promise<RangeStats> {
  return computeRangeStats(file, nodeBatches(file.query(range[0], range[1], { lowestDepth: 0 })), range);
}

function rangesOf(file: Slog2File): [string, [number, number]][] {
  const [a, b] = file.timeRange;
  const w = b - a;
  return [
    ['whole trace', [a, b]],
    ['middle 10 %', [a + 0.45 * w, a + 0.55 * w]],
    ['first 3 %', [a, a + 0.03 * w]],
    ['last 37 %', [a + 0.63 * w, b]],
  ];
}

for (const name of FIXTURE_TRACES) {
  test(`${name}: exact statistics from columns = from objects (whole trace and ranges)`, async () => {
    const file = await openFixtureSlog2(name);
    try {
      for (const [label, range] of rangesOf(file)) {
        const expected = await objectStats(file, range);
        const actual = await exactStatsOfFile(file, range);
        assert.ok(expected.drawables > 0 || label !== 'whole trace');
        assertSame(actual, expected, `${name} ${label}`);
      }
    } finally {
      await file.close();
    }
  });
}

test('a leaf whose directory bounds leave out some of its drawables (breaks SLOG2.md §9): counted in full, through the object query', async () => {
  const bytes = fixtureSlog2Bytes('bigrun_medium_4');
  const plain = await openFixtureSlog2('bigrun_medium_4', bytes);
  // A leaf with drawables, not the last: its TreeDir `latest` (depth i16, xpos i32, earliest f64, latest f64) moved to its middle.
  const leaves = plain.treeDir.filter((n) => n.depth === 0).sort((x, y) => x.xpos - y.xpos);
  assert.ok(leaves.length >= 2);
  const leaf = leaves.slice(0, -1).sort((x, y) => y.size - x.size)[0]!; // not the last (open to the right)
  await plain.close();
  const patched = bytes.slice();
  new DataView(patched.buffer).setFloat64(leaf.entryOffset + 14, (leaf.earliest + leaf.latest) / 2);
  const file = await openFixtureSlog2('bigrun_medium_4', patched);
  try {
    const range = file.timeRange as [number, number];
    const expected = await objectStats(file, range);
    assertSame(await exactStatsOfFile(file, range), expected, 'patched whole trace');
    // Without the check, the columnar stream would have lost some (the point of the fallback).
    let seen = 0;
    for await (const b of primitiveBatchesInTimeOrder(file, range[0], range[1])) seen += b.rows;
    assert.ok(seen < expected.drawables, `the stream saw ${seen} of ${expected.drawables} primitives`);
  } finally {
    await file.close();
  }
});
