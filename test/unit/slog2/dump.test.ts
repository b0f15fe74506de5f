// dump / the drawable streams against the reference printers' dumps: same drawables (category,
// vertices as the reference prints them, popup text), composites with their members.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { javaFloat } from '../../../src/core/model/javaNumber';
import type { Drawable } from '../../../src/core/model/types';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { drawingOrderCompare } from '../../../src/core/formats/slog2/drawingOrder';
import { dumpRecord, type DumpRecord } from '../../../src/core/info/dumpLines';
import { isTruncated, readDumpLines, realDrawables, type RefDrawable, type RefPrimitive } from './referenceDump';
import { samples, sampleSource, slog2Facts } from './samples';

function vertexText(vs: readonly [number, number][]): string {
  return vs.map(([t, l]) => `(${javaFloat(t)}, ${l})`).join(' ');
}

function keyOfRecord(r: DumpRecord): string {
  if (r.members === undefined) return `P ${r.category} ${vertexText(r.vertices)} | ${r.info}`;
  return `C ${r.category} | ${r.info} { ${r.members.map(keyOfRecord).join(' ; ')} }`;
}

function keyOfRef(d: RefDrawable | RefPrimitive, composite = false, members: readonly RefPrimitive[] = []): string {
  if (!composite) return `P ${d.category} ${d.vertices} | ${d.info}`;
  return `C ${d.category} | ${d.info} { ${members.map((m) => keyOfRef(m)).join(' ; ')} }`;
}

const refKey = (d: RefDrawable) => keyOfRef(d, d.composite, d.members);

function multiset(keys: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Keys in a but missing (by multiplicity) from b. */
function missing(a: string[], b: string[]): string[] {
  const mb = multiset(b);
  const out: string[] = [];
  for (const k of a) {
    const n = mb.get(k) ?? 0;
    if (n === 0) out.push(k);
    else mb.set(k, n - 1);
  }
  return out;
}

for (const s of samples) {
  test(`dump of ${s.name} lists the reference drawables`, async () => {
    const file = await Slog2File.open(sampleSource(s));
    try {
      const inOrder: Drawable[] = [];
      for await (const d of file.drawablesInTimeOrder()) inOrder.push(d);
      const keyOf = new Map<Drawable, string>(inOrder.map((d) => [d, keyOfRecord(dumpRecord(d, file.categories))]));
      const mine = inOrder.map((d) => keyOf.get(d)!);
      const rawKey = (d: Drawable) =>
        `${d.kind} ${d.category} ${d.earliest} ${d.latest} ${d.kind === 'primitive' ? d.vertices.map((v) => v.lineID).join(',') : d.primitives.length}`;
      assert.equal(mine.length, slog2Facts(s).drawables.total);
      // Time order: each drawable in drawing order after the previous one, by start time.
      for (let i = 1; i < inOrder.length; i++) assert.ok(inOrder[i - 1]!.earliest <= inOrder[i]!.earliest, `order at ${i}`);
      // allDrawables yields the same drawables exactly once.
      const all: string[] = [];
      for await (const d of file.allDrawables()) all.push(rawKey(d));
      assert.deepEqual(missing(all, inOrder.map(rawKey)), []);
      assert.equal(all.length, mine.length);

      const recurLines = readDumpLines(s.recurDump);
      const recur = realDrawables(recurLines).map(refKey);
      if (!isTruncated(recurLines)) {
        assert.deepEqual(missing(mine, recur), [], 'drawables not in the recur dump');
        assert.deepEqual(missing(recur, mine), [], 'recur-dump drawables we did not list');
      } else {
        assert.deepEqual(missing(recur, mine), [], 'recur-dump drawables we did not list');
        assert.ok(recur.length > 1000);
      }

      const serialLines = readDumpLines(s.serialDump);
      const serial = realDrawables(serialLines);
      const end = file.timeRange[1];
      const printable = inOrder.filter((d) => d.earliest !== end).map((d) => keyOf.get(d)!);
      if (!isTruncated(serialLines)) {
        // slog2printserial omits what starts exactly at the end of the window.
        assert.equal(serial.length, slog2Facts(s).drawables.printed_by_slog2printserial);
        assert.deepEqual(missing(printable, serial.map(refKey)), []);
        assert.deepEqual(missing(serial.map(refKey), printable), []);
      } else {
        // Truncated: the printed prefix equals our first drawables (same start times, same set).
        const prefix = printable.slice(0, serial.length);
        assert.deepEqual(missing(serial.map(refKey), prefix), []);
        assert.ok(serial.length > 1000);
      }
      if (s.name === 'ring_p2p_4') assert.ok(mine.filter((k) => k.includes('| msg_tag=')).length === 60, 'arrow popups decoded');
      if (s.name === 'user_states_4')
        assert.ok(
          mine.some((k) => k.includes('| file user_states.c line 108')),
          'Region popups decoded',
        );
      // Bounds as printed by the reference (full doubles) agree with ours.
      const lastRef = serial[serial.length - 1]!;
      assert.ok(inOrder.some((d) => d.earliest === lastRef.earliest && d.latest === lastRef.latest));
    } finally {
      await file.close();
    }
  });
}

test('a window dump lists exactly the reference drawables whose bounds intersect it', async () => {
  for (const name of ['ring_p2p_4', 'fpilog', 'data']) {
    const s = samples.find((x) => x.name === name);
    if (!s) continue;
    const file = await Slog2File.open(sampleSource(s));
    const [a, b] = file.timeRange;
    const refs = realDrawables(readDumpLines(s.recurDump));
    for (const [f0, f1] of [
      [0.2, 0.3],
      [0.5, 0.5],
      [0, 0.01],
      [0.9, 1],
    ] as const) {
      const t0 = a + (b - a) * f0;
      const t1 = a + (b - a) * f1;
      const want = refs.filter((d) => d.earliest <= t1 && t0 <= d.latest).map(refKey);
      const got: Drawable[] = [];
      for await (const d of file.drawablesInTimeOrder(t0, t1)) got.push(d);
      const keys = got.map((d) => keyOfRecord(dumpRecord(d, file.categories)));
      assert.deepEqual(missing(want, keys), [], `${name} [${f0}, ${f1}] missing`);
      assert.deepEqual(missing(keys, want), [], `${name} [${f0}, ${f1}] extra`);
      const sorted = [...got].sort((x, y) => x.earliest - y.earliest);
      assert.deepEqual(
        got.map((d) => d.earliest),
        sorted.map((d) => d.earliest),
      );
    }
    await file.close();
  }
});

test('drawingOrderCompare: earliest up, latest down, category, start line, final line', () => {
  const p = (e: number, l: number, c: number, from: number, to: number) => ({
    kind: 'primitive' as const,
    category: c,
    earliest: e,
    latest: l,
    vertices: [
      { time: e, lineID: from },
      { time: l, lineID: to },
    ],
  });
  const list = [p(1, 2, 0, 0, 0), p(0, 1, 0, 0, 0), p(0, 3, 0, 0, 0), p(0, 3, 0, 1, 0), p(0, 3, 0, 0, 2), p(0, 3, 5, 0, 0)];
  const sorted = [...list].sort(drawingOrderCompare);
  assert.deepEqual(
    sorted.map((d) => [d.earliest, d.latest, d.category, d.vertices[0]!.lineID, d.vertices[1]!.lineID]),
    [
      [0, 3, 0, 0, 0],
      [0, 3, 0, 0, 2],
      [0, 3, 0, 1, 0],
      [0, 3, 5, 0, 0],
      [0, 1, 0, 0, 0],
      [1, 2, 0, 0, 0],
    ],
  );
});
