// A range counted in two halves (columnStats.ts `elsewhere`: the later half's sums counted apart
// and added in) gives the statistics of one pass, wherever the range is cut: on the fixtures at
// fractions of the range and at state starts, and on a hand-made trace whose states cross the cut
// (enclosing ones, overlapping siblings, composite members, states that end before they start,
// equal durations in both halves).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { makePrimitive, type Drawable } from '../../../src/core/model/types';
import { computeRangeStats, exactStatsOfFile, nodeBatches, type RangeStats } from '../../../src/core/stats';
import { statsPartOfFile, type ElsewhereHalf } from '../../../src/core/stats/columnStats';
import { slog2SplitTime } from '../../../src/core/analysis/slog2Input';
import { FIXTURE_TRACES, openFixtureSlog2 } from '../../helpers/fixtureTraces';
import { assertSame } from '../../helpers/sameStats';
import { CATEGORIES, topologyOf } from '../slog2writer/synthetic';

/** exactStatsOfFile with its later half, from `at`, counted apart (here, not in a thread). */
function splitAt(file: Slog2File, range: readonly [number, number], at: number): Promise<RangeStats> {
  let halves = 0;
  const elsewhere = (r: readonly [number, number]): ElsewhereHalf => {
    halves++;
    return { from: at, part: statsPartOfFile(file, r, at), cancel: () => undefined };
  };
  return exactStatsOfFile(file, range, { elsewhere }).then((s) => (assert.equal(halves, 1), s));
}

/** Cut points: fractions of the range, the leaf where half the bytes are read, and a few state starts. */
function cutsOf(file: Slog2File, range: readonly [number, number], stats: RangeStats): number[] {
  const [a, b] = range;
  const cuts = [0.1, 0.5, 0.77].map((f) => a + f * (b - a));
  cuts.push(slog2SplitTime(file, a, b));
  const shortest = stats.categories.find((c) => c.kind === 'state' && c.shortest !== undefined)?.shortest;
  const longest = stats.categories.find((c) => c.kind === 'state' && c.longest !== undefined)?.longest;
  for (const ref of [shortest, longest]) if (ref !== undefined && ref.earliest > a && ref.earliest < b) cuts.push(ref.earliest);
  return cuts;
}

for (const name of FIXTURE_TRACES) {
  test(`${name}: statistics counted in two halves = in one pass, wherever the range is cut`, async () => {
    const file = await openFixtureSlog2(name);
    try {
      const [a, b] = file.timeRange;
      for (const range of [file.timeRange, [a + 0.2 * (b - a), a + 0.9 * (b - a)]] as const) {
        const whole = await exactStatsOfFile(file, range);
        assert.ok(whole.drawables > 0);
        for (const cut of cutsOf(file, range, whole)) assertSame(await splitAt(file, range, cut), whole, `${name} [${range}] cut at ${cut}`);
      }
    } finally {
      await file.close();
    }
  });
}

const state = (category: number, line: number, t0: number, t1: number) =>
  makePrimitive(category, [
    { time: t0, lineID: line },
    { time: t1, lineID: line },
  ]);
const i32s = (...v: number[]): Uint8Array => {
  const out = new Uint8Array(4 * v.length);
  v.forEach((x, i) => new DataView(out.buffer).setInt32(4 * i, x));
  return out;
};

/** States crossing every cut, on two lines (categories: 1 Compute and 2 Inner states, 0 message, 3 Mark). */
function crossingTrace(): Drawable[] {
  const out: Drawable[] = [];
  for (const line of [0, 1]) {
    out.push(state(1, line, 0, 100)); // encloses everything
    out.push(state(2, line, 10, 40), state(2, line, 30, 60)); // overlapping siblings across 35..45
    out.push(state(1, line, 32, 38), state(2, line, 41, 44)); // inside one sibling or the other
    out.push(state(2, line, 50, 45)); // ends before it starts: lasts 0 at 50
    out.push(state(1, line, 20, 23), state(1, line, 70, 73)); // equal durations, one per half
    out.push(state(2, line, 55, 55), state(2, line, 45, 45)); // zero durations
    out.push(
      makePrimitive(
        0,
        [
          { time: 42, lineID: line },
          { time: 47, lineID: 1 - line },
        ],
        i32s(7, 1000 + line),
      ),
    );
    out.push(makePrimitive(3, [{ time: 44, lineID: line }], i32s(3)));
  }
  // A composite starting before the cuts whose members start after some of them.
  const members = [state(2, 0, 43, 46), state(2, 1, 36, 52), makePrimitive(3, [{ time: 48, lineID: 0 }], i32s(9))];
  out.push({ kind: 'composite', category: 4, primitives: members, earliest: 36, latest: 52 });
  return out;
}

test('a hand-made trace cut at every time in it and between: the same statistics as one pass', async () => {
  const sink = new MemorySink();
  // Small leaves: the states spread over several nodes and levels.
  const w = new Slog2Writer(sink, { leafBytes: 200, topologyOf });
  const drawables = crossingTrace().sort((x, y) => x.latest - y.latest); // arrival order: by end
  for (const d of drawables) w.add(d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: [] });
  const file = await Slog2File.open(new MemorySource('crossing.slog2', sink.bytes()));
  try {
    assert.ok(file.level(0).length >= 3, `several leaves (${file.level(0).length})`);
    // The leaves start at 20: before them only upper nodes hold drawables, which the stream still finds.
    assert.ok(Math.min(...file.level(0).map((n) => n.earliest)) > 10);
    for (const range of [
      [0, 100],
      [0, 10],
      [2, 5],
      [33, 61],
    ] as const) {
      const objects = await computeRangeStats(file, nodeBatches(file.query(range[0], range[1], { lowestDepth: 0 })), range);
      assert.ok(objects.drawables > 0);
      assertSame(await exactStatsOfFile(file, range), objects, `[${range}] from columns = from objects`);
    }
    const times = new Set<number>();
    for (const d of drawables) for (const p of d.kind === 'composite' ? d.primitives : [d]) for (const v of p.vertices) times.add(v.time);
    const cuts = [...times].flatMap((t) => [t, t + 0.5]);
    for (const range of [
      [0, 100],
      [33, 61],
      [45, 45],
    ] as const) {
      const whole = await exactStatsOfFile(file, range);
      assert.ok(whole.drawables > 0, `[${range}] counts something`);
      for (const cut of cuts) if (cut > range[0] && cut < range[1]) assertSame(await splitAt(file, range, cut), whole, `[${range}] cut at ${cut}`);
    }
    // The nesting crossed the cut: an Inner state's own time is debited from an earlier half's state.
    const whole = await exactStatsOfFile(file, [0, 100]);
    const compute = whole.categories.find((c) => c.name === 'Compute')!;
    assert.ok(compute.exclusive < compute.inclusive);
  } finally {
    await file.close();
  }
});
