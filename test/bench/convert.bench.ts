// Conversion benchmark (issue 4): synthesize a ~300 MB CLOG2 (cached under out/bench-data), then
// convert it to SLOG-2, each way in a fresh child process, printing wall time, MB/s, CPU time and
// peak RSS:
//   two threads  what the CLI and the editor run: converter thread + writer thread
//   one thread   everything in one thread (the fallback when dist/converter.js is missing)
// then the converter alone (drawables discarded), to show how the work splits. The comparison with
// the reference converter on the same input is test/bench/reference.bench.ts (never a figure from
// another file, machine or day).
//   MPE_BENCH_CONVERT_MB=50 node test/bench/run.mjs convert     (smaller input; 3000 for the scaling check)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { synthesizeClog2File } from '../../src/io/synthFile';
import { bundledConverterScript, convertFile } from '../../src/convert/convertJob';
import { chunksOf } from '../../src/core/bytes/memorySource';
import { convertClogFormat } from '../../src/core/info/clogInfo';
import { FileSource } from '../../src/io/fileSource';
import { describeBaseline, ratio, readScanBaseline, type Baseline } from './baseline';

const root = process.env.MPE_TRACE_ROOT ?? process.cwd();
const targetMB = Number(process.env.MPE_BENCH_CONVERT_MB ?? 300);
const dataDir = path.join(root, 'out', 'bench-data');
const input = path.join(dataDir, `synth-${targetMB}MB.clog2`);
const output = path.join(dataDir, `synth-${targetMB}MB.slog2`);

async function synthesize(): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const report = await synthesizeClog2File(input, { ranks: 16, bytes: targetMB * 1e6, srcloc: true, seed: 4 });
  console.log(`synthesized ${input}: ${(report.bytes / 1e6).toFixed(1)} MB, ${report.iterations} iterations, ${report.srclocRecords} SRCLOC records`);
}

function cpuSeconds(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1e6;
}

async function convertOnce(mode: string, baseline: Baseline): Promise<void> {
  const converterScript = mode === 'threads' ? bundledConverterScript() : undefined;
  if (mode === 'threads' && converterScript === undefined) throw new Error('converter.js is missing next to the bench bundle');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await convertFile(input, output, { force: true, converterScript });
  const seconds = (performance.now() - t0) / 1000;
  // process.cpuUsage() covers every thread of the process.
  const cpu = cpuSeconds(process.cpuUsage(cpu0));
  const inMB = r.inputBytes / 1e6;
  const rssMB = process.resourceUsage().maxRSS / 1024;
  const label = mode === 'threads' ? 'two threads' : 'one thread ';
  console.log(
    `${label}  ${seconds.toFixed(2)} s wall (${(inMB / seconds).toFixed(1)} MB/s) = ${ratio(seconds, baseline)}, CPU ${cpu.toFixed(2)} s, peak RSS ${rssMB.toFixed(0)} MB` +
      ` | peak RSS target ≤ 256 MB: ${rssMB <= 256 ? 'met' : 'NOT met'}`,
  );
  console.log(`RESULT ${JSON.stringify({ mode, seconds, cpu, rssMB, inMB })}`);
  if (mode === 'threads') {
    console.log(
      `  ${inMB.toFixed(1)} MB CLOG2 → ${(r.written.bytes / 1e6).toFixed(1)} MB SLOG-2: ${r.written.drawables} drawables, ${r.written.nodes} nodes, depth ${r.written.maxTreeDepth}, ${r.written.locatedDrawables} with source locations`,
    );
  }
  fs.rmSync(output, { force: true });
}

/** The CLOG2 converter alone, drawables discarded: the converter thread's share without encoding. */
async function converterAlone(): Promise<void> {
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  const source = await FileSource.open(input, { maxBlocks: 2 });
  let n = 0;
  for await (const batch of convertClogFormat('clog2', chunksOf(source, 1 << 20), { name: input }).batches) n += batch.length;
  await source.close();
  console.log(
    `converter alone  ${((performance.now() - t1) / 1000).toFixed(2)} s wall / ${cpuSeconds(process.cpuUsage(c1)).toFixed(2)} s CPU (${n} drawables, not written)`,
  );
}

async function child(mode: string): Promise<void> {
  const baseline = await readScanBaseline(input);
  if (mode === 'threads') console.log(describeBaseline(baseline));
  if (mode === 'alone') await converterAlone();
  else await convertOnce(mode, baseline);
}

interface RunResult {
  readonly mode: string;
  readonly seconds: number;
  readonly cpu: number;
  readonly rssMB: number;
  readonly inMB: number;
}

/** Runs one mode in a fresh process, echoing its output; returns its RESULT line, if any. */
function runChild(mode: string): RunResult | undefined {
  const r = spawnSync(process.execPath, [process.argv[1]!], { encoding: 'utf8', env: { ...process.env, MPE_BENCH_CONVERT_MODE: mode } });
  let result: RunResult | undefined;
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7)) as RunResult;
    else if (line !== '') console.log(line);
  }
  if (r.stderr) process.stderr.write(r.stderr);
  if (r.status !== 0) process.exitCode = r.status ?? 1;
  return result;
}

const ROUNDS = Number(process.env.MPE_BENCH_CONVERT_ROUNDS ?? 3);

async function main(): Promise<void> {
  const mode = process.env.MPE_BENCH_CONVERT_MODE;
  if (mode !== undefined) return child(mode);
  if (!fs.existsSync(input)) await synthesize();
  // Alternating rounds: on a shared machine single runs vary by ±30 %; best and median say more.
  const runs: RunResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const m of ['threads', 'single']) {
      const r = runChild(m);
      if (r) runs.push(r);
    }
  }
  for (const m of ['threads', 'single']) {
    const mine = runs.filter((r) => r.mode === m);
    if (mine.length === 0) continue;
    const walls = mine.map((r) => r.seconds).sort((a, b) => a - b);
    const rss = mine.map((r) => r.rssMB).sort((a, b) => a - b);
    const inMB = mine[0]!.inMB;
    const median = walls[Math.floor(walls.length / 2)]!;
    console.log(
      `${m === 'threads' ? 'two threads' : 'one thread '} over ${mine.length} runs: best ${walls[0]!.toFixed(2)} s, median ${median.toFixed(2)} s (${(inMB / median).toFixed(0)} MB/s), peak RSS ${rss[0]!.toFixed(0)}–${rss[rss.length - 1]!.toFixed(0)} MB`,
    );
  }
  runChild('alone');
}

void main();
