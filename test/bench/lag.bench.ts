// Event-loop lag of the extension host (issue 9): the host must stay responsive (lag ≤ 50 ms)
// while a 300 MB CLOG2 converts in the worker thread, and while search walks a large SLOG-2.
// This process plays the host: it measures its own event-loop delay (perf_hooks) meanwhile.
//   MPE_BENCH_LAG_CLOG2_MB=300  size of the synthesized CLOG2 (cached in out/bench-data)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { countMatches, compileQuery, findNext } from '../../src/format/search';
import { Slog2File } from '../../src/format/slog2/slog2File';
import { synthesizeClog2File } from '../../src/io/synthFile';
import { FileSource } from '../../src/io/fileSource';
import { startConversion } from '../../src/worker/client';

const root = process.env.MPE_TRACE_ROOT ?? process.cwd();
const clogMB = Number(process.env.MPE_BENCH_LAG_CLOG2_MB ?? 300);
const dataDir = path.join(root, 'out', 'bench-data');
const input = path.join(dataDir, `lag-${clogMB}MB.clog2`);
const output = path.join(dataDir, `lag-${clogMB}MB.slog2`);

async function synthesize(): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  await synthesizeClog2File(input, { ranks: 16, bytes: clogMB * 1e6, srcloc: true, seed: 9 });
}

function buildWorker(): string {
  const out = path.join(root, 'out', 'bench', 'lag-worker.js');
  const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');
  const r = spawnSync(esbuild, [path.join(root, 'src/worker/main.ts'), '--bundle', '--platform=node', '--format=cjs', '--target=node20', `--outfile=${out}`, '--log-level=warning'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return out;
}

/** Runs `work` while sampling this thread's event-loop delay; returns what it measured. */
async function withLag<T>(work: () => Promise<T>): Promise<{ value: T; p50: number; p99: number; max: number; seconds: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t0 = performance.now();
  const value = await work();
  const seconds = (performance.now() - t0) / 1000;
  h.disable();
  const ms = (ns: number) => ns / 1e6;
  return { value, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), seconds };
}

const show = (what: string, r: { p50: number; p99: number; max: number; seconds: number }) =>
  console.log(`${what}: ${r.seconds.toFixed(1)} s; host event-loop delay p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (goal ≤ 50 ms: ${r.max <= 50 ? 'met' : 'NOT met'})`);

async function main(): Promise<void> {
  if (!fs.existsSync(input)) await synthesize();
  const idle = await withLag(() => new Promise((r) => setTimeout(r, 1000)));
  show('idle host (baseline, same run)', idle);

  const worker = buildWorker();
  const conv = await withLag(() => startConversion(worker, { input, output, force: true }, () => undefined).done);
  show(`converting ${(fs.statSync(input).size / 1e6).toFixed(0)} MB CLOG2 in the worker`, conv);

  const file = await Slog2File.open(await FileSource.open(output));
  try {
    const compiled = compileQuery({ text: 'MPI_Waitall', mode: 'plain', caseSensitive: true }, file.categories);
    if (!compiled.ok) throw new Error(compiled.error);
    const count = await withLag(() => countMatches(file, compiled.matcher));
    show(`search: count "MPI_Waitall" over ${(fs.statSync(output).size / 1e6).toFixed(0)} MB SLOG-2 (${count.value.matches} matches) on the host`, count);
    const [a, b] = file.timeRange;
    const next = await withLag(() => findNext(file, compiled.matcher, { time: a + (b - a) / 2 }, 1));
    show('search: next match from the middle', next);
  } finally {
    await file.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
