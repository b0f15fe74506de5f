// Cross-check of the three readers on the same runs: MPICH 1.2.0's clog2alog and clog2slog were
// run on the old-CLOG files, so our old-CLOG reader must give the same states and arrows as our
// ALOG reader (times truncated to microseconds and shifted, ALOG.md §5) and our SLOG-1 reader
// (times unchanged; end = start + (end − start) in double, SLOG1.md §9.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertClog } from '../../../src/core/formats/clog/convertClog';
import { convertAlog } from '../../../src/core/formats/alog/convertAlog';
import { convertSlog1 } from '../../../src/core/formats/slog1/convertSlog1';
import { Slog1File } from '../../../src/core/formats/slog1/slog1File';
import { collectConversion, type ConversionSummary } from '../../../src/core/formats/convert/result';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { bytesChunks } from '../clog2/clogTestUtil';
import type { Primitive } from '../../../src/core/model/types';
import { bytes, CLOGS, SLOG1S } from './legacyUtil';

type Shape = { name: string; kind: string; v: [number, number][] };

function shapes(drawables: Primitive[], summary: ConversionSummary, time: (t: number) => number): Shape[] {
  const cats = new Map(summary.categories.map((c) => [c.index, c]));
  return drawables.map((p) => {
    const c = cats.get(p.category)!;
    return { name: c.topology === 'arrow' ? 'arrow' : c.name, kind: c.topology, v: p.vertices.map((x) => [time(x.time), x.lineID] as [number, number]) };
  });
}

const key = (s: Shape): string => `${s.name} ${s.v.map(([t, l]) => `${t}@${l}`).join(' ')}`;
const sorted = (xs: Shape[]): string[] => xs.map(key).sort();

for (const name of SLOG1S) {
  test(`${name}: old CLOG, ALOG and SLOG-1 readers give the same states and arrows`, async () => {
    const clog = await collectConversion(convertClog(bytesChunks(bytes(CLOGS[name]), 65536), { name }));
    const alog = await collectConversion(convertAlog(bytesChunks(bytes(`${name}.alog`), 4096), { name }));
    const file = await Slog1File.open(new MemorySource(name, bytes(`${name}.slog`)));
    const slog = await collectConversion(convertSlog1(file, { name }));
    const clogShapes = shapes(clog.drawables, clog.summary, (t) => t);
    assert.equal(clogShapes.length, slog.drawables.length);
    assert.equal(clogShapes.length, alog.drawables.length);

    // SLOG-1: the same doubles (the end rebuilt from start + duration as clog2slog stored it).
    const viaDuration = clogShapes.map((s) => ({ ...s, v: s.v.length === 2 ? [s.v[0]!, [s.v[0]![0] + (s.v[1]![0] - s.v[0]![0]), s.v[1]![1]]] : s.v }) as Shape);
    assert.deepEqual(sorted(shapes(slog.drawables, slog.summary, (t) => t)), sorted(viaDuration));

    // ALOG: trunc(1e6 · t) − trunc(1e6 · t_first) microseconds; the first event starts the first drawable.
    const first = Math.trunc(1e6 * clog.summary.timeRange![0]);
    const micro = clogShapes.map((s) => ({ ...s, v: s.v.map(([t, l]) => [Math.trunc(1e6 * t) - first, l]) }) as Shape);
    assert.deepEqual(sorted(shapes(alog.drawables, alog.summary, (t) => Math.round(t * 1e6))), sorted(micro));

    // Arrows carry the same tag and size in CLOG and ALOG (both from the event's "tag size" text).
    const infos = (ds: Primitive[], s: ConversionSummary) =>
      ds
        .filter((p) => s.categories.find((c) => c.index === p.category)!.topology === 'arrow')
        .map((p) => [...(p.info ?? [])].join(','))
        .sort();
    assert.deepEqual(infos(alog.drawables, alog.summary), infos(clog.drawables, clog.summary));
    await file.close();
  });
}
