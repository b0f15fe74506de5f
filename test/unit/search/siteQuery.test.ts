// Search by source site (`file:line`, `file:line-line`): the terms parse, and over the SLOG-2
// conversion of user_states_4.clog2 (SRCLOC kept) the tree search counts exactly the drawables
// whose start or end location is on those lines (brute force over every drawable), and steps
// through them in time order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileQuery, countMatches, findNext, type FindResult, type SearchQuery } from '../../../src/core/search';
import { parseSiteQuery, siteQueryText } from '../../../src/core/search/siteQuery';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import type { Drawable, Primitive } from '../../../src/core/model/types';
import { FileSource } from '../../../src/io/fileSource';
import { fixture } from '../../helpers/paths';
import { runCli } from '../cli/runCli';

test('site query terms: file:line, file:line-line, lists; anything else is text', () => {
  assert.deepEqual(parseSiteQuery('user_states.c:80'), [{ file: 'user_states.c', first: 80, last: 80 }]);
  assert.deepEqual(parseSiteQuery(' a/b.c:3-7, c.f90:9 '), [
    { file: 'a/b.c', first: 3, last: 7 },
    { file: 'c.f90', first: 9, last: 9 },
  ]);
  assert.deepEqual(parseSiteQuery('C:\\src\\x.c:12'), [{ file: 'C:/src/x.c', first: 12, last: 12 }]);
  for (const text of ['', 'Phase', 'x.c', 'x.c:', 'x.c:9-3', 'x.c:80 Phase', 'x.c:a']) assert.equal(parseSiteQuery(text), undefined, text);
  assert.equal(
    siteQueryText([
      { file: '/u/user_states.c', line: 80 },
      { file: '/u/user_states.c', line: 83 },
    ]),
    '/u/user_states.c:80,/u/user_states.c:83',
  );
});

test('searching file:line over a converted SRCLOC trace finds exactly the drawables from those lines, in time order', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-site-search-'));
  const out = path.join(dir, 'u.slog2');
  const r = runCli(['convert', fixture('user_states_4.clog2'), '-o', out, '--quiet']);
  assert.equal(r.status, 0, r.stderr);
  const file = await Slog2File.open(await FileSource.open(out));
  try {
    const all: Drawable[] = [];
    for await (const d of file.drawablesInTimeOrder()) all.push(d);
    const on = (p: Primitive, lines: (n: number) => boolean): boolean =>
      [p.source?.start, p.source?.end].some((l) => l !== undefined && l.file.endsWith('user_states.c') && lines(l.line));
    const brute = (lines: (n: number) => boolean): number =>
      all.filter((d) => (d.kind === 'composite' ? d.primitives.some((p) => on(p, lines)) : on(d, lines))).length;
    const q = (text: string): SearchQuery => ({ text, mode: 'plain', caseSensitive: false });
    const count = async (text: string): Promise<number> => {
      const c = compileQuery(q(text), file.categories);
      assert.ok(c.ok);
      return (await countMatches(file, c.matcher)).matches;
    };
    const n80 = await count('user_states.c:80');
    assert.equal(
      n80,
      brute((n) => n === 80),
    );
    assert.ok(n80 > 0, 'line 80 (Phase) has occurrences');
    assert.equal(
      await count('user_states.c:80-86'),
      brute((n) => n >= 80 && n <= 86),
    );
    assert.equal(
      await count('user_states.c:80,user_states.c:86'),
      brute((n) => n === 80 || n === 86),
    );
    assert.equal(await count('other.c:80'), 0);
    // Stepping: every match once, in increasing start time.
    const c = compileQuery(q('user_states.c:80'), file.categories);
    assert.ok(c.ok);
    const starts: number[] = [];
    let from: Parameters<typeof findNext>[2] = { time: -Infinity };
    for (;;) {
      const step: FindResult = await findNext(file, c.matcher, from, 1, { wrap: false });
      if (!step.match) break;
      starts.push(step.match.earliest);
      from = { drawable: step.match.drawable };
    }
    assert.equal(starts.length, n80);
    assert.deepEqual(
      [...starts].sort((a, b) => a - b),
      starts,
    );
  } finally {
    await file.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
