// Test runner: bundles every test/**/*.test.ts with esbuild (one CommonJS file each, into
// out/test/) and runs them with node's built-in test runner.
//   node test/run.mjs                 all unit/integration tests (+ e2e when enabled, see below)
//   node test/run.mjs path/filter     only test files whose path contains the filter
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));

function findTests(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === 'fixtures' || e.name === 'e2e' || e.name === 'bench') continue;
      out.push(...findTests(p));
    } else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const tests = findTests(path.join(root, 'test')).filter((t) => filters.length === 0 || filters.some((f) => t.includes(f)));
// One output directory per run: several runs may share the working tree at the same time.
const outdir = path.join(root, 'out', 'test', `run-${process.pid}`);
fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: tests,
  outdir,
  outbase: path.join(root, 'test'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  external: ['vscode'],
  logLevel: 'warning',
  jsx: 'automatic',
  jsxImportSource: 'preact',
});
const built = tests.map((t) => path.join(outdir, path.relative(path.join(root, 'test'), t)).replace(/\.ts$/, '.js'));
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', ...built], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, MPE_TRACE_ROOT: root },
});
fs.rmSync(outdir, { recursive: true, force: true });
process.exit(r.status ?? 1);
