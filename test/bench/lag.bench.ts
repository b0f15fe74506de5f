// Event-loop lag of the extension host (issue 9): the host must stay responsive (lag ≤ 50 ms)
// while a 300 MB CLOG2 converts in the worker thread, while search walks a 1 GB SLOG-2, and while the
// analysis worker computes statistics; also how long the host's event loop was busy meanwhile.
// This process plays the host: it measures its own event-loop delay (perf_hooks) meanwhile, and
// the idle delay of the same run as the baseline (a loaded machine delays an idle loop too).
//   MPE_BENCH_LAG_CLOG2_MB=300    size of the CLOG2 converted while measuring
//   MPE_BENCH_LAG_SLOG2_MB=1024   size of the SLOG-2 searched (made once, cached in out/bench-data)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { compileQuery } from '../../src/core/search/matcher';
import { countMatches, findNext } from '../../src/core/search/treeSearch';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../src/io/fileSource';
import { synthesizeClog2File } from '../../src/io/synthFile';
import { AnalysisClient } from '../../src/worker/analysisClient';
import { startConversion } from '../../src/worker/conversionClient';
import { convertFile } from '../../src/convert/convertJob';

const root = process.env.MPE_TRACE_ROOT ?? process.cwd();
const clogMB = Number(process.env.MPE_BENCH_LAG_CLOG2_MB ?? 300);
const slogMB = Number(process.env.MPE_BENCH_LAG_SLOG2_MB ?? 1024);
const dataDir = path.join(root, 'out', 'bench-data');
/** A converted SLOG-2 is about 0.53× its CLOG2 (measured on synth output with source locations). */
const SLOG2_PER_CLOG2 = 0.53;

function bundle(entry: string, name: string): string {
  const out = path.join(root, 'out', 'bench', name);
  const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');
  const r = spawnSync(
    esbuild,
    [path.join(root, entry), '--bundle', '--platform=node', '--format=cjs', '--target=node20', `--outfile=${out}`, '--log-level=warning'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return out;
}

async function synthClog2(mb: number, seed: number): Promise<string> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, `lag-${mb}MB-${seed}.clog2`);
  if (!fs.existsSync(file)) await synthesizeClog2File(file, { ranks: 16, bytes: mb * 1e6, srcloc: true, seed });
  return file;
}

/** Runs `work` while sampling this thread's event-loop delay. */
type Lag = { p50: number; p99: number; max: number; seconds: number; busyMs: number };

/** Runs `work` while sampling this thread's event-loop delay and how long its event loop was busy. */
async function withLag<T>(work: () => Promise<T>): Promise<Lag & { value: T }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const value = await work();
  const seconds = (performance.now() - t0) / 1000;
  const busyMs = performance.eventLoopUtilization(elu0).active;
  h.disable();
  const ms = (ns: number) => ns / 1e6;
  return { value, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), seconds, busyMs };
}

function show(what: string, r: Lag, idle?: { max: number }): void {
  const excess = idle ? `, ${Math.max(0, r.max - idle.max).toFixed(1)} ms above the idle max` : '';
  console.log(
    `${what}: ${r.seconds.toFixed(1)} s; host event loop busy ${r.busyMs.toFixed(1)} ms; event-loop delay p50 ${r.p50.toFixed(1)}, p99 ${r.p99.toFixed(1)}, max ${r.max.toFixed(1)} ms${excess} (goal max ≤ 50 ms: ${r.max <= 50 ? 'met' : 'NOT met'})`,
  );
}

async function main(): Promise<void> {
  const idle = await withLag(() => new Promise((r) => setTimeout(r, 2000)));
  show('idle host (baseline, same run)', idle);

  const input = await synthClog2(clogMB, 9);
  const output = path.join(dataDir, `lag-${clogMB}MB.slog2`);
  const workerJs = bundle('src/worker/conversionWorker.ts', 'lag-worker.js'); // before measuring: spawnSync blocks
  const conv = await withLag(() => startConversion(workerJs, { input, output, force: true }, () => undefined).done);
  show(`converting ${(fs.statSync(input).size / 1e6).toFixed(0)} MB CLOG2 in the conversion worker`, conv, idle);

  const big = path.join(dataDir, `lag-${slogMB}MB.slog2`);
  if (!fs.existsSync(big)) {
    const clog = await synthClog2(Math.round(slogMB / SLOG2_PER_CLOG2), 11);
    await convertFile(clog, big, { force: true });
    fs.rmSync(clog, { force: true });
  }
  const query = { text: 'MPI_Waitall', mode: 'plain' as const, caseSensitive: true };
  const size = (fs.statSync(big).size / 1e6).toFixed(0);

  const client = new AnalysisClient(bundle('src/worker/analysis.ts', 'lag-analysis.js'));
  try {
    const count = await withLag(() => client.count(big, query, 512));
    show(`search in the analysis worker (as the editor does): count over ${size} MB SLOG-2 (${count.value.matches} matches)`, count, idle);
    const next = await withLag(() => client.find(big, query, { time: 0 }, 1, true));
    show('search in the analysis worker: next match', next, idle);
    // What test/unit/analysis/analysisWorker.test.ts once bounded (busy < 50 ms): statistics in the worker.
    const bigrun = path.join(dataDir, 'lag-bigrun.slog2');
    if (!fs.existsSync(bigrun)) fs.writeFileSync(bigrun, gunzipSync(fs.readFileSync(path.join(root, 'test', 'fixtures', 'bigrun_medium_4.slog2.gz'))));
    const stats = await withLag(async () => {
      for (let i = 0; i < 3; i++) await client.stats(bigrun, [-Infinity, Infinity], 0);
    });
    show('statistics in the analysis worker: 3 × whole bigrun_medium_4.slog2', stats, idle);
  } finally {
    client.dispose();
  }

  // For comparison: the same count on this thread (what the worker spares the host).
  const file = await Slog2File.open(await FileSource.open(big));
  try {
    const compiled = compileQuery(query, file.categories);
    if (!compiled.ok) throw new Error(compiled.error);
    const local = await withLag(() => countMatches(file, compiled.matcher));
    show(`comparison, same count on the host thread (${local.value.matches} matches)`, local, idle);
    const [a, b] = file.timeRange;
    await findNext(file, compiled.matcher, { time: (a + b) / 2 }, 1);
  } finally {
    await file.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
