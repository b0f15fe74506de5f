// `npm run fuzz -- [options]`: bundles the fuzz runner and its worker (esbuild, like test/run.mjs)
// into a per-run directory and runs it. Options: see test/fuzz/runner.ts or docs/ROBUSTNESS.md.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const outdir = path.join(root, 'out', `fuzz-${process.pid}`);
fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: { runner: path.join(root, 'test/fuzz/runner.ts'), worker: path.join(root, 'test/fuzz/worker.ts') },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
});
// The runner runs in a child process: some out-of-memory failures in a worker thread are fatal to
// the whole process (V8 aborts instead of stopping the worker). Then the cases in flight, which
// the runner keeps in a file, are reported here.
const inFlightFile = path.join(outdir, 'in-flight.json');
const runner = path.join(outdir, 'runner.js');
const code = `require(${JSON.stringify(runner)}).main(process.argv.slice(1), ${JSON.stringify(root)}).then((c) => process.exit(c), (e) => { console.error('fuzz: ' + (e && e.message || e)); process.exit(2); })`;
const r = spawnSync(process.execPath, ['-e', code, '--', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_IN_FLIGHT_FILE: inFlightFile },
});
let status = r.status ?? 1;
if (r.status === null || r.status > 2) {
  const ids = fs.existsSync(inFlightFile) ? JSON.parse(fs.readFileSync(inFlightFile, 'utf8')) : [];
  for (const id of ids) {
    console.log(
      `FAIL case ${id} (reproduce: npm run fuzz -- --case ${id}) PROCESS DIED (${r.signal ?? `exit ${r.status}`}): a fatal error the worker limits did not catch (likely out of memory)`,
    );
  }
  if (ids.length === 0) console.log(`fuzz: the runner died (${r.signal ?? `exit ${r.status}`}) outside a case`);
  status = 1;
}
fs.rmSync(outdir, { recursive: true, force: true });
process.exit(status);
