// The layering table (test/helpers/layering.ts, mirrored in docs/ARCHITECTURE.md) holds on the tree:
// every import between rooms is an allowed arrow, the pure rooms (src/core, src/protocol) import no
// vscode, node:*, preact/uplot or DOM; and the check itself catches a wrong import in a synthetic tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../helpers/paths';
import { ALLOWED, layeringProblems, roomOf } from '../helpers/layering';

test('the tree keeps the layering table', () => {
  assert.deepEqual(layeringProblems(repoRoot), []);
});

test('every room of the tree is in the layering table', () => {
  const rooms = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) rooms.add(roomOf(path.relative(repoRoot, p).split(path.sep).join('/')) ?? '');
    }
  };
  walk(path.join(repoRoot, 'src'));
  walk(path.join(repoRoot, 'webview'));
  assert.deepEqual(
    [...rooms].filter((r) => !(r in ALLOWED)),
    [],
  );
});

/** A synthetic tree: files (repo-relative path → text). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-layering-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

test('the check flags wrong arrows, impure core imports and webview values from core, and passes allowed ones', () => {
  const root = tree({
    'src/core/model/types.ts': 'export const A = 1;\n',
    'src/core/bytes/reader.ts': "import { A } from '../model/types';\n", // bytes → model: up
    'src/core/query/q.ts': "import { encode } from '../../protocol/wire';\nimport fs from 'node:fs';\n", // core → protocol; node:*
    'src/core/query/windowKey.ts': 'export const K = 1;\n',
    'src/core/stats/types.ts': 'export interface S { n: number }\n',
    'src/protocol/wire.ts': "export * from '../core/query/q';\nexport function encode(): void {}\n",
    'src/cli/c.ts': "import { run } from '../worker/w';\n", // cli → worker
    'src/worker/w.ts': "import { encode } from '../protocol/wire';\nexport function run(): void { encode(); }\n",
    'webview/a.ts':
      "import { A } from '../src/core/model/types';\n" + // webview → core value
      "import type { S } from '../src/core/stats/types';\n" + // allowed: types
      "import { type S as T } from '../src/core/stats/types';\n" + // allowed: types
      "import { K } from '../src/core/query/windowKey';\n" + // allowed: the named module
      "import { encode } from '../src/protocol/wire';\n", // allowed: protocol values
  });
  try {
    const problems = layeringProblems(root).map((p) => p.replace(/ \(.*\)$/, ''));
    assert.deepEqual(problems.sort(), [
      'src/cli/c.ts: cli → worker is not an allowed arrow',
      'src/core/bytes/reader.ts: core/bytes → core/model is not an allowed arrow',
      'src/core/query/q.ts: core/query imports node:fs',
      'src/core/query/q.ts: core/query → protocol is not an allowed arrow',
      'webview/a.ts: webview → core/model is not an allowed arrow',
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a room missing from the table is a problem, not a pass', () => {
  const root = tree({ 'src/newroom/x.ts': 'export const X = 1;\n' });
  try {
    assert.deepEqual(layeringProblems(root), ['src/newroom/x.ts: room newroom is not in the layering table']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
