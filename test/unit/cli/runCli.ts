// Runs the mpe-trace CLI as a child process, built from the current sources (never a stale dist/).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../helpers/paths';

let cli: string | undefined;

function buildCli(): string {
  // Per-process output file: test files run in parallel.
  const out = path.join(repoRoot, 'out', 'test-cli', `cli-${process.pid}.js`);
  const esbuild = path.join(repoRoot, 'node_modules', '.bin', 'esbuild');
  const r = spawnSync(esbuild, [path.join(repoRoot, 'src/cli/main.ts'), '--bundle', '--platform=node', '--format=cjs', '--target=node20', `--outfile=${out}`, '--log-level=warning'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  process.on('exit', () => fs.rmSync(out, { force: true }));
  return out;
}

export function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  cli ??= buildCli();
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}
