// The format core and the protocol must run in the extension host, a worker, the CLI, the tests
// and (protocol) the webview: they may not import vscode, node:* modules, preact or DOM code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/paths';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;
const NODE_BUILTINS = new Set(['fs', 'path', 'os', 'crypto', 'child_process', 'worker_threads', 'stream', 'zlib', 'util', 'events', 'url', 'buffer', 'readline', 'perf_hooks', 'assert', 'net', 'http', 'https', 'process']);
const DOM_GLOBALS = /\b(HTMLElement|HTMLCanvasElement|CanvasRenderingContext2D|requestAnimationFrame|localStorage|navigator)\b/;

for (const layer of ['src/core', 'src/protocol']) {
  test(`${layer} imports no vscode, node:*, preact or DOM`, () => {
    const dir = path.join(repoRoot, layer);
    if (!fs.existsSync(dir)) return;
    const offenders: string[] = [];
    for (const file of filesUnder(dir)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2] ?? m[3] ?? '';
        if (spec === 'vscode' || spec.startsWith('node:') || NODE_BUILTINS.has(spec) || spec.startsWith('preact') || spec.startsWith('uplot')) {
          offenders.push(`${path.relative(repoRoot, file)} imports ${spec}`);
        }
        if (layer !== 'src/protocol' && /(^|\/)(host|io|worker|cli)\//.test(spec)) offenders.push(`${path.relative(repoRoot, file)} imports ${spec}`);
      }
      const code = text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
      const dom = DOM_GLOBALS.exec(code);
      if (dom) offenders.push(`${path.relative(repoRoot, file)} uses DOM global ${dom[1]}`);
    }
    assert.deepEqual(offenders, []);
  });
}
