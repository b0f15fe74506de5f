// Benchmark of the wait-state analysis (issue 18) in the analysis worker, on a big SLOG-2 made
// once with `mpe-trace synth --srcloc --comms` + `mpe-trace convert` and cached in bench-out/.
// Each measurement runs in a fresh child process so its peak RSS (main thread + worker thread) is
// the analysis's own. Baselines, same file, same run, alternating: one plain pass over the file's
// drawables in time order (the reader alone; the analysis makes two passes plus its own work), and
// the analysis worker without its decoder thread (one thread).
// Then the time of a dependence chain (depth 8, both ways) from 20 waiting states of the file.
//   BENCH_ANALYSIS_MB    target SLOG-2 size in MiB (default 1024)
//   BENCH_ANALYSIS_RUNS  runs of each (default 3; medians are printed: one run on this noisy
//                        2-core VM moved by ±20 %)
import { reportTarget } from './targets';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../src/io/fileSource';
import { AnalysisClient } from '../../src/worker/analysisClient';
import { analyzeTrace } from '../../src/core/analysis/analyze';
import { traceChainSource } from '../../src/core/analysis/chainSource';
import { dependenceChain } from '../../src/core/analysis/dependence';
import { bundleNode } from '../helpers/bundle';

const root = process.env.MPE_TRACE_ROOT ?? process.cwd();
/** CLOG2 bytes per SLOG-2 byte for synth --srcloc --comms (measured: 1536 MiB → 849 MiB). */
const CLOG2_PER_SLOG2 = 1.81;

function ensureFile(mib: number): string {
  const dir = path.join(root, 'bench-out');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `analysis-${mib}m.slog2`);
  if (fs.existsSync(file)) return file;
  const cli = path.join(root, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error('build first (npm run build): the bench generates its input with dist/cli.js');
  const clog2 = path.join(dir, `analysis-${mib}m.clog2`);
  const bytes = Math.round(mib * CLOG2_PER_SLOG2);
  const started = performance.now();
  const synth = spawnSync(process.execPath, [cli, 'synth', '--ranks', '16', '--bytes', `${bytes}M`, '--srcloc', '--comms', '--seed', '7', '-o', clog2], {
    encoding: 'utf8',
  });
  if (synth.status !== 0) throw new Error(`synth failed: ${synth.stderr}`);
  const conv = spawnSync(process.execPath, [cli, 'convert', clog2, '-o', file], { encoding: 'utf8' });
  fs.rmSync(clog2, { force: true });
  if (conv.status !== 0) throw new Error(`convert failed: ${conv.stderr}`);
  console.log(`analysis bench: generated ${path.basename(file)} in ${((performance.now() - started) / 1000).toFixed(0)} s: ${conv.stdout.trim()}`);
  return file;
}

interface Measured {
  readonly seconds: number;
  readonly maxRssMiB: number;
  readonly detail: string;
}

/** Child: the analysis of the whole file in the analysis worker. */
async function measureWorker(file: string, workerScript: string): Promise<void> {
  const client = new AnalysisClient(workerScript, { idleMs: 1000 });
  const started = performance.now();
  const r = await client.waits(file, { maxInstances: 0 });
  const seconds = (performance.now() - started) / 1000;
  client.dispose();
  const waits = Object.values(r.waitStates).reduce((a, t) => a + t.count, 0);
  const detail = `${r.messages.matched} messages, ${r.collectives.instances} collectives, ${waits} waits, critical path ${r.criticalPath.length.toFixed(2)} s in ${r.criticalPath.segments.length} segments`;
  process.stdout.write(JSON.stringify({ seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024, detail } satisfies Measured) + '\n');
}

/** Child: one plain pass over the drawables in time order (the baseline). */
async function measureRead(file: string): Promise<void> {
  const f = await Slog2File.open(await FileSource.open(file, { onThread: true })); // as the analysis worker reads
  const started = performance.now();
  let n = 0;
  for await (const batch of f.drawableBatchesInTimeOrder()) n += batch.length;
  const seconds = (performance.now() - started) / 1000;
  await f.close();
  process.stdout.write(JSON.stringify({ seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024, detail: `${n} drawables` } satisfies Measured) + '\n');
}

/**
 * Child: dependence chains (depth 8, both directions) from 20 waiting states spread over the run,
 * after the analysis (not timed); `seconds` is the median chain, the detail the slowest and sizes.
 */
async function measureChains(file: string): Promise<void> {
  const f = await Slog2File.open(await FileSource.open(file));
  const r = await analyzeTrace(
    { categories: f.categories, lineIDMaps: f.lineIDMaps, range: f.timeRange, batches: (a, b) => f.drawableBatchesInTimeOrder(a, b) },
    { maxInstances: 200_000 },
  );
  const source = traceChainSource(f, r.instances);
  const step = Math.max(1, Math.floor(r.instances.length / 20));
  const ms: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < r.instances.length && ms.length < 40; i += step) {
    const w = r.instances[i]!;
    const s = await source.stateAt(w.lineID, w.category, w.enter);
    if (s === undefined) continue;
    for (const direction of ['backward', 'forward'] as const) {
      const started = performance.now();
      sizes.push((await dependenceChain(source, s, direction, { maxDepth: 8 })).nodes.length);
      ms.push(performance.now() - started);
    }
  }
  await f.close();
  const first = ms[0]!;
  const detail = `${ms.length} chains, slowest ${Math.max(...ms).toFixed(1)} ms, ${Math.min(...sizes)}–${Math.max(...sizes)} states; ${r.instances.length} waits; the first chain builds its indexes: ${first.toFixed(0)} ms`;
  process.stdout.write(JSON.stringify({ seconds: median(ms) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024, detail } satisfies Measured) + '\n');
}

function child(args: string[]): Measured {
  const r = spawnSync(process.execPath, [process.argv[1]!, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`measurement failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measured;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  if (process.argv[2] === '--worker') return measureWorker(process.argv[3]!, process.argv[4]!);
  if (process.argv[2] === '--read') return measureRead(process.argv[3]!);
  if (process.argv[2] === '--chains') return measureChains(process.argv[3]!);
  const mib = Number(process.env.BENCH_ANALYSIS_MB ?? 1024);
  const runs = Math.max(1, Number(process.env.BENCH_ANALYSIS_RUNS ?? 3));
  const file = ensureFile(mib);
  // The worker finds dist/decoder.js beside itself: one copy with it, one without (one thread).
  const workerScript = bundleNode('src/worker/analysis.ts', path.join(root, 'out', 'bench', 'two-threads', 'analysis.js'));
  bundleNode('src/worker/decoder.ts', path.join(root, 'out', 'bench', 'two-threads', 'decoder.js'));
  const oneThreadScript = bundleNode('src/worker/analysis.ts', path.join(root, 'out', 'bench', 'one-thread', 'analysis.js'));
  console.log(`analysis bench: ${path.basename(file)} (${(fs.statSync(file).size / 2 ** 20).toFixed(0)} MiB), ${runs} run(s) each, alternating`);
  const analysis: Measured[] = [];
  const oneThread: Measured[] = [];
  const read: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    read.push(child(['--read', file]));
    oneThread.push(child(['--worker', file, oneThreadScript]));
    analysis.push(child(['--worker', file, workerScript]));
  }
  // Every run, besides the median: on this noisy 2-core machine a median of 3 moves by ±0.5 s.
  const each = (ms: readonly Measured[]) => `[${ms.map((m) => m.seconds.toFixed(1)).join(', ')}]`;
  const a = median(analysis.map((m) => m.seconds));
  const one = median(oneThread.map((m) => m.seconds));
  const b = median(read.map((m) => m.seconds));
  console.log(
    `analysis bench: one read of the drawables: median ${b.toFixed(1)} s of ${each(read)}, peak RSS ${median(read.map((m) => m.maxRssMiB)).toFixed(0)} MiB (${read[0]!.detail})`,
  );
  console.log(
    `analysis bench: analysis in the worker, one thread: median ${one.toFixed(1)} s of ${each(oneThread)}, peak RSS ${median(oneThread.map((m) => m.maxRssMiB)).toFixed(0)} MiB`,
  );
  console.log(
    `analysis bench: analysis in the worker, with its decoder thread: median ${a.toFixed(1)} s of ${each(analysis)}, peak RSS ${median(analysis.map((m) => m.maxRssMiB)).toFixed(0)} MiB (${analysis[0]!.detail})`,
  );
  console.log(`analysis bench: one thread / decoder thread ×${(one / a).toFixed(2)}`);
  console.log(`analysis bench: analysis / one read = ${(a / b).toFixed(2)} (targets: ≤ 10 s, ≤ 400 MB peak RSS for 1 GB)`);
  const rss = median(analysis.map((m) => m.maxRssMiB));
  const size = `${(fs.statSync(file).size / 2 ** 20).toFixed(0)} MiB`;
  reportTarget({
    target: `wait-state analysis of a ${size} SLOG-2 ≤ 10 s`,
    figure: `${a.toFixed(1)} s (median of ${analysis.length})`,
    baseline: `one thread ${one.toFixed(1)} s; one plain read ${b.toFixed(1)} s`,
    ratio: `×${(one / a).toFixed(2)} vs one thread`,
    met: a <= 10,
  });
  reportTarget({ target: `its peak RSS ≤ 400 MB`, figure: `${rss.toFixed(0)} MiB`, baseline: 'none', met: rss * 1.048576 <= 400 });
  const chains = child(['--chains', file]);
  console.log(`analysis bench: dependence chain (depth 8): median ${(chains.seconds * 1000).toFixed(1)} ms (${chains.detail})`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
