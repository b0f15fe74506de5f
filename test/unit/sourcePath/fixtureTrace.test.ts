/**
 * From the trace to the line of code, without VS Code: every source location the converter
 * attaches in user_states_4.clog2 resolves (through a real directory, node:fs) to the corpus
 * program copied under another folder, and the line it names is the call site
 * (`SRCLOC(n);` or the `__LINE__` the Region info value records).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { normalizePath, parseMappings, resolveSourcePath, type SourceFileSystem } from '../../../src/core/sourcePath';
import { fixture, repoRoot } from '../../helpers/paths';
import { fileChunks } from '../clog2/clogTestUtil';

/** The resolver's file-system interface over a real directory tree. */
function nodeFs(root: string): SourceFileSystem {
  const all: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else all.push(normalizePath(p));
    }
  };
  walk(root);
  return {
    exists: async (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
    findFiles: async (name, { prefix, ignoreCase }) => {
      const want = ignoreCase ? name.toLowerCase() : name;
      return all.filter((f) => {
        const b0 = f.slice(f.lastIndexOf('/') + 1);
        const b = ignoreCase ? b0.toLowerCase() : b0;
        return prefix ? b.startsWith(want) : b === want;
      });
    },
  };
}

test('user_states_4.clog2: every attached location opens the right line of user_states.c', async () => {
  const program = path.join(repoRoot, 'test', 'e2e', 'workspace', 'src', 'user_states.c');
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-srcws-'));
  try {
    const copy = path.join(ws, 'elsewhere', 'corpus', 'user_states.c');
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(program, copy);
    fs.writeFileSync(path.join(ws, 'elsewhere', 'user_states.h'), '/* a decoy with a similar name */\n');
    const lines = fs.readFileSync(copy, 'utf8').split('\n');

    const { drawables } = await collectConversion(convertClog2(fileChunks(fixture('user_states_4.clog2')), { name: 'user_states_4' }));
    const sites = new Set<string>();
    for (const d of drawables) for (const l of [d.source?.start, d.source?.end]) if (l !== undefined) sites.add(`${l.file}\n${l.line}`);
    // Six SRCLOC call sites plus the Region info value's line.
    assert.equal(sites.size, 7);
    const fsApi = nodeFs(ws);
    for (const site of sites) {
      const [file, lineText] = site.split('\n') as [string, string];
      const line = Number(lineText);
      const r = await resolveSourcePath(file, { roots: [ws], mappings: [], fs: fsApi });
      assert.ok(r.found, `${file}: ${r.found ? '' : r.reason}`);
      assert.equal(r.best.path, normalizePath(copy));
      assert.equal(r.reason, 'matched by file name user_states.c');
      const code = lines[line - 1]!;
      assert.match(code, line === 108 ? /int line = __LINE__;/ : /SRCLOC\(\d\);/, `${file}:${line} is "${code.trim()}"`);
    }

    // The same trace as if compiled on a cluster: an absolute path and a user mapping.
    const { mappings } = parseMappings({ '/scratch/alice/mpe': path.join(ws, 'elsewhere') });
    const mapped = await resolveSourcePath('/scratch/alice/mpe/corpus/user_states.c', { roots: [ws], mappings, fs: fsApi });
    assert.ok(mapped.found);
    assert.equal(mapped.best.kind, 'mapped');
    assert.equal(mapped.best.path, normalizePath(copy));
    const suffix = await resolveSourcePath('/scratch/alice/mpe/corpus/user_states.c', { roots: [ws], mappings: [], fs: fsApi });
    assert.ok(suffix.found);
    assert.equal(suffix.reason, 'matched by suffix corpus/user_states.c');
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
});
