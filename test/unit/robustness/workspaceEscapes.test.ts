// Issue 14 §13–15: "inside the workspace" is decided on real paths (a symlink ws/sys -> /etc, or
// `/ws/../../tmp/x`, does not count as inside), and workspace-set source path mappings are ignored
// in untrusted workspaces (also declared in package.json restrictedConfigurations). The host code
// (src/host/sourceLinks.ts, src/host/uriHandler.ts) makes its decisions through these functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWithin, realPathInside, realPathOf } from '../../../src/io/pathContainment';
import { effectiveMappingsValue, ignoredWorkspaceMappings } from '../../../src/core/sourcePath/trust';
import { repoRoot } from '../../helpers/paths';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-ws-escape-')));
process.on('exit', () => fs.rmSync(base, { recursive: true, force: true }));
const ws = path.join(base, 'ws');
const secret = path.join(base, 'etc');
fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
fs.mkdirSync(secret);
fs.writeFileSync(path.join(secret, 'passwd'), 'root:x:0:0');
fs.writeFileSync(path.join(ws, 'src', 'a.c'), 'int main;');
fs.symlinkSync(secret, path.join(ws, 'sys'));
fs.symlinkSync(ws, path.join(base, 'ws-link'));

test('a symlink inside the workspace that points outside does not make its target inside', async () => {
  const viaLink = path.join(ws, 'sys', 'passwd');
  assert.equal(isWithin(viaLink, ws), true, 'as text it looks inside (the old check)');
  const r = await realPathInside(viaLink, [ws]);
  assert.equal(r.inside, false);
  assert.equal(r.real, path.join(secret, 'passwd'));
  assert.equal((await realPathInside(path.join(ws, 'src', 'a.c'), [ws])).inside, true);
  // The workspace opened through a link to it: files in it are still inside.
  assert.equal((await realPathInside(path.join(ws, 'src', 'a.c'), [path.join(base, 'ws-link')])).inside, true);
  assert.equal((await realPathInside(path.join(base, 'ws-link', 'src', 'a.c'), [ws])).inside, true);
  // A mapped target through the link: outside too.
  assert.equal((await realPathInside(path.join(ws, 'sys'), [ws])).inside, false);
});

test('`..` is normalised before the comparison (view links): /ws/../../tmp/x is outside', async () => {
  const sneaky = `${ws}/../etc/passwd`;
  assert.ok(sneaky.startsWith(ws + '/'), 'as text it starts with the workspace path (the old check)');
  assert.equal((await realPathInside(sneaky, [ws])).inside, false);
  assert.equal((await realPathInside(`${ws}/src/../src/a.c`, [ws])).inside, true);
  // Paths that do not exist yet resolve through their existing ancestors.
  assert.equal(await realPathOf(path.join(ws, 'sys', 'new', 'file')), path.join(secret, 'new', 'file'));
  assert.equal((await realPathInside(path.join(ws, 'missing', '..', '..', 'etc', 'x'), [ws])).inside, false);
  // A sibling whose name extends the root's is not inside it.
  assert.equal(isWithin(`${ws}2/x`, ws, false), false);
});

test('untrusted workspace: only the user setting of sourcePathMappings counts; the manifest restricts it', () => {
  const inspected = { globalValue: { '/home/me': '/src' }, workspaceValue: { '/home/alice': '../../../../etc' } };
  const merged = { ...inspected.globalValue, ...inspected.workspaceValue };
  assert.deepEqual(effectiveMappingsValue(inspected, merged, true), merged);
  assert.deepEqual(effectiveMappingsValue(inspected, merged, false), { '/home/me': '/src' });
  assert.equal(effectiveMappingsValue({ workspaceFolderValue: { a: 'b' } }, { a: 'b' }, false), undefined);
  assert.equal(ignoredWorkspaceMappings(inspected, false), true);
  assert.equal(ignoredWorkspaceMappings(inspected, true), false);
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('mpeTrace.sourcePathMappings'));
});

test('the host uses the real-path checks (no text comparison of paths left)', () => {
  const sourceLinks = fs.readFileSync(path.join(repoRoot, 'src/host/sourceLinks.ts'), 'utf8');
  const uriHandler = fs.readFileSync(path.join(repoRoot, 'src/host/uriHandler.ts'), 'utf8');
  assert.match(sourceLinks, /realPathInside\(/);
  assert.match(sourceLinks, /effectiveMappingsValue\(/);
  assert.doesNotMatch(sourceLinks, /c\.kind === 'mapped' \|\|/, 'mapped targets are not opened without a check');
  assert.match(uriHandler, /realPathInside\(/);
  assert.doesNotMatch(uriHandler, /uri\.path\.startsWith\(base\)/);
});
