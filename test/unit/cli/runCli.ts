// Runs the mpe-trace CLI as a child process, built from the current sources (never a stale dist/).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../helpers/paths';
import { bundleNode } from '../../helpers/bundle';
import { cliBanner } from '../../helpers/cliBanner';

let cli: string | undefined;

function buildCli(): string {
  // Per-process output folder (test files run in parallel), laid out like dist/: the CLI and the
  // converter thread's script next to it, so `convert` runs in two threads as installed; the CLI
  // with dist/cli.js's first lines (its sh launcher), so it can also be executed as the bin is.
  const dir = path.join(repoRoot, 'out', 'test-cli', `cli-${process.pid}`);
  bundleNode('src/worker/converter.ts', path.join(dir, 'converter.js'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const built = bundleNode('src/cli/main.ts', path.join(dir, 'cli.js'), cliBanner());
  fs.chmodSync(built, 0o755);
  return built;
}

/** The bundled CLI (built on first use): for tests that spawn it themselves (signals, limits). */
export function cliPath(): string {
  return (cli ??= buildCli());
}

export function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  cli ??= buildCli();
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}
