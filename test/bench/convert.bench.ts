// Conversion benchmark (issue 4): synthesize a ~300 MB CLOG2 (cached under out/bench-data), then
// convert it to SLOG-2 in a fresh child process and print wall time, MB/s, CPU time and peak RSS,
// with the ratio to the reference converter (9.4–10.9 s wall, 300–480 MB peak RSS for 310 MB).
//   MPE_BENCH_CONVERT_MB=50 node test/bench/run.mjs convert     (smaller input)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { synthesizeClog2File } from '../../src/io/synthFile';
import { convertFile } from '../../src/worker/convertJob';
import { chunksOf } from '../../src/format/bytes/memorySource';
import { convertClogFormat } from '../../src/format/info/clogInfo';
import { FileSource } from '../../src/io/fileSource';
import { describeBaseline, ratio, readScanBaseline } from './baseline';

const root = process.env.MPE_TRACE_ROOT ?? process.cwd();
const targetMB = Number(process.env.MPE_BENCH_CONVERT_MB ?? 300);
const dataDir = path.join(root, 'out', 'bench-data');
const input = path.join(dataDir, `synth-${targetMB}MB.clog2`);
const output = path.join(dataDir, `synth-${targetMB}MB.slog2`);

const REFERENCE = { inputMB: 310, wallSeconds: [9.4, 10.9], peakRssMB: [300, 480] };

async function synthesize(): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const report = await synthesizeClog2File(input, { ranks: 16, bytes: targetMB * 1e6, srcloc: true, seed: 4 });
  console.log(`synthesized ${input}: ${(report.bytes / 1e6).toFixed(1)} MB, ${report.iterations} iterations, ${report.srclocRecords} SRCLOC records`);
}

async function child(): Promise<void> {
  const baseline = await readScanBaseline(input);
  console.log(describeBaseline(baseline));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await convertFile(input, output, { force: true });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const inMB = r.inputBytes / 1e6;
  const rssMB = process.resourceUsage().maxRSS / 1024;
  const refWall = REFERENCE.wallSeconds.map((s) => (s * inMB) / REFERENCE.inputMB);
  console.log(`input   ${inMB.toFixed(1)} MB CLOG2 → ${(r.written.bytes / 1e6).toFixed(1)} MB SLOG-2`);
  console.log(`output  ${r.written.drawables} drawables, ${r.written.nodes} nodes, depth ${r.written.maxTreeDepth}, ${r.written.locatedDrawables} with source locations`);
  console.log(`wall    ${seconds.toFixed(2)} s  (${(inMB / seconds).toFixed(1)} MB/s) = ${ratio(seconds, baseline)}, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
  console.log(`rss     ${rssMB.toFixed(0)} MB peak`);
  console.log(`vs reference (scaled to this input): ${(refWall[0]! / seconds).toFixed(1)}–${(refWall[1]! / seconds).toFixed(1)}× faster, ${(REFERENCE.peakRssMB[0]! / rssMB).toFixed(1)}–${(REFERENCE.peakRssMB[1]! / rssMB).toFixed(1)}× less memory`);
  console.log(`targets ≤ ${((2 * inMB) / 300).toFixed(2)} s (2 s per 300 MB): ${seconds <= (2 * inMB) / 300 ? 'met' : 'NOT met'}; ≤ 200 MB RSS: ${rssMB <= 200 ? 'met' : 'NOT met'}`);
  fs.rmSync(output, { force: true });

  // The same input through the CLOG2 converter alone (drawables discarded): the writer's share.
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  const source = await FileSource.open(input, { maxBlocks: 2 });
  let n = 0;
  for await (const batch of convertClogFormat('clog2', chunksOf(source, 1 << 20), { name: input }).batches) n += batch.length;
  await source.close();
  const convertOnly = (performance.now() - t1) / 1000;
  const convertCpu = process.cpuUsage(c1);
  const totalCpu = (cpu.user + cpu.system) / 1e6;
  const onlyCpu = (convertCpu.user + convertCpu.system) / 1e6;
  console.log(`split   converter alone ${convertOnly.toFixed(2)} s wall / ${onlyCpu.toFixed(2)} s CPU (${n} drawables); writer + I/O ≈ ${(seconds - convertOnly).toFixed(2)} s wall / ${(totalCpu - onlyCpu).toFixed(2)} s CPU`);
}

async function main(): Promise<void> {
  if (process.env.MPE_BENCH_CONVERT_CHILD === '1') return child();
  if (!fs.existsSync(input)) await synthesize();
  const r = spawnSync(process.execPath, [process.argv[1]!], { stdio: 'inherit', env: { ...process.env, MPE_BENCH_CONVERT_CHILD: '1' } });
  if (r.status !== 0) process.exitCode = r.status ?? 1;
}

void main();
