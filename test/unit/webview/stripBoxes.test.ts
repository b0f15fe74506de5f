// Wide boxes as pixels of the strips' lines (webview/timeline/stripBoxes.ts): each box over the
// pixels it spans, the partly covered pixel at either end at the part covered, boxes of a row in
// the order added, at the coverage of a partly covered device row; against a painter of one
// pixel at a time (the part of the pixel each box covers, blended in order with over()). And
// over() itself: the same results as its former Math.round formula.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StripBoxes } from '../../../webview/timeline/stripBoxes';
import { over } from '../../../webview/timeline/colour';

const COLOURS = [0xff4b19e6, 0xff4bb43c, 0xff19e1ff, 0x99f0f046, 0xffb41e91];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

interface Box {
  readonly row: number;
  readonly x0: number;
  readonly x1: number;
  readonly rgba: number;
}

/** The reference: per pixel, each box of the row in order at the part of the pixel it covers. */
function painted(boxes: readonly Box[], row: number, length: number, res: number, coverage: number): Uint32Array {
  const out = new Uint32Array(length);
  for (const b of boxes) {
    if (b.row !== row) continue;
    for (let p = 0; p < length; p++) {
      const part = Math.min(p + 1, Math.min(length, b.x1 * res)) - Math.max(p, Math.max(0, b.x0 * res));
      if (part > 0) out[p] = out[p] === 0 ? over(b.rgba, part * coverage, 0) : over(b.rgba, part * coverage, out[p]!);
    }
  }
  return out;
}

/** Channels (unpremultiplied bytes) may differ by one (an alpha rounded before or after scaling). */
function assertClose(actual: Uint32Array, expected: Uint32Array, what: string): void {
  for (let p = 0; p < expected.length; p++) {
    for (let s = 0; s < 32; s += 8) {
      const a = (actual[p]! >>> s) & 255;
      const e = (expected[p]! >>> s) & 255;
      // a colour channel of a pixel with no alpha is not seen
      if (s < 24 && ((expected[p]! >>> 24) & 255) === 0) continue;
      assert.ok(Math.abs(a - e) <= 1, `${what}: pixel ${p} channel ${s / 8}: ${a} vs ${e}`);
    }
  }
}

test('boxes in lines: each pixel is the boxes over it in order, at the part each covers', () => {
  const rand = rng(7);
  for (const res of [1, 2]) {
    const rows = 6;
    const cols = 90;
    const length = cols * res;
    const boxes: Box[] = [];
    for (let row = 0; row < rows; row++) {
      // back to back (shared edge pixels), gaps, past either end
      let x = -2 + rand() * 3;
      let k = 0;
      while (x < cols + 2) {
        const w = 4 + rand() * 9;
        if (rand() < 0.2) x += rand() * 3;
        boxes.push({ row, x0: x, x1: x + w, rgba: COLOURS[(row + k++) % COLOURS.length]! });
        x += w;
      }
    }
    // overlapping the others (not seen in traces, drawn in order all the same), and one inside a pixel
    boxes.push({ row: 2, x0: 10.25, x1: 30.5, rgba: COLOURS[3]! });
    boxes.push({ row: 3, x0: 44.3, x1: 44.45, rgba: COLOURS[4]! });
    // added in another order of rows than they are drawn (by row, each row's in the order added)
    const strip = new StripBoxes();
    for (const b of [...boxes].sort((a, b) => (a.row % 2) - (b.row % 2))) strip.add(b.row, b.x0, b.x1, b.rgba);
    const out = new Uint32Array(3 * length);
    for (let row = 0; row < rows; row++) {
      out.fill(0);
      const coverage = [1, 0.3, 0.75];
      assert.equal(strip.into(row, rows, out, [0, length, 2 * length], coverage, 3, res, length), true);
      for (let l = 0; l < 3; l++) {
        assertClose(out.subarray(l * length, (l + 1) * length), painted(boxes, row, length, res, coverage[l]!), `${res}x, row ${row}, coverage ${coverage[l]}`);
      }
    }
    assert.equal(strip.into(rows, rows, out, [0], [1], 1, res, length), false, 'no boxes past the rows');
    strip.clear();
    assert.equal(strip.count, 0);
    assert.equal(strip.into(0, rows, out, [0], [1], 1, res, length), false, 'none after clear');
  }
});

test('boxes in lines: many more boxes than the first arrays hold, rows out of range ignored', () => {
  const strip = new StripBoxes();
  const length = 3000;
  const boxes: Box[] = [];
  for (let k = 0; k < 1000; k++) boxes.push({ row: k % 3, x0: k * 2.5 + 0.3, x1: k * 2.5 + 2.9, rgba: COLOURS[k % COLOURS.length]! });
  for (const b of boxes) strip.add(b.row, b.x0, b.x1, b.rgba);
  strip.add(-1, 0, 50, COLOURS[0]!);
  strip.add(3, 0, 50, COLOURS[0]!);
  assert.equal(strip.count, 1002);
  const out = new Uint32Array(length);
  for (let row = 0; row < 3; row++) {
    out.fill(0);
    strip.into(row, 3, out, [0], [1], 1, 1, length);
    assertClose(out, painted(boxes, row, length, 1, 1), `row ${row} of 1000 boxes`);
  }
});

test('over(): the results of its former formula (Math.round per channel, a division each)', () => {
  const former = (src: number, coverage: number, dst: number): number => {
    const sa = ((src >>> 24) / 255) * coverage;
    if (sa >= 1) return src;
    const da = (dst >>> 24) / 255;
    const oa = sa + da * (1 - sa);
    if (oa <= 0) return 0;
    const mix = (shift: number): number => Math.round((((src >>> shift) & 255) * sa + ((dst >>> shift) & 255) * da * (1 - sa)) / oa);
    return ((Math.round(oa * 255) << 24) | (mix(16) << 16) | (mix(8) << 8) | mix(0)) >>> 0;
  };
  const rand = rng(11);
  const byte = (): number => Math.floor(rand() * 256);
  for (let i = 0; i < 200_000; i++) {
    const src = ((byte() << 24) | (byte() << 16) | (byte() << 8) | byte()) >>> 0;
    const dst = i % 5 === 0 ? 0 : ((byte() << 24) | (byte() << 16) | (byte() << 8) | byte()) >>> 0;
    const coverage = i % 7 === 0 ? 1 : rand();
    assert.equal(over(src, coverage, dst), former(src, coverage, dst), `over(${src}, ${coverage}, ${dst})`);
  }
});
