// Run comparison: a run against itself and a CLOG2 against its SLOG-2 (converted by the reference
// tool) differ by nothing; two synthetic runs made to differ by a known factor differ by exactly that,
// in the right row, category and rank; the CLI prints the documented JSON keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diffRuns, type CategoryDiff } from '../../../src/core/compare/diff';
import { profileRun, type FullRunProfile } from '../../../src/core/compare/profile';
import { iterationShift } from '../../../src/core/compare/iterations';
import { runWaits } from '../../../src/core/compare/waits';
import { diffTable } from '../../../src/core/compare/diffTables';
import { analyzeTrace } from '../../../src/core/analysis';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { openByteSource } from '../../../src/cli/openTrace';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { openRun } from '../../../src/cli/openRun';
import { fixture } from '../../helpers/paths';
import { runCli } from '../cli/runCli';

async function profileOf(file: string): Promise<FullRunProfile> {
  const run = await openRun(file);
  try {
    const range = run.timeRange ?? ([-Infinity, Infinity] as const);
    return await profileRun(() => run.meta(), run.drawables(range[0], range[1]), range);
  } finally {
    await run.close();
  }
}

function assertNoDifference(rows: readonly CategoryDiff[], what: string, tolerance: number): void {
  for (const r of rows) {
    assert.equal(r.countA, r.countB, `${what} ${r.name}: count`);
    for (const [a, b] of [
      [r.inclA, r.inclB],
      [r.exclA, r.exclB],
    ] as const) {
      assert.ok(Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a)), `${what} ${r.name}: ${a} vs ${b}`);
    }
    assert.ok(Math.abs(r.delta) <= tolerance, `${what} ${r.name}: delta ${r.delta}`);
  }
}

const PAIRS = ['ring_p2p_4', 'pi_bcast_4', 'collectives_8', 'grid_comms_16', 'threads_2x3', 'user_states_4'];

for (const name of PAIRS) {
  test(`diff: ${name}.slog2 against itself is all zeros`, async () => {
    const p = await profileOf(fixture(`${name}.slog2`));
    const d = diffRuns(p, p);
    assert.ok(d.categories.length > 0);
    for (const r of [...d.categories, ...d.ranks]) {
      assert.equal(r.delta, 0);
      assert.equal(r.countA, r.countB);
      assert.equal(r.inclA, r.inclB);
    }
  });

  test(`diff: ${name}.clog2 against the reference converter's ${name}.slog2 is all zeros`, async () => {
    const a = await profileOf(fixture(`${name}.clog2`));
    const b = await profileOf(fixture(`${name}.slog2`));
    const d = diffRuns(a, b);
    // Same categories by name in both, none only on one side.
    for (const r of d.categories) assert.ok(r.countA > 0 && r.countB > 0, `${r.name} only in one run (${r.countA} / ${r.countB})`);
    assertNoDifference(d.categories, 'category', 1e-9);
    assertNoDifference(d.ranks, 'rank', 1e-9);
    assert.deepEqual(new Set(d.ranks.map((r) => r.rank)), new Set(b.stats.rows.map((r) => r.label)));
  });
}

async function synth(dir: string, name: string, extra: Parameters<typeof synthesizeClog2File>[1] extends infer O ? Partial<O> : never): Promise<string> {
  const file = path.join(dir, name);
  await synthesizeClog2File(file, { ranks: 4, iterations: 30, srcloc: true, seed: 11, ...extra });
  return file;
}

test('diff: Compute stretched 2.5x on rank 1 shows as exactly 2.5x in (rank 1, Compute) and 1x on the other ranks', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-diff-'));
  try {
    const a = await profileOf(await synth(dir, 'a.clog2', {}));
    const b = await profileOf(await synth(dir, 'b.clog2', { stretch: { category: 'Compute', rank: 1, factor: 2.5 } }));
    const d = diffRuns(a, b);
    const compute = d.ranks.filter((r) => r.name === 'Compute');
    assert.equal(compute.length, 4);
    for (const r of compute) {
      const want = r.rank === '1' ? 2.5 : 1;
      assert.ok(Math.abs(r.ratio! - want) < 1e-9, `rank ${r.rank} Compute ratio ${r.ratio}, want ${want}`);
    }
    // The stretched (rank, category) is the largest movement of all: the others only wait for it.
    assert.deepEqual([d.ranks[0]!.rank, d.ranks[0]!.name], ['1', 'Compute']);
    // Rows are sorted by |delta|.
    for (let i = 1; i < d.categories.length; i++) assert.ok(Math.abs(d.categories[i - 1]!.delta) >= Math.abs(d.categories[i]!.delta));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('diff: Compute stretched 3x on every rank is the top category, by exactly 2x its time in A', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-diff-'));
  try {
    const a = await profileOf(await synth(dir, 'a.clog2', {}));
    const b = await profileOf(await synth(dir, 'b.clog2', { stretch: { category: 'Compute', factor: 3 } }));
    const d = diffRuns(a, b);
    const top = d.categories[0]!;
    assert.equal(top.name, 'Compute');
    assert.ok(Math.abs(top.delta - 2 * top.exclA) < 1e-12, `delta ${top.delta} vs 2 × ${top.exclA}`);
    // The site that starts Compute's enclosing Phase carries the moved time.
    assert.ok(d.sites.length > 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('iterations: same run started 5 ms later — marker Phase, same count, iteration 5 shifted by exactly the delay', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-diff-'));
  try {
    const a = await profileOf(await synth(dir, 'a.clog2', {}));
    const b = await profileOf(await synth(dir, 'b.clog2', { startDelay: 0.005 }));
    assert.equal(a.iterations.marker, 'Phase');
    assert.equal(b.iterations.marker, 'Phase');
    assert.equal(a.iterations.starts.length, 30);
    assert.equal(b.iterations.starts.length, 30);
    const shift = iterationShift(a.iterations, b.iterations, 5)!;
    assert.ok(Math.abs(shift - 0.005) < 1e-9, `shift ${shift}`);
    // Durations are equal iteration by iteration (same draws), so none differs.
    for (let k = 0; k + 1 < 30; k++) assert.ok(Math.abs(a.iterations.durations[k]! - b.iterations.durations[k]!) < 1e-9);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('mpe-trace diff --json: documented keys, names matched by name, a category of one run listed with zeros', () => {
  const r = runCli(['diff', fixture('ring_p2p_4.slog2'), fixture('user_states_4.slog2'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { categories: Record<string, unknown>[] };
  for (const c of doc.categories) for (const k of ['name', 'countA', 'countB', 'inclA', 'inclB', 'exclA', 'exclB']) assert.ok(k in c, `missing ${k}`);
  const phase = doc.categories.find((c) => c.name === 'Phase')!;
  assert.equal(phase.countA, 0);
  assert.ok((phase.countB as number) > 0);
  const csv = runCli(['diff', fixture('user_states_4.clog2'), fixture('user_states_4.slog2'), '--csv', '--by', 'rank']);
  assert.equal(csv.status, 0, csv.stderr);
  assert.match(csv.stdout.split('\n')[0]!, /^rank,category,kind,countA,countB/);
  const bad = runCli(['diff', fixture('user_states_4.slog2')]);
  assert.equal(bad.status, 2);
});

test('mpe-trace diff of a CLOG2 with its SLOG-2 converted by mpe-trace convert: all zeros, by category, site and rank', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-diff-'));
  try {
    const out = path.join(dir, 'us.slog2');
    const conv = runCli(['convert', fixture('user_states_4.clog2'), '-o', out]);
    assert.equal(conv.status, 0, conv.stderr);
    const r = runCli(['diff', fixture('user_states_4.clog2'), out, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as Record<'categories' | 'sites' | 'ranks', { delta: number; countA: number; countB: number }[]>;
    assert.ok(doc.sites.length >= 6, 'our converter keeps the source locations');
    for (const key of ['categories', 'sites', 'ranks'] as const) {
      for (const row of doc[key]) {
        assert.equal(row.countA, row.countB, `${key} ${JSON.stringify(row)}`);
        assert.ok(Math.abs(row.delta) < 1e-9, `${key} ${JSON.stringify(row)}`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function waitedProfile(file: string): Promise<FullRunProfile> {
  const p = await profileOf(file);
  const f = await Slog2File.open(await openByteSource(file));
  try {
    const range = f.timeRange;
    const r = await analyzeTrace({ categories: f.categories, lineIDMaps: f.lineIDMaps, range, batches: (t0, t1) => f.drawableBatchesInTimeOrder(t0, t1) });
    return { ...p, waits: runWaits(r) };
  } finally {
    await f.close();
  }
}

test('diff with waiting time: a run against itself has equal Wait A and Wait B, equal to the analysis per state, site and (rank, state)', async () => {
  const p = await waitedProfile(fixture('ring_p2p_4.slog2'));
  const d = diffRuns(p, p);
  assert.equal(d.waiting, true);
  const waits = p.waits!;
  let waited = 0;
  for (const r of d.categories) {
    if (r.kind !== 'state') {
      assert.equal(r.waitA, undefined, `${r.name}: only states wait`);
      continue;
    }
    assert.equal(r.waitA, r.waitB);
    assert.equal(r.waitA, waits.byCategory[r.name] ?? 0, r.name);
    waited += r.waitA!;
  }
  assert.ok(waited > 0, 'ring_p2p_4 has late senders');
  for (const r of d.ranks) if (r.kind === 'state') assert.equal(r.waitA, waits.byRankCategory[`${r.rank}\u0000${r.name}`] ?? 0);
  // Σ over (rank, state) rows = Σ over state rows.
  const byRanks = d.ranks.reduce((a, r) => a + (r.waitA ?? 0), 0);
  assert.ok(Math.abs(byRanks - waited) < 1e-9, `${byRanks} vs ${waited}`);
  const table = diffTable(d, 'category');
  assert.deepEqual(table.columns.slice(-2), ['waitA', 'waitB']);
  // Without the analysis on one side there are no waiting columns (no zeros pretending to be measured).
  const plain = diffRuns(p, { stats: p.stats, sites: p.sites });
  assert.equal(plain.waiting, false);
  assert.ok(plain.categories.every((r) => r.waitA === undefined));
  assert.ok(!diffTable(plain, 'category').columns.includes('waitA'));
});

test('diff with waiting time: two different runs — Wait A is the analysis of A, Wait B that of B, and some waiting moved', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-diff-'));
  try {
    const conv = async (name: string, extra: Parameters<typeof synth>[2]): Promise<string> => {
      const out = path.join(dir, name.replace('.clog2', '.slog2'));
      const r = runCli(['convert', await synth(dir, name, extra), '-o', out]);
      assert.equal(r.status, 0, r.stderr);
      return out;
    };
    const a = await waitedProfile(await conv('a.clog2', {}));
    const b = await waitedProfile(await conv('b.clog2', { stretch: { category: 'Compute', rank: 1, factor: 4 } }));
    const d = diffRuns(a, b);
    let moved = 0;
    for (const r of d.categories.filter((x) => x.kind === 'state')) {
      assert.equal(r.waitA, a.waits!.byCategory[r.name] ?? 0, `A ${r.name}`);
      assert.equal(r.waitB, b.waits!.byCategory[r.name] ?? 0, `B ${r.name}`);
      moved += Math.abs(r.waitB! - r.waitA!);
    }
    for (const s of d.sites) assert.equal(s.waitB, b.waits!.bySite[`${s.file}:${s.line}`] ?? 0);
    assert.ok(moved > 1e-6, `waiting moved by ${moved} s`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
