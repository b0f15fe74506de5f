// Test runner: bundles every test/**/*.test.ts with esbuild (one CommonJS file each, into
// out/test/) and runs them with node's built-in test runner.
//   node test/run.mjs                 all unit/integration tests, then the e2e tests (test/e2e/run.mjs;
//                                     MPE_E2E=0 skips them, except on CI)
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
if (tests.length === 0) {
  // `node --test` given no file discovers every test-like file itself (the bench runner and this
  // runner included), so a filter matching nothing ran them all at once.
  console.error(`no test file under test/ matches ${filters.map((f) => JSON.stringify(f)).join(' or ')}`);
  process.exit(1);
}
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
// A TAP copy of the results (to a file) gives the counts for the closing total line.
const tapFile = path.join(root, 'out', `unit-tests-${process.pid}.tap`);
// --test-timeout: a hang guard only (a test that never ends fails instead of stalling the run), far above
// what any test needs on a loaded machine; tests assert no durations (speed figures: npm run bench).
const r = spawnSync(
  process.execPath,
  [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    '--test-concurrency=2',
    '--test-timeout=600000',
    ...built,
  ],
  {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, MPE_TRACE_ROOT: root },
  },
);
fs.rmSync(outdir, { recursive: true, force: true });
if (filters.length > 0) process.exit(r.status ?? 1);
process.exit(runE2e(r.status ?? 1));

/** After the unit tests: the end-to-end tests in a real VS Code (test/e2e/run.mjs), then one total line. */
function runE2e(unitStatus) {
  const tap = fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '';
  fs.rmSync(tapFile, { force: true });
  const tapCount = (key) => Number(tap.match(new RegExp(`^# ${key} (\\d+)$`, 'm'))?.[1] ?? 0);
  const unit = { passed: tapCount('pass'), failed: tapCount('fail') + tapCount('cancelled'), skipped: tapCount('skipped') + tapCount('todo') };
  console.log(`unit: ${unit.passed} passed, ${unit.failed} failed, ${unit.skipped} skipped`);
  let e2e = { passed: 0, failed: 0, skipped: 0 };
  let e2eStatus = 0;
  if (process.env.MPE_E2E === '0' && !process.env.CI) {
    console.log('e2e: SKIPPED because MPE_E2E=0 - the tests in a real VS Code did not run');
  } else {
    if (process.env.MPE_E2E === '0') console.log('e2e: MPE_E2E=0 is ignored on CI (CI is set)');
    e2eStatus = spawnSync(process.execPath, [path.join(root, 'test', 'e2e', 'run.mjs')], { stdio: 'inherit', cwd: root }).status ?? 1;
    const summaryFile = path.join(root, 'test-results', 'e2e', 'summary.json');
    if (fs.existsSync(summaryFile)) e2e = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
    if (e2eStatus !== 0 && e2e.failed === 0) e2e.failed = 1;
  }
  const total = (k) => unit[k] + e2e[k];
  console.log(`total: ${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped`);
  return unitStatus !== 0 ? unitStatus : e2eStatus;
}
