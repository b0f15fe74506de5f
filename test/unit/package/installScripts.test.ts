// `npm install` / `npm ci` print no advisory of ours: every dependency with an install script is reviewed in
// package.json's allowScripts (npm >= 11.16 warns "install scripts not yet covered by allowScripts" otherwise,
// and npm 12 skips such scripts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { repoRoot } from '../../helpers/paths';

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.trim();
const [major, minor] = npmVersion.split('.').map(Number);
const hasAllowScripts = major > 11 || (major === 11 && minor >= 16);

test(
  'every installed dependency with an install script is covered by allowScripts',
  { skip: hasAllowScripts ? false : `npm ${npmVersion} has no allowScripts (npm >= 11.16)` },
  () => {
    const r = spawnSync('npm', ['install-scripts', 'ls'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /No packages with unreviewed install scripts/, r.stdout);
  },
);
