/** Old CLOG (CLOG.md): fpilog.clog converts to the reference's 153 drawables and facts. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { convertClog } from '../../../src/core/formats/clog/convertClog';
import { detectClogFormat } from '../../../src/core/formats/clog/detect';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { clogTraceInfo } from '../../../src/core/info/clogInfo';
import { sharedTracesDir } from '../../helpers/paths';
import { drawableKey, dumpKey, fileChunks, multiset, parseDumpDrawables, readFacts, readText } from '../clog2/clogTestUtil';

const up = sharedTracesDir === undefined ? undefined : path.join(sharedTracesDir, 'upstream');
const skip = up === undefined ? 'needs ../shared/traces' : false;

test('fpilog.clog: info equals the facts of the reference conversion', { skip }, async () => {
  const file = path.join(up!, 'fpilog.clog');
  assert.equal(detectClogFormat(new Uint8Array(fs.readFileSync(file)).subarray(0, 64)), 'clog');
  const facts = readFacts(path.join(up!, 'fpilog.facts.json'));
  const { info, summary } = await clogTraceInfo('clog', fileChunks(file, 1000), { name: 'fpilog' });
  const s = facts.slog2;
  const expected = (s.categories as { index: number }[]).filter((c) => c.index >= 0).sort((a, b) => a.index - b.index);
  assert.deepEqual(
    info.categories.map((c) => [c.index, c.name, c.kind, [...c.rgba], c.infoFormat, c.drawables]),
    expected.map((c: any) => [c.index, c.name, c.kind, c.color_rgba, c.info_fmt, c.drawables]), // eslint-disable-line @typescript-eslint/no-explicit-any
  );
  assert.deepEqual([...info.timeRange], s.drawable_time_range);
  assert.equal(info.drawables.total, 153);
  assert.deepEqual([info.drawables.state, info.drawables.arrow, info.drawables.event], [s.drawables.states, s.drawables.arrows, s.drawables.events]);
  assert.deepEqual(
    summary.lineIDMaps.map((m) => ({ title: m.title, columns: `LineID -> ${m.columns.join(' ')}`, rows: m.rows.map((r) => [r.lineID, ...r.path]) })),
    s.lineidmaps,
  );
  assert.equal(info.unmatchedEvents, 0);
  assert.equal(info.sourceLocations.records, facts.clog.srcloc.count);
  assert.equal(
    info.sourceLocations.sites,
    new Set((facts.clog.srcloc.sites as { lineno: number; filename: string }[]).map((x) => `${x.lineno}:${x.filename}`)).size,
  );
  const byType = facts.clog.records_by_rectype as Record<string, number>;
  assert.deepEqual(summary.records, { ENDLOG: byType['-2'], RAWEVENT: byType['1'], COMMEVENT: byType['4'], STATEDEF: byType['6'], SRCLOC: byType['7'] });
});

test('fpilog.clog: drawables equal the reference dump; sources resolved by (procid, srcloc id)', { skip }, async () => {
  const { drawables, summary } = await collectConversion(convertClog(fileChunks(path.join(up!, 'fpilog.clog')), { name: 'fpilog', referenceQuirks: true }));
  const cats = new Map(summary.categories.map((c) => [c.index, c]));
  const ours = multiset(drawables.map((p) => drawableKey(p, cats.get(p.category)!)));
  const theirs = multiset(parseDumpDrawables(readText(path.join(up!, 'fpilog.slog2recur.txt'))).map(dumpKey));
  assert.deepEqual(ours, theirs);
  // Srcloc ids resolve per (procid, id): rank 0's events use id 902 (line 240), the others id 901
  // (line 240 on ranks 1-3, although id 901 is line 320 on rank 0) (CLOG.md §5).
  for (const rank of [0, 1, 2, 3]) {
    const sites = new Set(
      drawables.filter((p) => p.vertices[0]!.lineID === rank && p.source?.start).map((p) => `${p.source!.start!.file}:${p.source!.start!.line}`),
    );
    assert.deepEqual(sites, new Set(['/sandbox/chan/mpich_work/mpich_tmp/mpe/:240']), `rank ${rank}`);
  }
  assert.ok(drawables.filter((p) => p.source?.start !== undefined).length > drawables.length / 2);
});

test('format detection', () => {
  assert.equal(detectClogFormat(new TextEncoder().encode('CLOG-02.44\0is_big_endian=')), 'clog2');
  assert.equal(detectClogFormat(new Uint8Array(24)), undefined);
  assert.equal(detectClogFormat(new TextEncoder().encode('SLOG 2.0.6 and more bytes here....')), undefined);
});
