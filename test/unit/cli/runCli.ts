// Runs the mpe-trace CLI as a child process, built from the current sources (never a stale dist/).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../helpers/paths';

let cli: string | undefined;

function buildCli(): string {
  // Per-process output folder (test files run in parallel), laid out like dist/: the CLI and the
  // converter thread's script next to it, so `convert` runs in two threads as installed.
  const dir = path.join(repoRoot, 'out', 'test-cli', `cli-${process.pid}`);
  const esbuild = path.join(repoRoot, 'node_modules', '.bin', 'esbuild');
  for (const [entry, name] of [
    ['src/cli/main.ts', 'cli.js'],
    ['src/worker/converter.ts', 'converter.js'],
  ] as const) {
    const r = spawnSync(esbuild, [path.join(repoRoot, entry), '--bundle', '--platform=node', '--format=cjs', '--target=node20', `--outfile=${path.join(dir, name)}`, '--log-level=warning'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'cli.js');
}

export function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  cli ??= buildCli();
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}
