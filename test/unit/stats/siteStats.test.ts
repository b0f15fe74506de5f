// Per-site statistics against a brute-force recount over every drawable (each site: the drawables
// whose start or end location is it, their summed clipped duration, the rank with the largest total).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Drawable, Primitive } from '../../../src/core/model/types';
import { rowNaming } from '../../../src/core/stats/rowLabels';
import { SiteStatsAccumulator } from '../../../src/core/stats/siteStats';
import { outliers } from '../../../src/core/compare/iterations';
import { openRun } from '../../../src/cli/openRun';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { fixture } from '../../helpers/paths';

async function check(file: string, range: readonly [number, number]): Promise<number> {
  const run = await openRun(file);
  try {
    const all: Primitive[] = [];
    for await (const d of run.drawables(-Infinity, Infinity) as AsyncIterable<Drawable>) {
      if (d.kind === 'composite') all.push(...d.primitives);
      else all.push(d);
    }
    const meta = run.meta();
    const acc = new SiteStatsAccumulator(meta, range);
    for (const p of all) acc.add(p);
    const sites = acc.result();
    const label = rowNaming(meta.lineIDMaps).labelOf;
    for (const s of sites) {
      const at = (loc: { file: string; line: number } | undefined): boolean => loc !== undefined && loc.file === s.file && loc.line === s.line;
      const mine = all.filter((p) => (at(p.source?.start) || at(p.source?.end)) && p.earliest <= range[1] && p.latest >= range[0]);
      assert.equal(s.count, mine.length, `${s.file}:${s.line} count`);
      const dur = (p: Primitive): number => Math.max(0, Math.min(p.latest, range[1]) - Math.max(p.earliest, range[0]));
      const total = mine.reduce((t, p) => t + dur(p), 0);
      assert.ok(Math.abs(s.total - total) <= 1e-12 * Math.max(1, total), `${s.file}:${s.line} total ${s.total} vs ${total}`);
      const perRank = new Map<string, number>();
      for (const p of mine) perRank.set(label(p.vertices[0]!.lineID), (perRank.get(label(p.vertices[0]!.lineID)) ?? 0) + dur(p));
      const worst = Math.max(...perRank.values());
      assert.ok(Math.abs(perRank.get(s.worstRank)! - worst) <= 1e-12, `${s.file}:${s.line} worst rank ${s.worstRank}`);
    }
    // Every located drawable in range is counted at some site.
    const located = all.filter((p) => (p.source?.start ?? p.source?.end) !== undefined && p.earliest <= range[1] && p.latest >= range[0]);
    assert.ok(sites.reduce((n, s) => n + s.count, 0) >= located.length);
    return sites.length;
  } finally {
    await run.close();
  }
}

test('site statistics of user_states_4.clog2 (SRCLOC) equal a brute-force recount, whole trace and a window', async () => {
  // 6 SRCLOC sites (the facts) + line 108, which Region's info text names (file %s line %d).
  assert.equal(await check(fixture('user_states_4.clog2'), [-Infinity, Infinity]), 7);
  assert.ok((await check(fixture('user_states_4.clog2'), [0.1, 0.2])) > 0);
});

test('site statistics of a synthetic trace with SRCLOC (4 ranks, 2 threads) equal a brute-force recount', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-sites-'));
  try {
    const file = path.join(dir, 's.clog2');
    await synthesizeClog2File(file, { ranks: 4, threads: 2, iterations: 20, srcloc: true, seed: 3 });
    assert.ok((await check(file, [-Infinity, Infinity])) >= 3);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('outliers: only values far above the median (robust z > 3.5 and ≥ 10 % over)', () => {
  assert.deepEqual(outliers([1, 1.01, 0.99, 1, 1.02, 3, 1]), [5]);
  assert.deepEqual(outliers([1, 1, 1, 1, 1.05]), []);
  assert.deepEqual(outliers([1, 2]), []);
});
