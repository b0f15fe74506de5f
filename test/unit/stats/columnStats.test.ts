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
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { makePrimitive, type Drawable } from '../../../src/core/model/types';
import { CATEGORIES, topologyOf } from '../slog2writer/synthetic';

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

/**
 * bigrun_medium_4 with one node's TreeDir bounds (depth i16, xpos i32, earliest f64, latest f64)
 * cut short (breaks SLOG2.md §9): its `latest` moved to its middle, or its `earliest` to its
 * latest; the node at `depth` with the most bytes, not the last of its level (the last leaf's
 * slice is open to the right).
 */
async function withBoundMoved(depth: number, bound: 'earliest' | 'latest'): Promise<Slog2File> {
  const bytes = fixtureSlog2Bytes('bigrun_medium_4');
  const plain = await openFixtureSlog2('bigrun_medium_4', bytes);
  const level = plain.treeDir.filter((n) => n.depth === depth).sort((x, y) => x.xpos - y.xpos);
  assert.ok(level.length >= 2, `depth ${depth} has ${level.length} nodes`);
  const node = level.slice(0, -1).sort((x, y) => y.size - x.size)[0]!;
  await plain.close();
  const patched = bytes.slice();
  new DataView(patched.buffer).setFloat64(
    node.entryOffset + (bound === 'earliest' ? 6 : 14),
    bound === 'earliest' ? node.latest : (node.earliest + node.latest) / 2,
  );
  return openFixtureSlog2('bigrun_medium_4', patched);
}

test('a node whose directory bounds leave out some of its drawables (breaks SLOG2.md §9): counted in full, through the object query', async () => {
  for (const [depth, bound] of [
    [0, 'latest'],
    [1, 'earliest'],
  ] as const) {
    const file = await withBoundMoved(depth, bound);
    try {
      const range = file.timeRange as [number, number];
      const expected = await objectStats(file, range);
      assertSame(await exactStatsOfFile(file, range), expected, `${bound} moved at depth ${depth}, whole trace`);
      let seen = 0;
      for await (const b of primitiveBatchesInTimeOrder(file, range[0], range[1])) seen += b.rows;
      if (depth === 0) {
        // the leaf's drawables past its bounds are in the next slice (the slices tile the time axis)
        assert.equal(seen, expected.drawables, 'the stream over a leaf cut short');
      } else {
        // an upper node is looked up by its bounds: without the check the stream would have lost
        // its drawables before them (the point of the fallback)
        assert.ok(seen < expected.drawables, `the stream saw ${seen} of ${expected.drawables} primitives`);
      }
    } finally {
      await file.close();
    }
  }
});

/** A small SLOG-2 of `drawables` (small leaves: several nodes and levels), opened. */
async function fileOf(drawables: readonly Drawable[]): Promise<Slog2File> {
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { topologyOf, leafBytes: 200 });
  for (const d of [...drawables].sort((x, y) => x.latest - y.latest)) w.add(d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: [] });
  return Slog2File.open(new MemorySource('order.slog2', sink.bytes()));
}

const state = (category: number, line: number, t0: number, t1: number): Drawable =>
  makePrimitive(category, [
    { time: t0, lineID: line },
    { time: t1, lineID: line },
  ]);

// The stream comes in drawing order and most states are swept as they come (StateNesting.add's
// inOrder); these nest elsewhere than where the stream orders them, and must wait.
for (const [what, drawables, lost] of [
  [
    // Ordered by its span (45), it nests at 50, 0 long; [47, 48.5] must still nest in [44, 49].
    'a state that ends before it starts',
    [state(1, 0, 44, 49), state(2, 0, 50, 45), state(2, 0, 47, 48.5), state(4, 0, 40, 60)],
    1.5,
  ],
  [
    // Ordered at 30 with its composite, the member [52, 58] nests in [50, 60], later in the stream.
    'a composite member',
    [
      { kind: 'composite', category: 4, primitives: [state(2, 1, 30, 31), state(2, 1, 52, 58)], earliest: 30, latest: 58 },
      state(1, 1, 50, 60),
      state(4, 1, 20, 70),
    ],
    6,
  ],
] as const) {
  test(`${what}: nests as in the object query, not where the stream orders it`, async () => {
    const file = await fileOf(drawables as readonly Drawable[]);
    try {
      const range: [number, number] = [0, 100];
      const objects = await objectStats(file, range);
      // Compute loses the Inner state nested in it; the enclosing states are another category.
      const compute = objects.categories.find((c) => c.name === 'Compute')!;
      assert.equal(compute.exclusive, compute.inclusive - lost);
      assertSame(await exactStatsOfFile(file, range), objects, 'from columns = from objects');
    } finally {
      await file.close();
    }
  });
}
