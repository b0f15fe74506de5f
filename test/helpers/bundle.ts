// Bundles one Node entry point of this repository with esbuild, as esbuild.mjs does for dist/
// (tests build from the current sources, never a stale dist/). Fails the calling test on error.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths';

/** Bundles `entry` (absolute, or relative to the repository root) into `outfile`; returns `outfile`. */
export function bundleNode(entry: string, outfile: string, banner?: string): string {
  const esbuild = path.join(repoRoot, 'node_modules', '.bin', 'esbuild');
  const r = spawnSync(
    esbuild,
    [
      path.resolve(repoRoot, entry),
      '--bundle',
      '--platform=node',
      '--format=cjs',
      '--target=node20',
      `--outfile=${outfile}`,
      '--log-level=warning',
      ...(banner === undefined ? [] : [`--banner:js=${banner}`]),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return outfile;
}
