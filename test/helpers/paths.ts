import fs from 'node:fs';
import path from 'node:path';

/** Repository root (set by test/run.mjs; falls back to walking up to package.json). */
export const repoRoot: string = process.env.MPE_TRACE_ROOT ?? findRoot(__dirname);

function findRoot(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'package.json')) && fs.existsSync(path.join(d, 'esbuild.mjs'))) return d;
    if (path.dirname(d) === d) throw new Error('repository root not found');
  }
}

export const fixturesDir = path.join(repoRoot, 'test', 'fixtures');

/** `../shared/traces` next to the repository, when present (developer machines and CI). */
export const sharedTracesDir: string | undefined = (() => {
  const d = path.resolve(repoRoot, '..', 'shared', 'traces');
  return fs.existsSync(d) ? d : undefined;
})();

export function fixture(name: string): string {
  return path.join(fixturesDir, name);
}
