// Benchmark runner: bundles each test/bench/*.bench.ts with esbuild (like test/run.mjs) and runs
// them one after another, each in its own node process, printing a header per bench, the bench's
// own figures (it prints them) and that process's peak RSS, then one table of the speed targets the
// benches measured (their `TARGET {json}` lines, test/bench/targets.ts). Figures only, no pass/fail.
//   node test/bench/run.mjs            every bench
//   node test/bench/run.mjs slog2      only benches whose file name contains "slog2"
// Benches find the repository root in MPE_TRACE_ROOT (as tests do).
import * as esbuild from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import readline from 'node:readline';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const benchDir = path.join(root, 'test', 'bench');
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const benches = fs
  .readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

const outdir = path.join(root, 'out', 'bench');
fs.rmSync(outdir, { recursive: true, force: true });
fs.mkdirSync(outdir, { recursive: true });
await esbuild.build({
  // The converter thread's script sits next to the benches, where bundledConverterScript() looks.
  // The conversion worker's too, for benches that convert as the editor does (preview.bench.ts).
  entryPoints: [
    ...benches.map((f) => path.join(benchDir, f)),
    { in: path.join(root, 'src', 'worker', 'converter.ts'), out: 'converter' },
    { in: path.join(root, 'src', 'worker', 'conversionWorker.ts'), out: 'worker' },
  ],
  outdir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  external: ['vscode'],
  logLevel: 'warning',
});

// Preloaded into every bench process: reports its peak resident set size when it exits.
const peak = path.join(outdir, 'peak-rss.cjs');
fs.writeFileSync(
  peak,
  "process.on('exit', (code) => { process.stdout.write(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MiB (exit ${code})\\n`); });\n",
);

/** Runs one bench, echoing its output as it comes; its TARGET lines go into `targets`. */
function runBench(js, targets) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', '--require', peak, js], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: root,
      env: { ...process.env, MPE_TRACE_ROOT: root },
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('TARGET ')) {
        try {
          targets.push(JSON.parse(line.slice('TARGET '.length)));
          return;
        } catch {
          // not one of ours: printed as is
        }
      }
      console.log(line);
    });
    child.on('close', (code) => resolve(code));
  });
}

/** Milliseconds of machineProbe.mjs's fixed work now (undefined if it failed): the machine's speed at this moment. */
function probeMachine() {
  const r = spawnSync(process.execPath, [path.join(benchDir, 'machineProbe.mjs')], { encoding: 'utf8' });
  const ms = Number(r.stdout.trim());
  return r.status === 0 && ms > 0 ? ms : undefined;
}
const probes = [];
function reportProbe(when) {
  const ms = probeMachine();
  if (ms !== undefined) probes.push(ms);
  console.log(`machine probe ${when}: ${ms === undefined ? 'failed' : `${ms.toFixed(0)} ms`} (fixed JS work, test/bench/machineProbe.mjs; lower is faster)`);
}

let failed = 0;
const targets = [];
for (const f of benches) {
  const js = path.join(outdir, f.replace(/\.ts$/, '.js'));
  console.log(`\n=== ${f} ===`);
  reportProbe('before it');
  const start = Date.now();
  const status = await runBench(js, targets);
  console.log(`(${((Date.now() - start) / 1000).toFixed(1)} s wall)`);
  if (status !== 0) failed++;
}
if (benches.length === 0) console.log('no benchmarks matched');
else reportProbe('at the end');
if (targets.length > 0) {
  console.log('\n=== targets measured in this run ===');
  console.log('| target | figure | baseline (same run) | ratio | |');
  console.log('|---|---|---|---|---|');
  for (const t of targets) console.log(`| ${t.target} | ${t.figure} | ${t.baseline} | ${t.ratio ?? ''} | ${t.met ? 'met' : 'NOT met'} |`);
}
if (probes.length > 0) {
  const sorted = [...probes].sort((a, b) => a - b);
  console.log(
    `\nmachine probe over this run: median ${sorted[(sorted.length - 1) >> 1].toFixed(0)} ms, ${sorted[0].toFixed(0)}–${sorted[sorted.length - 1].toFixed(0)} ms in ${sorted.length} probes` +
      ' (the same fixed work each time: the absolute targets move with it, the ratios against a baseline of the same run do not)',
  );
}
process.exit(failed === 0 ? 0 : 1);
