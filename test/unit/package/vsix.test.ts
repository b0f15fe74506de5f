// The .vsix we ship: built the way `npm run package` builds it (production esbuild, then
// `vsce package --no-dependencies`), but in a temporary folder so the working tree's dist/ is left alone
// while other tests run. Asserts the content list (only allowed paths), required files, the manifest and
// the size budget.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { unzipSync } from 'fflate';
import { repoRoot } from '../../helpers/paths';

const sizeBudgetBytes = 2 * 1024 * 1024;
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  publisher: string;
  main: string;
  icon?: string;
  contributes?: unknown;
};

/** What may be in the package: vsce's own two files, then our dist/ bundles, media/ and the documents. */
const allowed: RegExp[] = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE(\.txt)?$/,
  /^extension\/dist\/[\w./-]+\.(js|css)$/,
  /^extension\/media\/[\w./-]+$/,
];

let tmp: string;
let vsixPath: string;
let entries: Record<string, Uint8Array>;

function run(command: string, args: string[], cwd: string): void {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${path.basename(args[0] ?? command)} failed in ${cwd}:\n${r.stdout}\n${r.stderr}`);
}

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-trace-vsix-'));
  // 1. Production build into <tmp>/build/dist: esbuild.mjs builds relative to its working directory.
  const build = path.join(tmp, 'build');
  fs.mkdirSync(build);
  for (const name of ['src', 'webview', 'node_modules', 'tsconfig.json']) {
    if (fs.existsSync(path.join(repoRoot, name))) fs.symlinkSync(path.join(repoRoot, name), path.join(build, name));
  }
  run(process.execPath, [path.join(repoRoot, 'esbuild.mjs'), '--production'], build);
  // 2. The packaging inputs, as in the repository.
  const stage = path.join(tmp, 'stage');
  fs.mkdirSync(stage);
  for (const name of ['package.json', '.vscodeignore', 'README.md', 'CHANGELOG.md', 'LICENSE', 'media']) {
    fs.cpSync(path.join(repoRoot, name), path.join(stage, name), { recursive: true });
  }
  fs.cpSync(path.join(build, 'dist'), path.join(stage, 'dist'), { recursive: true });
  vsixPath = path.join(tmp, `${pkg.name}-${pkg.version}.vsix`);
  run(process.execPath, [path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsixPath], stage);
  entries = unzipSync(fs.readFileSync(vsixPath));
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the .vsix holds only dist bundles, media, package.json, README, CHANGELOG and LICENSE', (t) => {
  t.diagnostic(`${Object.keys(entries).length} entries: ${Object.keys(entries).join(' ')}`);
  const unexpected = Object.keys(entries).filter((name) => !allowed.some((re) => re.test(name)));
  assert.deepEqual(unexpected, [], `unexpected files in the .vsix: ${unexpected.join(', ')}`);
  assert.ok(!Object.keys(entries).some((name) => name.endsWith('.map')), 'source maps are shipped');
});

test('the .vsix holds the entry point, the icon and the documents', () => {
  const required = [
    'extension.vsixmanifest',
    'extension/package.json',
    `extension/${path.posix.normalize(pkg.main)}`,
    'extension/readme.md',
    'extension/changelog.md',
  ];
  if (pkg.icon) required.push(`extension/${pkg.icon}`);
  const missing = required.filter((name) => !(name in entries));
  assert.deepEqual(missing, []);
  assert.ok('extension/LICENSE.txt' in entries || 'extension/LICENSE' in entries, 'no LICENSE');
});

test('the packaged package.json and manifest name this extension and version', () => {
  const packaged = JSON.parse(new TextDecoder().decode(entries['extension/package.json'])) as typeof pkg;
  assert.equal(packaged.name, pkg.name);
  assert.equal(packaged.version, pkg.version);
  assert.equal(packaged.publisher, pkg.publisher);
  assert.deepEqual(packaged.contributes, pkg.contributes);
  const manifest = new TextDecoder().decode(entries['extension.vsixmanifest']);
  assert.match(manifest, new RegExp(`<Identity [^>]*Id="${pkg.name}"[^>]*Version="${pkg.version.replace(/\./g, '\\.')}"[^>]*Publisher="${pkg.publisher}"`));
});

test('the icon is a 128x128 PNG', () => {
  assert.ok(pkg.icon, 'package.json has no icon');
  const png = entries[`extension/${pkg.icon}`];
  assert.ok(png, 'icon not packaged');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
  assert.equal(view.getUint32(16), 128);
  assert.equal(view.getUint32(20), 128);
});

test(`the .vsix is at most ${sizeBudgetBytes / 1024 / 1024} MB`, () => {
  const size = fs.statSync(vsixPath).size;
  assert.ok(size <= sizeBudgetBytes, `.vsix is ${size} bytes`);
});
