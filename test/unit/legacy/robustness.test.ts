// Damaged ALOG and SLOG-1 files: every truncation and byte flip either converts (partial results
// flagged) or fails with a FormatError naming the file and byte offset (ALOG: also line and
// column) — never another exception. Also: the readers' own checks on hand-made inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { convertAlog } from '../../../src/core/formats/alog/convertAlog';
import { looksLikeAlog } from '../../../src/core/formats/alog/lines';
import { collectConversion, type ConversionSummary } from '../../../src/core/formats/convert/result';
import { detectInputFormat } from '../../../src/core/formats/detectFormat';
import { convertSlog1 } from '../../../src/core/formats/slog1/convertSlog1';
import { looksLikeSlog1 } from '../../../src/core/formats/slog1/header';
import { Slog1File } from '../../../src/core/formats/slog1/slog1File';
import type { Primitive } from '../../../src/core/model/types';
import { bytesChunks } from '../clog2/clogTestUtil';
import { bytes } from './legacyUtil';

async function alog(b: Uint8Array, chunk = 4096): Promise<{ drawables: Primitive[]; summary: ConversionSummary }> {
  return collectConversion(convertAlog(bytesChunks(b, chunk), { name: 't.alog' }));
}

async function slog1(b: Uint8Array): Promise<{ drawables: Primitive[]; summary: ConversionSummary }> {
  const file = await Slog1File.open(new MemorySource('t.slog', b));
  try {
    return await collectConversion(convertSlog1(file, { name: 't.slog' }));
  } finally {
    await file.close();
  }
}

/** Positions spread over the file plus the first and last bytes. */
function positions(n: number, count: number): number[] {
  const out = new Set<number>([0, 1, 2, 7, 8, 25, 26, 73, 74, n - 2, n - 1]);
  for (let i = 0; i < count; i++) out.add(Math.floor(((i + 0.5) * n) / count));
  return [...out].filter((p) => p >= 0 && p < n).sort((a, b) => a - b);
}

async function onlyFormatErrors(what: string, run: () => Promise<unknown>): Promise<'ok' | 'refused'> {
  try {
    await run();
    return 'ok';
  } catch (e) {
    assert.ok(isFormatError(e), `${what}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    return 'refused';
  }
}

for (const [name, read] of [
  ['cpilog.alog', alog],
  ['srtest.alog', alog],
  ['fpilog.slog', slog1],
  ['pmandel.slog', slog1],
] as const) {
  test(`${name}: truncations and byte flips give results or FormatErrors only`, async () => {
    const whole = bytes(name);
    const outcomes = { ok: 0, refused: 0 };
    for (const at of positions(whole.length, 60)) {
      outcomes[await onlyFormatErrors(`${name} cut at ${at}`, () => read(whole.subarray(0, at)))]++;
      for (const xor of [0x01, 0x80, 0xff]) {
        const flipped = whole.slice();
        flipped[at] = flipped[at]! ^ xor;
        outcomes[await onlyFormatErrors(`${name} byte ${at} ^ ${xor}`, () => read(flipped))]++;
      }
    }
    assert.ok(outcomes.ok > 0 && outcomes.refused > 0, JSON.stringify(outcomes));
  });
}

test('a truncated ALOG is read up to the cut and flagged', async () => {
  const whole = bytes('cpilog.alog');
  const full = await alog(whole);
  const cut = await alog(whole.subarray(0, Math.floor(whole.length * 0.6) + 3), 97);
  assert.equal(cut.summary.truncated, true);
  assert.ok(cut.summary.warnings.some((w) => /truncated/.test(w)));
  assert.ok(cut.drawables.length > 0 && cut.drawables.length < full.drawables.length);
  assert.ok(cut.summary.unmatched.reference > 0, 'open states at the cut are counted as unmatched');
  assert.equal(full.summary.truncated, false);
});

test('a truncated SLOG-1 keeps its complete frames and is flagged', async () => {
  const whole = bytes('pmandel.slog');
  const info = await Slog1File.open(new MemorySource('p', whole));
  const cutAt = info.frames[2]!.offset + 1000;
  await info.close();
  const cut = await slog1(whole.subarray(0, cutAt));
  assert.equal(cut.summary.truncated, true);
  assert.ok(cut.summary.warnings.some((w) => /truncated|cut/.test(w)));
  assert.equal(cut.summary.slog1!.previewStatistics, undefined);
  // Frames 0 and 1 hold 2050 + 2049 + 1 real records.
  assert.equal(cut.drawables.length, 2050 + 2049 + 1);
});

test('ALOG errors name the line and column', async () => {
  const text = '-1 0 0 0 0 0 Me\n-13 0 1 2 0 0 red A\n1 0 0 0 0 5 \n2 0 0 0 x 9 \n';
  await assert.rejects(alog(new TextEncoder().encode(text)), (e: unknown) => {
    assert.ok(isFormatError(e));
    assert.equal(e.offset, text.indexOf('x'));
    assert.match(e.message, /line 4, column 9: field 5 "x" is not an integer/);
    return true;
  });
  await assert.rejects(alog(new TextEncoder().encode('hello world\n')), /not an ALOG file/);
  await assert.rejects(alog(new Uint8Array(0)), /empty file/);
});

test('ALOG: nested starts of one state close the latest first; solo events; header checks', async () => {
  const text = [
    '-1 0 0 0 0 0 Me',
    '-2 0 0 8 0 0',
    '-9 0 0 700 0 0 Marker',
    '-13 0 1 2 0 0 blue:gray3 Outer state',
    '1 0 0 0 0 10 ',
    '1 0 0 0 0 20 ',
    '2 0 0 0 0 30 ',
    '2 0 0 0 0 40 ',
    '700 0 0 0 0 45 hello',
    '-101 0 0 1 0 50 7 64',
    '-102 1 0 0 0 60 7 64',
    '2 1 0 0 0 70 ',
    '1 1 0 0 0 80 ',
    '',
  ].join('\n');
  const { drawables, summary } = await alog(new TextEncoder().encode(text), 5);
  const name = (p: Primitive) => summary.categories.find((c) => c.index === p.category)!.name;
  const states = drawables.filter((p) => name(p) === 'Outer state').map((p) => p.vertices.map((v) => Math.round(v.time * 1e6)));
  assert.deepEqual(states.sort(), [
    [10, 40],
    [20, 30],
  ]);
  const outer = summary.categories.find((c) => c.name === 'Outer state')!;
  assert.deepEqual([...outer.rgba], [0, 0, 255, 255], 'stipple ":gray3" dropped, X11 blue');
  assert.ok(drawables.some((p) => name(p) === 'Marker' && p.vertices.length === 1));
  const arrow = drawables.find((p) => name(p) === 'message')!;
  assert.deepEqual(
    arrow.vertices.map((v) => [Math.round(v.time * 1e6), v.lineID]),
    [
      [50, 0],
      [60, 1],
    ],
  );
  assert.deepEqual([...arrow.info!], [0, 0, 0, 7, 0, 0, 0, 64]);
  assert.equal(summary.unmatched.droppedFinals, 1, 'the end on process 1 before any start');
  assert.deepEqual(summary.unmatched.openStates, [{ category: outer.index, name: 'Outer state', count: 1 }]);
  assert.deepEqual(summary.alog!.inconsistencies, ['event count (-2): header says 8, the event lines give 9']);
  assert.equal(summary.truncated, false);
});

test('format detection: ALOG and SLOG-1 sniffing', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assert.equal(looksLikeAlog(enc('-1 0 0 0 0 0 Me\n-2 0 0 3 0 0\n')), true);
  assert.equal(looksLikeAlog(enc('11 0 0 1 0 0 \n')), false, 'the first line must be a header line');
  assert.equal(looksLikeAlog(enc('# comment\n')), false);
  assert.equal(detectInputFormat(bytes('srtest.alog').subarray(0, 1024)), 'alog');
  assert.equal(detectInputFormat(bytes('cpilog.slog').subarray(0, 1024)), 'slog1');
  assert.equal(detectInputFormat(bytes('cpilog.clog').subarray(0, 1024)), 'clog');
  assert.equal(looksLikeSlog1(bytes('cpilog.slog')), true);
  // Another program's ".slog" (e.g. a text log) is not claimed.
  assert.equal(looksLikeSlog1(enc('2024-01-01 12:00:00 server started on port 8080\n')), false);
  const wrongVersion = bytes('cpilog.slog').slice(0, 74);
  wrongVersion[7] = 8;
  assert.equal(looksLikeSlog1(wrongVersion), false);
});
