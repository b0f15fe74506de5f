// Statistics and search in the analysis worker: the same numbers as in-process, cancellation,
// clear errors for damaged files and bad queries, and the host's event loop left free meanwhile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { compileQuery } from '../../../src/core/search/matcher';
import { countMatches } from '../../../src/core/search/treeSearch';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { computeRangeStats } from '../../../src/core/stats/compute';
import { nodeBatches } from '../../../src/core/stats/nodeBatches';
import { FileSource } from '../../../src/io/fileSource';
import { AnalysisClient, AnalysisFailed } from '../../../src/worker/analysisClient';
import { fixture } from '../../helpers/paths';
import { bundleNode } from '../../helpers/bundle';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-analysis-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

function buildWorker(): string {
  const out = path.join(dir, 'analysis.js');
  bundleNode('src/worker/analysis.ts', out);
  return out;
}

const client = new AnalysisClient(buildWorker(), { idleMs: 500 });
process.on('exit', () => client.dispose());
const bigrun = path.join(dir, 'bigrun.slog2');
fs.writeFileSync(bigrun, gunzipSync(fs.readFileSync(fixture('bigrun_medium_4.slog2.gz'))));
const userStates = fixture('user_states_4.slog2');

async function inProcess(file: string, range?: readonly [number, number]) {
  const f = await Slog2File.open(await FileSource.open(file));
  try {
    const r = range ?? f.timeRange;
    return await computeRangeStats(f, nodeBatches(f.query(r[0], r[1], { lowestDepth: 0 })), r);
  } finally {
    await f.close();
  }
}

test('exact statistics from the worker equal the in-process computation (bigrun, whole trace and a range)', async () => {
  const f = await Slog2File.open(await FileSource.open(bigrun));
  const [a, b] = f.timeRange;
  await f.close();
  for (const range of [
    [a, b],
    [a + (b - a) * 0.4, a + (b - a) * 0.45],
  ] as const) {
    const fromWorker = await client.stats(bigrun, range, 0);
    assert.deepEqual(fromWorker, await inProcess(bigrun, range));
    assert.equal(fromWorker.kind, 'exact');
  }
});

test('search count and next match from the worker equal the in-process search (user_states_4 "Region")', async () => {
  const query = { text: 'Region', mode: 'word' as const, caseSensitive: true };
  const r = await client.count(userStates, query, 64);
  const f = await Slog2File.open(await FileSource.open(userStates));
  const compiled = compileQuery(query, f.categories);
  assert.ok(compiled.ok);
  const local = await countMatches(f, compiled.matcher, { bins: 64 });
  await f.close();
  assert.equal(r.matches, 24);
  assert.equal(r.matches, local.matches);
  assert.deepEqual([...r.histogram], [...local.histogram]);
  let from: { time: number } | { drawable: import('../../../src/core/model/types').Drawable } = { time: -Infinity };
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const next = await client.find(userStates, query, from, 1, false);
    assert.ok(next.match, `match ${i + 1}`);
    starts.push(next.match.earliest);
    from = { drawable: next.match.drawable };
  }
  assert.ok(starts[0]! <= starts[1]! && starts[1]! <= starts[2]!, `in time order: ${starts}`);
});

test('worker errors: bad query, damaged file (file and offset named), cancellation', async () => {
  await assert.rejects(
    client.count(userStates, { text: '(', mode: 'regex', caseSensitive: false }, 8),
    (e: unknown) => e instanceof AnalysisFailed && e.reason === 'query',
  );
  const damaged = path.join(dir, 'damaged.slog2');
  fs.writeFileSync(damaged, fs.readFileSync(userStates).subarray(0, 4000));
  await assert.rejects(
    client.stats(damaged, [0, 1], 0),
    (e: unknown) => e instanceof AnalysisFailed && e.reason === 'format' && /damaged\.slog2:\d+: /.test(e.message),
  );
  const ac = new AbortController();
  const pending = client.stats(bigrun, [-Infinity, Infinity], 0, { signal: ac.signal });
  ac.abort();
  await assert.rejects(pending, (e: unknown) => e instanceof AnalysisFailed && e.reason === 'cancelled');
});

test('the worker stops when idle and restarts on the next request', async () => {
  await client.stats(userStates, [-Infinity, Infinity], 0);
  assert.equal(client.liveWorkers, 1);
  await new Promise((r) => setTimeout(r, 800));
  assert.equal(client.liveWorkers, 0);
  const again = await client.stats(userStates, [-Infinity, Infinity], 0);
  assert.ok(again.drawables > 0);
});

test('WorkerSearchSession gives the same matches, order and "n of m" as the in-process SearchSession', async () => {
  const { SearchSession } = await import('../../../src/core/search/searchSession');
  const { WorkerSearchSession } = await import('../../../src/worker/workerSearchSession');
  const f = await Slog2File.open(await FileSource.open(userStates));
  try {
    const query = { text: 'line 108', mode: 'plain' as const, caseSensitive: false };
    const local = new SearchSession(f, { bins: 32 });
    const remote = new WorkerSearchSession(client, userStates, f.categories, { bins: 32 });
    assert.ok(local.setQuery(query).ok && remote.setQuery(query).ok);
    assert.equal((await remote.count())!.matches, (await local.count())!.matches);
    let fromL: import('../../../src/core/search/treeSearch').SearchFrom = { time: f.timeRange[0] };
    let fromR: import('../../../src/core/search/treeSearch').SearchFrom = fromL;
    for (let i = 0; i < 5; i++) {
      const a = await local.find(fromL, 1);
      const b = await remote.find(fromR, 1);
      assert.ok(a.match && b.match);
      assert.deepEqual(
        [b.match.earliest, b.match.latest, b.match.rows, b.match.place, b.ordinal],
        [a.match.earliest, a.match.latest, a.match.rows, a.match.place, a.ordinal],
      );
      fromL = { drawable: a.match.drawable };
      fromR = { drawable: b.match.drawable };
    }
    const bad = remote.setQuery({ text: '[', mode: 'regex', caseSensitive: false });
    assert.equal(bad.ok, false);
  } finally {
    await f.close();
  }
});

test('wait states from the worker equal the in-process analysis (ring_p2p_4), cancellation works', async () => {
  const { analyzeTrace } = await import('../../../src/core/analysis/analyze');
  const file = fixture('ring_p2p_4.slog2');
  const fromWorker = await client.waits(file, { maxInstances: 1000 });
  const f = await Slog2File.open(await FileSource.open(file));
  try {
    const local = await analyzeTrace(
      { categories: f.categories, lineIDMaps: f.lineIDMaps, range: f.timeRange, batches: (t0, t1) => f.drawableBatchesInTimeOrder(t0, t1) },
      { maxInstances: 1000 },
    );
    assert.deepEqual(fromWorker, local);
  } finally {
    await f.close();
  }
  assert.equal(fromWorker.problems[0]?.kind, 'receive-before-send');
  const controller = new AbortController();
  const pending = client.waits(bigrun, { signal: controller.signal });
  controller.abort();
  await assert.rejects(pending, (e: unknown) => e instanceof AnalysisFailed && e.reason === 'cancelled');
});
