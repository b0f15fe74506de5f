// Issue 14 §8: no spread (or Function.apply) of data-sized arrays into call arguments anywhere:
// V8 puts every argument on the stack, so `Math.max(...cells)` with 10^6 rows threw "Maximum call
// stack size exceeded". The scan keeps the class from coming back; the table test runs 10^6 rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { formatTable } from '../../../src/cli/commands/stats';
import { repoRoot } from '../../helpers/paths';

/** Spreads whose size is bounded by something other than the data (reviewed). */
const ALLOWED = [
  'src/cli/args.ts: positionals.push(...argv.slice(i + 1))', // command-line arguments
  'src/core/formats/slog2/categoryMap.ts: String.fromCharCode(...r.bytesView(ntypes', // ntypes is an i16 (≤ 32767)
  'src/core/synth/synthClog2.ts: Math.max(...clock)', // one clock per rank, ranks ≤ 4096
  'src/core/synth/synthClog2.ts: Math.max(...members.map(', // ranks ≤ 4096
  'webview/timeline/controller.ts: this.scheduler.mark(...', // a handful of layer names
  "src/core/index/indexHeader.ts: String.fromCharCode(...r.bytesView(8, 'magic'))", // 8 bytes
  'src/core/bookmarks/store.ts: edit(...edits', // rest parameter declaration
  'webview/timeline/scheduler.ts: mark(...layers', // rest parameter declaration
  'src/core/query/windowColumns.ts: out.push(...(Object.values(t.buffers)', // a few typed-array buffers per table
  'webview/stats/RowChart.tsx: Math.max(8, ...(values ?? [])', // uPlot axis tick labels (a dozen)
  'src/host/uriHandler.ts: vscode.Uri.joinPath(f.uri, ...view.trace.split(', // path segments of one link
];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(p);
  }
  return out;
}

test('no spread of arrays into call arguments (Math.max(...x), push(...x), f.apply) outside the reviewed list', () => {
  const found: string[] = [];
  for (const file of [...sources(path.join(repoRoot, 'src')), ...sources(path.join(repoRoot, 'webview'))]) {
    const rel = path.relative(repoRoot, file);
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        // `name(... x` or `, ...x` inside a call's parentheses; array literals `[...x]` and object spreads are fine.
        const call = /[\w)\]]\s*\(([^()[\]{}]*,\s*)?\.\.\.[\w(]/.test(code) || /\.apply\(\s*(null|undefined|this|Math)\b/.test(code);
        if (!call) return;
        if (ALLOWED.some((a) => a.startsWith(`${rel}: `) && code.includes(a.slice(rel.length + 2)))) return;
        found.push(`${rel}:${i + 1}: ${code.trim()}`);
      });
  }
  assert.deepEqual(found, []);
});

test('a stats table with 10^6 rows formats (was: Maximum call stack size exceeded)', () => {
  const rows = Array.from({ length: 1_000_000 }, (_, i) => [`cat${i}`, i, i / 7]);
  const text = formatTable({ columns: ['category', 'count', 'share'], rows });
  assert.equal(text.split('\n').length, 1_000_002);
  assert.match(text.split('\n')[1_000_000]!, /^cat999999 +999999 +142857$/);
});

test('10^5 undefined etypes (categories): converted, one warning per etype only up to a bound', async () => {
  const { hostileClog2Bytes } = await import('../../../src/core/synth/hostileClog2');
  const { convertClog2 } = await import('../../../src/core/formats/clog2/convertClog2');
  const { chunksOf, MemorySource } = await import('../../../src/core/bytes/memorySource');
  const bytes = await hostileClog2Bytes({ events: 100_000, times: 'descending', categories: 100_000, undefinedCategories: true });
  const conv = convertClog2(chunksOf(new MemorySource('cats.clog2', bytes), 1 << 20), { name: 'cats.clog2' });
  for await (const b of conv.batches) void b;
  assert.equal(conv.summary.categories.length, 100_000);
  assert.ok(conv.summary.warnings.length <= 110, `${conv.summary.warnings.length} warnings`);
  assert.ok(conv.summary.warnings.some((w) => /more etype problems/.test(w)));
});
