// `npm run fuzz -- [options]`: bundles the fuzz runner and its worker (esbuild, like test/run.mjs)
// into a per-run directory and runs it. Options: see test/fuzz/runner.ts or docs/ROBUSTNESS.md.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

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
let status = 1;
try {
  const { main } = createRequire(import.meta.url)(path.join(outdir, 'runner.js'));
  status = await main(process.argv.slice(2), root);
} catch (e) {
  console.error(`fuzz: ${e instanceof Error ? e.message : String(e)}`);
  status = 2;
} finally {
  fs.rmSync(outdir, { recursive: true, force: true });
}
process.exit(status);
