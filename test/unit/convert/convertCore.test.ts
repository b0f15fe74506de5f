/** Unit tests of the shared converter pieces: reorder buffer, colours, palette, categories, FIFO states, arrows, unmatched count. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DrawableBuilder } from '../../../src/core/formats/convert/builder';
import { CategoryTable } from '../../../src/core/formats/convert/categories';
import { DefaultPalette, paletteEntry } from '../../../src/core/formats/convert/palette';
import { ReorderBuffer } from '../../../src/core/formats/convert/reorder';
import { SourceSiteTable } from '../../../src/core/formats/convert/sourceLocations';
import { x11Color, x11ColorCount } from '../../../src/core/formats/convert/x11Colors';
import { makePrimitive, type Primitive } from '../../../src/core/model/types';
import { Prng } from '../../../src/core/synth/prng';

test('reorder buffer: output sorted by latest (ties: decreasing earliest) with a small heap', () => {
  const rng = new Prng(5);
  const buf = new ReorderBuffer();
  const out: Primitive[] = [];
  let maxHeap = 0;
  // Records at increasing times t; each completes a drawable with latest >= t (states/arrows).
  for (let i = 0; i < 5000; i++) {
    const t = i * 0.001;
    buf.releaseBefore(t, out);
    const latest = rng.next() < 0.2 ? t + rng.next() * 0.003 : t;
    buf.push(
      makePrimitive(1, [
        { time: latest - rng.next() * 0.01, lineID: 0 },
        { time: latest, lineID: 0 },
      ]),
    );
    maxHeap = Math.max(maxHeap, buf.size);
  }
  buf.releaseAll(out);
  assert.equal(out.length, 5000);
  for (let i = 1; i < out.length; i++) {
    const [a, b] = [out[i - 1]!, out[i]!];
    assert.ok(a.latest < b.latest || (a.latest === b.latest && a.earliest >= b.earliest));
  }
  assert.ok(maxHeap < 20, `heap grew to ${maxHeap}`);
  assert.equal(buf.lateArrivals, 0);
  // A drawable arriving after a later one was released is counted.
  buf.push(makePrimitive(1, [{ time: 0, lineID: 0 }]));
  assert.equal(buf.lateArrivals, 1);
});

test('X11 colour table: MPE/corpus colours, the reference deltas, exact lookup', () => {
  const expect: [string, number[] | undefined][] = [
    ['blue', [0, 0, 255]],
    ['green', [0, 255, 0]],
    ['SkyBlue', [135, 206, 235]],
    ['PaleGreen', [152, 251, 152]],
    ['red', [255, 0, 0]],
    ['yellow', [255, 255, 0]],
    ['cyan', [0, 255, 255]],
    ['purple', [160, 32, 240]],
    ['maroon', [176, 48, 96]],
    ['SeaGreen', [46, 139, 87]],
    ['OrangeRed', [255, 69, 0]],
    ['DarkOrange', [255, 140, 0]],
    ['MediumPurple', [147, 112, 219]],
    ['purple3', [125, 38, 205]],
    ['DarkViolet', [148, 0, 211]],
    ['orchid', [218, 112, 214]],
    ['forest green', [34, 139, 34]],
    ['SteelBlue', [70, 130, 180]],
    ['gold', [255, 215, 0]],
    ['LightSeaGreen', [32, 178, 170]],
    ['lavender', [230, 230, 250]],
    ['DeepSkyBlue', [0, 191, 255]],
    ['orange', [255, 165, 0]],
    ['OliveDrab1', [192, 255, 62]],
    ['DarkOliveGreen2', [188, 238, 104]],
    ['gray', [192, 192, 192]],
    ['grey', [192, 192, 192]],
    ['LightGreen', [119, 255, 119]],
    ['light_gray', [211, 211, 211]],
    ['Blue', [0, 0, 255]],
    ['deepskyblue', [0, 191, 255]],
    ['skyblue', [135, 206, 235]],
    ['seagreen', [46, 139, 87]],
    ['springgreen', [0, 255, 127]],
    ['LightSeeGreen1', [203, 236, 203]],
    ['gray3', [8, 8, 8]],
    ['DebianRed', undefined],
    ['DarkGrey', undefined],
    ['dark blue', undefined],
    ['DarkCyan', undefined],
    ['DarkMagenta', undefined],
    ['dark red', undefined],
    ['light green', undefined],
    ['Red', undefined],
    ['red ', undefined],
  ];
  for (const [name, rgb] of expect) assert.deepEqual(x11Color(name) && [...x11Color(name)!], rgb, name);
  assert.ok(x11ColorCount() > 700);
});

test('default palette: 216 colours sorted by decreasing brightness, k-th request = entry k mod 215', () => {
  assert.deepEqual(paletteEntry(0), [255, 255, 255, 255]);
  assert.deepEqual(paletteEntry(215), [0, 0, 0, 255]);
  // Stable sort: among R²+G²+B² ties the generation order (R, then G, then B ascending) is kept.
  assert.deepEqual(paletteEntry(1), [204, 255, 255, 255]);
  assert.deepEqual(paletteEntry(2), [255, 204, 255, 255]);
  assert.deepEqual(paletteEntry(3), [255, 255, 204, 255]);
  const p = new DefaultPalette();
  const got = Array.from({ length: 216 }, () => p.next());
  assert.deepEqual(got[0], paletteEntry(1));
  assert.deepEqual(got[213], paletteEntry(214));
  assert.deepEqual(got[214], paletteEntry(0));
  assert.deepEqual(got[215], paletteEntry(1));
  assert.ok(!got.some((c) => c[0] + c[1] + c[2] === 0));
});

function setup(): { cats: CategoryTable; b: DrawableBuilder; out: Primitive[] } {
  const cats = new CategoryTable();
  cats.addArrowCategory(-101, -102);
  cats.addStatePlaceholder(0, 1); // index 1
  cats.addSoloPlaceholder(-10); // index 2
  const b = new DrawableBuilder(cats, new SourceSiteTable(), { use: () => undefined });
  return { cats, b, out: [] };
}

test('states pair first-in-first-out per (category, lineID), not as a stack', () => {
  const { b, out } = setup();
  b.openState(1, 1, 0, undefined, undefined);
  b.openState(1, 2, 0, undefined, undefined);
  b.openState(1, 2.5, 7, undefined, undefined);
  b.closeState(1, 3, 0, undefined, undefined);
  b.closeState(1, 4, 0, undefined, undefined);
  b.closeState(1, 5, 0, undefined, undefined); // no open state: dropped
  b.finish();
  out.push(...b.take());
  assert.deepEqual(
    out.map((p) => p.vertices.map((v) => v.time)),
    [
      [1, 3],
      [2, 4],
    ],
  );
  assert.equal(b.droppedFinals, 1);
  const u = b.unmatched(0);
  assert.deepEqual([...u.openStates], [[1, 1]]);
  // Category 1 was never named by a STATEDEF: the reference does not count its leftovers.
  assert.equal(u.reference, 0);
});

test('unmatched: open states count once per STATEDEF naming the category; pending messages once', () => {
  const { cats, b } = setup();
  for (let i = 0; i < 4; i++) cats.defineState(0, 1, { name: 'Work', color: 'red', format: undefined });
  b.openState(1, 1, 0, undefined, undefined);
  b.send(0, 5, 0, 1, 1, 0, 8, undefined);
  b.receive(0, 6, 1, 0, 2, 0, undefined);
  const u = b.unmatched(0);
  assert.equal(u.reference, 4 + 2);
  assert.deepEqual([u.sends, u.receives], [1, 1]);
});

test('arrows match per (tag, sender, receiver) FIFO in either order; info = tag, size', () => {
  const { b, out } = setup();
  b.send(0, 7, 0, 1, 1.0, 0, 100, undefined);
  b.send(0, 7, 0, 1, 1.1, 0, 200, undefined);
  b.send(0, 8, 0, 1, 1.2, 0, 300, undefined);
  b.receive(0, 7, 0, 1, 2.0, 1, undefined); // matches the first tag-7 send
  b.receive(0, 9, 2, 1, 0.5, 1, undefined); // receive before its send
  b.send(0, 9, 2, 1, 0.9, 2, 400, undefined);
  b.finish();
  out.push(...b.take());
  const arrows = out.map((p) => ({ v: p.vertices.map((x) => [x.time, x.lineID]), info: [...p.info!] }));
  assert.deepEqual(arrows, [
    {
      v: [
        [0.9, 2],
        [0.5, 1],
      ],
      info: [0, 0, 0, 9, 0, 0, 1, 144],
    },
    {
      v: [
        [1.0, 0],
        [2.0, 1],
      ],
      info: [0, 0, 0, 7, 0, 0, 0, 100],
    },
  ]);
  assert.deepEqual([b.unmatched(0).sends, b.unmatched(0).receives], [2, 0]);
});

test('definitions: rename in place, two-category STATEDEF and EVENTDEF on a state are ignored with a warning', () => {
  const { cats } = setup();
  const cat = cats.entries[1]!.category;
  cats.defineState(0, 1, { name: 'Work', color: 'yellow:dimple3', format: 'n=%d' });
  assert.deepEqual([cat.name, [...cat.rgba], cat.infoKeys, cat.infoTypes], ['Work', [255, 255, 0, 255], ['n=', ''], 'd']);
  cats.defineState(0, -10, { name: 'Bad', color: 'red', format: undefined });
  cats.defineEvent(0, { name: 'Bad2', color: 'red', format: undefined });
  assert.equal(cat.name, 'Work');
  assert.equal(cats.warnings.length, 2);
  // A later definition without a format clears the keys.
  cats.defineState(0, 1, { name: 'Work', color: 'no such colour', format: undefined });
  assert.deepEqual([cat.infoKeys, cat.infoTypes], [[], '']);
  cats.entries[1]!.drawables = 1;
  cats.entries[2]!.drawables = 1;
  const used = cats.finish();
  // Unknown colour and unnamed category: palette colours in index order.
  assert.deepEqual(
    used.map((c) => [c.index, c.name, [...c.rgba]]),
    [
      [1, 'Work', [...paletteEntry(1)]],
      [2, 'UnknownType-2', [...paletteEntry(2)]],
    ],
  );
});
