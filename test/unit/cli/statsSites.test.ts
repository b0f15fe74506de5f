// `mpe-trace stats FILE --by site` against a brute-force count over every drawable of the file the
// editor shows (CLOG2: its SLOG-2 conversion): per site (file, line) the drawables whose start or
// end location is it, their summed duration (events 0), the rank with the largest total; --csv
// carries the same rows; every fixture with SRCLOC and a synthetic trace with SRCLOC.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Drawable, Primitive } from '../../../src/core/model/types';
import { rowNaming } from '../../../src/core/stats/rowLabels';
import { openRun } from '../../../src/cli/openRun';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { fixture } from '../../helpers/paths';
import { runCli } from './runCli';

interface SiteRow {
  file: string;
  line: number;
  count: number;
  total: number;
  mean: number;
  worstRank: string;
  byCategory: Record<string, { count: number; total: number; min: number; median: number; max: number }>;
}

function cli(args: string[]): string {
  const r = runCli(args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

async function bruteForce(slog2: string): Promise<{ all: Primitive[]; label: (lineID: number) => string }> {
  const run = await openRun(slog2);
  try {
    const all: Primitive[] = [];
    for await (const d of run.drawables(-Infinity, Infinity) as AsyncIterable<Drawable>) {
      if (d.kind === 'composite') all.push(...d.primitives);
      else all.push(d);
    }
    return { all, label: rowNaming(run.meta().lineIDMaps).labelOf };
  } finally {
    await run.close();
  }
}

async function check(input: string, dir: string): Promise<SiteRow[]> {
  const slog2 = path.join(dir, 'c.slog2');
  cli(['convert', input, '-o', slog2, '--quiet']);
  const doc = JSON.parse(cli(['stats', input, '--by', 'site', '--json'])) as { sites: SiteRow[] };
  assert.deepEqual(JSON.parse(cli(['stats', slog2, '--by', 'site', '--json'])), doc, 'CLOG2 = its conversion');
  const { all, label } = await bruteForce(slog2);
  const keys = new Set<string>();
  for (const p of all) for (const loc of [p.source?.start, p.source?.end]) if (loc) keys.add(`${loc.file}:${loc.line}`);
  assert.deepEqual(doc.sites.map((s) => `${s.file}:${s.line}`).sort(), [...keys].sort(), 'one row per recorded site');
  for (const s of doc.sites) {
    const at = (loc: { file: string; line: number } | undefined): boolean => loc !== undefined && loc.file === s.file && loc.line === s.line;
    const mine = all.filter((p) => at(p.source?.start) || at(p.source?.end));
    assert.equal(s.count, mine.length, `${s.file}:${s.line} count`);
    const total = mine.reduce((t, p) => t + Math.max(0, p.latest - p.earliest), 0);
    assert.ok(Math.abs(s.total - total) <= 1e-12 * Math.max(1, total), `${s.file}:${s.line} total ${s.total} vs ${total}`);
    assert.ok(Math.abs(s.mean - total / mine.length) <= 1e-12, 'mean');
    const perRank = new Map<string, number>();
    for (const p of mine) perRank.set(label(p.vertices[0]!.lineID), (perRank.get(label(p.vertices[0]!.lineID)) ?? 0) + Math.max(0, p.latest - p.earliest));
    assert.ok(Math.abs(perRank.get(s.worstRank)! - Math.max(...perRank.values())) <= 1e-12, `${s.file}:${s.line} worst rank`);
    const catCount = Object.values(s.byCategory).reduce((n, c) => n + c.count, 0);
    assert.equal(catCount, s.count, 'per category counts sum to the count');
    for (const c of Object.values(s.byCategory)) assert.ok(c.min <= c.median && c.median <= c.max);
  }
  const csv = cli(['stats', input, '--by', 'site', '--csv']).trim().split(/\r\n/);
  assert.equal(csv[0], 'file,line,count,total,mean,min,max,share,worstRank');
  assert.equal(csv.length - 1, doc.sites.length);
  return doc.sites;
}

test('stats --by site of user_states_4.clog2 equals a brute-force count; Phase (line 80) is a site', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-sites-cli-'));
  try {
    const sites = await check(fixture('user_states_4.clog2'), dir);
    const facts = JSON.parse(fs.readFileSync(fixture('user_states_4.facts.json'), 'utf8')) as { clog2: { srcloc: { sites: { lineno: number }[] } } };
    for (const site of facts.clog2.srcloc.sites)
      assert.ok(
        sites.some((s) => s.line === site.lineno && s.count > 0),
        `line ${site.lineno}`,
      );
    const phase = sites.find((s) => s.line === 80)!;
    assert.ok(phase.byCategory['Phase'] !== undefined, 'line 80 starts Phase states');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('stats --by site of a synthetic trace with SRCLOC equals a brute-force count', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-sites-cli-'));
  try {
    const file = path.join(dir, 's.clog2');
    await synthesizeClog2File(file, { ranks: 3, threads: 2, iterations: 15, srcloc: true, seed: 11 });
    assert.ok((await check(file, dir)).length >= 3);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('stats --by site rejects --quick and names the choices of --by', () => {
  const r = runCli(['stats', fixture('user_states_4.slog2'), '--by', 'site', '--quick']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /exact only/);
  assert.match(runCli(['stats', fixture('user_states_4.slog2'), '--by', 'nope']).stderr, /category, row, pair or site/);
});
