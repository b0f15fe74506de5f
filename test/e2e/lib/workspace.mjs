// Builds a fresh copy of the test/sample workspace: the committed template (test/e2e/workspace: the C
// source of the user_states corpus program) plus copies of real traces from test/fixtures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { repoRoot } from './codeServer.mjs';

export const templateDir = path.join(repoRoot, 'test', 'e2e', 'workspace');
const fixturesDir = path.join(repoRoot, 'test', 'fixtures');

/** Trace files copied into the workspace root (name in the workspace -> fixture name). */
export const traceFiles = {
  'user_states_4.clog2': 'user_states_4.clog2',
  'user_states_4.slog2': 'user_states_4.slog2',
  'ring_p2p_4.slog2': 'ring_p2p_4.slog2',
  'pi_bcast_4.slog2': 'pi_bcast_4.slog2',
  // MPICH 1.2.0's older formats: SLOG-1 (Jumpshot-3) and ALOG (upshot).
  'pmandel.slog': 'legacy/pmandel.slog',
  'cpilog.alog': 'legacy/cpilog.alog',
};
/** Gzip-compressed copies made at build time (the editor also opens *.gz). */
export const gzipFiles = { 'pi_bcast_4.slog2.gz': 'pi_bcast_4.slog2' };

/**
 * Two synthetic runs of one program for "Compare with…", made by the built CLI (dist/cli.js): B has
 * Compute 3× longer on every rank and starts 2 ms later (same seed, so nothing else differs).
 */
export const compareRuns = {
  'compare_a.clog2': ['--seed', '5'],
  'compare_b.clog2': ['--seed', '5', '--stretch', 'Compute:3', '--start-delay', '0.002'],
};

function synthCompareRuns(dest) {
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) return;
  for (const [name, extra] of Object.entries(compareRuns)) {
    const r = spawnSync(process.execPath, [cli, 'synth', '--ranks', '4', '--iterations', '24', '--srcloc', ...extra, '-o', path.join(dest, name)], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`synth ${name} failed: ${r.stderr}`);
  }
}

/**
 * A synthetic run big enough (~100 MB, ~70 MiB of leaves: over the 32 MiB from which the analysis
 * worker decodes in its decoder thread, and the 64 MiB from which its statistics are counted in two
 * halves, convert/decodeThread.ts) to be analysed and counted that way, with what `mpe-trace analyze
 * --json` and `mpe-trace stats --json` say of it beside it (`big_run.analysis.json`, `big_run.stats.json`).
 */
export const bigRun = 'big_run.slog2';

function synthBigRun(dest) {
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) return;
  const clog2 = path.join(dest, 'big_run.clog2');
  const slog2 = path.join(dest, bigRun);
  const run = (args) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`mpe-trace ${args[0]} failed: ${r.stderr}`);
    return r.stdout;
  };
  run(['synth', '--ranks', '16', '--bytes', '180M', '--srcloc', '--comms', '--seed', '3', '-o', clog2]);
  run(['convert', clog2, '-o', slog2]);
  fs.rmSync(clog2);
  fs.writeFileSync(path.join(dest, 'big_run.analysis.json'), run(['analyze', slog2, '--json']));
  fs.writeFileSync(path.join(dest, 'big_run.stats.json'), run(['stats', slog2, '--json']));
}

/** `withBigRun`: add big_run.slog2 (the tests; `npm start`'s sample does without its 100 MB). */
export function buildWorkspace(dest, { withBigRun = true } = {}) {
  fs.cpSync(templateDir, dest, { recursive: true });
  synthCompareRuns(dest);
  if (withBigRun) synthBigRun(dest);
  for (const [name, fixture] of Object.entries(traceFiles)) fs.copyFileSync(path.join(fixturesDir, fixture), path.join(dest, name));
  for (const [name, fixture] of Object.entries(gzipFiles)) {
    fs.writeFileSync(path.join(dest, name), zlib.gzipSync(fs.readFileSync(path.join(fixturesDir, fixture))));
  }
  return dest;
}

export function readPackageJson() {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
}

/** The custom editor view type if package.json contributes it (the UI checks for it are guarded by this). */
export function contributedViewType(pkg, viewType = 'mpeTrace.timeline') {
  const editors = pkg.contributes?.customEditors ?? [];
  return editors.some((e) => e.viewType === viewType) ? viewType : undefined;
}
