// The first lines esbuild.mjs puts on dist/cli.js (scripts/cliLauncher.mjs, an ES module the
// TypeScript tests cannot import): read once through Node.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths';

let banner: string | undefined;

export function cliBanner(): string {
  if (banner !== undefined) return banner;
  const url = pathToFileURL(path.join(repoRoot, 'scripts', 'cliLauncher.mjs')).href;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { CLI_BANNER } from '${url}'; process.stdout.write(CLI_BANNER);`], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return (banner = r.stdout);
}
