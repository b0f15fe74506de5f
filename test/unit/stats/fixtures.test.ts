// Statistics of the real fixture traces against the reference: whole-trace counts per category =
// the facts, inclusive ratios = the CategoryMap summaries the reference writer computed (f32), and
// ring_p2p_4's message matrix = the arrows of the reference dump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { computeRangeStats, nodeBatches, summaryStats, batchesOf, type RangeStats } from '../../../src/core/stats';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipToMemory } from '../../../src/io/gzip';
import { fixture } from '../../helpers/paths';

interface FactCategory {
  index: number;
  name: string;
  kind: string;
  ratios: [number | null, number | null];
  count_field: number;
  preview: boolean;
  drawables: number;
}
interface Facts {
  slog2: { header: { MaxTreeDepth: string }; categories: FactCategory[]; time_range: [number, number] };
}

const TRACES = ['ring_p2p_4', 'pi_bcast_4', 'collectives_8', 'grid_comms_16', 'threads_2x3', 'user_states_4', 'bigrun_medium_4'];

function facts(name: string): Facts {
  return JSON.parse(fs.readFileSync(fixture(`${name}.facts.json`), 'utf8').replace(/\bNaN\b/g, 'null')) as Facts;
}

async function open(name: string): Promise<Slog2File> {
  if (fs.existsSync(fixture(`${name}.slog2`))) return Slog2File.open(await FileSource.open(fixture(`${name}.slog2`)));
  const gz = await FileSource.open(fixture(`${name}.slog2.gz`));
  try {
    return await Slog2File.open(await gunzipToMemory(gz, 256 << 20));
  } finally {
    await gz.close();
  }
}

async function exactWhole(file: Slog2File): Promise<RangeStats> {
  const [t0, t1] = file.timeRange;
  return computeRangeStats(file, nodeBatches(file.query(t0, t1, { lowestDepth: 0 })), [t0, t1]);
}

/** f32 ratios: relative 1e-5, plus an absolute floor for ratios that are tiny sums of rounded terms. */
function ratioClose(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= 1e-5 * Math.abs(expected) + 1e-9;
}

for (const name of TRACES) {
  test(`${name}: whole-trace exact statistics agree with the reference counts and summaries`, async () => {
    const f = facts(name);
    const file = await open(name);
    try {
      const s = await exactWhole(file);
      const [t0, t1] = file.timeRange;
      assert.deepEqual(s.range, [t0, t1]);
      const duration = t1 - t0;
      const real = f.slog2.categories.filter((c) => !c.preview && c.drawables > 0);
      assert.deepEqual(
        s.categories.map((c) => [c.index, c.count]).sort((a, b) => a[0]! - b[0]!),
        real.map((c) => [c.index, c.drawables]).sort((a, b) => a[0]! - b[0]!),
      );
      for (const c of real) {
        const mine = s.categories.find((x) => x.index === c.index)!;
        assert.equal(mine.name, c.name);
        assert.equal(mine.kind, c.kind);
        const incl = c.ratios[0];
        if (incl !== null && c.kind !== 'event') {
          assert.ok(ratioClose(mine.inclusive / duration, incl), `${name} ${c.name} incl ratio ${mine.inclusive / duration} vs ${incl}`);
        }
      }
      // The instant summary result matches too (it is read from the same ratios).
      const quick = summaryStats(file.categories, file.timeRange)!;
      assert.equal(quick.kind, 'summary');
      for (const c of real) assert.equal(quick.categories.find((x) => x.index === c.index)?.count, c.count_field);
      // Rows: per-row counts add up to the category totals.
      const perCategory = new Map<number, number>();
      for (const r of s.rows) for (const c of r.categories) perCategory.set(c.index, (perCategory.get(c.index) ?? 0) + c.count);
      for (const c of s.categories) assert.equal(perCategory.get(c.index), c.count);
    } finally {
      await file.close();
    }
  });
}

test("share: every fixture, whole trace and a sub-range, the states' shares sum to ≤ 1 (exclusive ÷ range × timelines)", async () => {
  for (const name of TRACES) {
    const file = await open(name);
    try {
      const [t0, t1] = file.timeRange;
      for (const range of [
        [t0, t1],
        [t0 + (t1 - t0) * 0.4, t0 + (t1 - t0) * 0.45],
      ] as [number, number][]) {
        const s = await computeRangeStats(file, nodeBatches(file.query(range[0], range[1], { lowestDepth: 0 })), range);
        assert.equal(s.timelines, new Set(file.lineIDMaps[0]!.rows.map((r) => r.lineID)).size, `${name} timelines`);
        let total = 0;
        for (const c of s.categories) {
          if (c.kind !== 'state') {
            assert.equal(c.share, undefined, `${name} ${c.name}: no time share for ${c.kind}s`);
            continue;
          }
          assert.ok(Math.abs(c.share! - c.exclusive / ((range[1] - range[0]) * s.timelines)) < 1e-12, `${name} ${c.name}`);
          total += c.share!;
        }
        assert.ok(total <= 1 + 1e-9, `${name} [${range}]: Σ share = ${total}`);
        // Per timeline, the exclusive times (what the chart stacks) fit in the range.
        for (const r of s.rows) {
          const busy = r.categories.filter((c) => s.categories.find((x) => x.index === c.index)?.kind === 'state').reduce((t, c) => t + c.exclusive, 0);
          assert.ok(busy <= range[1] - range[0] + 1e-9, `${name} row ${r.label}: Σ exclusive ${busy} > ${range[1] - range[0]}`);
        }
      }
      const quick = summaryStats(file.categories, file.timeRange, file.lineIDMaps)!;
      const quickTotal = quick.categories.reduce((t, c) => t + (c.share ?? 0), 0);
      assert.ok(quickTotal <= 1 + 1e-6, `${name} summary Σ share = ${quickTotal}`);
    } finally {
      await file.close();
    }
  }
});

test('single-node traces: exclusive ratios equal the reference too (no shadows involved)', async () => {
  for (const name of TRACES) {
    const f = facts(name);
    if (f.slog2.header.MaxTreeDepth !== '0') continue;
    const file = await open(name);
    try {
      const s = await exactWhole(file);
      const duration = file.timeRange[1] - file.timeRange[0];
      for (const c of f.slog2.categories) {
        if (c.preview || c.drawables === 0 || c.kind !== 'state' || c.ratios[1] === null) continue;
        const mine = s.categories.find((x) => x.index === c.index)!;
        assert.ok(ratioClose(mine.exclusive / duration, c.ratios[1]), `${name} ${c.name} excl ${mine.exclusive / duration} vs ${c.ratios[1]}`);
      }
    } finally {
      await file.close();
    }
  }
});

/** The message arrows (category 0) of a reference slog2printrecur dump: per pair and per tag. */
function referenceMessages(name: string) {
  const pairs = new Map<string, { count: number; bytes: number }>();
  const tags = new Map<number, { count: number; bytes: number }>();
  const arrow =
    /^\d+: Primitive\[ infobox\[ TimeBBox\([^)]*\) Category=Category\[ index=0,.*msg_tag=(-?\d+), msg_size=(-?\d+)\] \(([^,]+), (\d+)\) \(([^,]+), (\d+)\) \]/;
  let count = 0;
  const bump = <K>(m: Map<K, { count: number; bytes: number }>, k: K, bytes: number) => {
    const e = m.get(k) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += bytes;
    m.set(k, e);
  };
  for (const line of fs.readFileSync(fixture(`${name}.slog2recur.txt`), 'utf8').split('\n')) {
    const m = arrow.exec(line);
    if (m === null) continue;
    count++;
    bump(pairs, `${m[4]}->${m[6]}`, Number(m[2]));
    bump(tags, Number(m[1]), Number(m[2]));
  }
  return { count, pairs, tags };
}

for (const [name, messages] of [
  ['ring_p2p_4', 60],
  ['grid_comms_16', 48],
] as const) {
  test(`${name}: message matrix and tags = the arrows (category 0) of the reference dump`, async () => {
    const expected = referenceMessages(name);
    assert.equal(expected.count, messages);
    const file = await open(name);
    try {
      const s = await exactWhole(file);
      assert.deepEqual(new Map(s.messages.pairs.map((p) => [`${p.from}->${p.to}`, { count: p.count, bytes: p.bytes }])), expected.pairs);
      assert.deepEqual(new Map(s.messages.tags.map((t) => [t.key, { count: t.count, bytes: t.bytes }])), expected.tags);
      assert.equal(s.messages.count, messages);
      assert.equal(s.messages.withoutSize, 0);
      // Every message is on some communicator (Communicator View), and those add up.
      assert.equal(
        s.messages.comms.reduce((n, c) => n + c.count, 0),
        messages,
      );
    } finally {
      await file.close();
    }
  });
}

test('bigrun_medium_4: a range via node slices equals the same range via the time-ordered stream', async () => {
  const file = await open('bigrun_medium_4');
  try {
    const [t0, t1] = file.timeRange;
    const range: [number, number] = [t0 + (t1 - t0) * 0.31, t0 + (t1 - t0) * 0.37];
    const viaNodes = await computeRangeStats(file, nodeBatches(file.query(range[0], range[1])), range);
    const viaStream = await computeRangeStats(file, batchesOf(file.drawablesInTimeOrder(range[0], range[1]), { ordered: true }), range);
    assert.ok(viaNodes.drawables > 1000);
    assert.deepEqual(
      viaNodes.categories.map((c) => [c.index, c.count]),
      viaStream.categories.map((c) => [c.index, c.count]),
    );
    for (const c of viaNodes.categories) {
      const o = viaStream.categories.find((x) => x.index === c.index)!;
      assert.ok(Math.abs(c.inclusive - o.inclusive) <= 1e-12 && Math.abs(c.exclusive - o.exclusive) <= 1e-12, c.name);
    }
    assert.deepEqual(viaNodes.messages.pairs, viaStream.messages.pairs);
  } finally {
    await file.close();
  }
});

test('bigrun_medium_4: approximate whole-trace result from level-3 shadows has the exact counts and inclusive times', async () => {
  const file = await open('bigrun_medium_4');
  try {
    const [t0, t1] = file.timeRange;
    const exact = await exactWhole(file);
    const readBefore = file.nodesRead;
    const approx = await computeRangeStats(file, nodeBatches(file.query(t0, t1, { lowestDepth: 3 })), [t0, t1], { approximate: true });
    assert.equal(approx.kind, 'approximate');
    assert.ok(file.nodesRead - readBefore <= 7, 'reads only the coarse levels (at most 1+2+4 nodes)');
    for (const c of exact.categories) {
      const a = approx.categories.find((x) => x.index === c.index)!;
      // Whole range: every shadow is fully inside (f = 1), so counts are whole; ratios are f32.
      assert.ok(Math.abs(a.count - c.count) < 1e-6 * c.count + 1e-6, `${c.name} count ${a.count} vs ${c.count}`);
      assert.ok(Math.abs(a.inclusive - c.inclusive) <= 1e-5 * c.inclusive + 1e-9, `${c.name} incl ${a.inclusive} vs ${c.inclusive}`);
    }
    assert.ok(Math.abs(approx.messages.count - exact.messages.count) < 1e-6 * exact.messages.count);
  } finally {
    await file.close();
  }
});

test('bigrun_medium_4: progress goes up with the leaves, from near 0 to 1', async () => {
  const file = await open('bigrun_medium_4');
  try {
    const [t0, t1] = file.timeRange;
    const fractions: number[] = [];
    await computeRangeStats(file, nodeBatches(file.query(t0, t1)), [t0, t1], { onProgress: (p) => p.fraction !== undefined && fractions.push(p.fraction) });
    assert.ok(fractions.length > 10);
    assert.ok(fractions[0]! < 0.1, `first ${fractions[0]}`);
    assert.equal(fractions.at(-1), 1);
    for (let i = 1; i < fractions.length; i++) assert.ok(fractions[i]! >= fractions[i - 1]!);
  } finally {
    await file.close();
  }
});
