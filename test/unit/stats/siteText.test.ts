// The CodeLens title and hover text of a recorded line: units, per category / rank tables, share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSeconds, hoverTables, lensTitle } from '../../../src/core/stats/siteText';
import { SiteIndex, siteShare } from '../../../src/core/stats/siteIndex';
import { SiteStatsAccumulator, spread } from '../../../src/core/stats/siteStats';
import type { Primitive } from '../../../src/core/model/types';

test('durations in s / ms / µs / ns with three digits', () => {
  assert.equal(formatSeconds(0.0403085), '40.3 ms');
  assert.equal(formatSeconds(1.5), '1.5 s');
  assert.equal(formatSeconds(4.8612e-5), '48.6 µs');
  assert.equal(formatSeconds(3e-9), '3 ns');
  assert.equal(formatSeconds(0), '0 s');
});

test('median: middle value, mean of the two middle ones for an even count', () => {
  assert.deepEqual(spread([3, 1, 2]), { min: 1, median: 2, max: 3 });
  assert.deepEqual(spread([4, 1, 2, 3]), { min: 1, median: 2.5, max: 4 });
  assert.deepEqual(spread([]), { min: 0, median: 0, max: 0 });
});

test('lens title, hover tables and the index by file', () => {
  const state = (t0: number, t1: number, lineID: number, line: number): Primitive =>
    ({
      kind: 'primitive',
      category: 1,
      earliest: t0,
      latest: t1,
      vertices: [
        { time: t0, lineID },
        { time: t1, lineID },
      ],
      source: { start: { file: '/src/a.c', line } },
    }) as unknown as Primitive;
  const acc = new SiteStatsAccumulator({ categories: new Map([[1, { name: 'Phase' }]]), lineIDMaps: [] }, [0, 10]);
  for (const p of [state(0, 1, 0, 80), state(1, 4, 1, 80), state(2, 4, 1, 80), state(0, 1, 0, 83)]) acc.add(p);
  const index = new SiteIndex({ range: [0, 10], timelines: 2, sites: acc.result() });
  assert.deepEqual(index.files(), ['/src/a.c']);
  assert.deepEqual(
    index.sitesOf('/src/a.c').map((s) => s.line),
    [80, 83],
  );
  const s80 = index.get('/src/a.c', 80)!;
  assert.equal(lensTitle(s80), `3× · 6 s total · mean 2 s · worst rank ${s80.worstRank}`);
  assert.equal(siteShare(s80, index.profile), 6 / 20);
  const md = hoverTables(s80, index.profile, 'whole trace');
  assert.match(md, /30\.0 % of the trace's time/);
  assert.match(md, /\| Phase \| 3 \| 6 s \| 1 s \| 2 s \| 3 s \|/);
  assert.equal(s80.byRank[0]!.total, 5);
  assert.equal(s80.byRank[0]!.median, 2.5);
});
