// Event heads composited from sample masks (webview/timeline/headLayer.ts): a head's coverage is
// its triangle's area, at any sub-pixel position and scale; within a colour run heads are one
// shape (the same head twice is drawn once; heads side by side add up); runs go source-over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeadLayer } from '../../../webview/timeline/headLayer';
import { over } from '../../../webview/timeline/colour';

const W = 120;
const H = 40;
const RED = 0xff0000ff;
const BLUE = 0xffff0000;

function layer(scale = 1): { heads: HeadLayer; alphaSum: () => number; at: (x: number, y: number) => number } {
  const heads = new HeadLayer();
  heads.begin(W, H, scale);
  const px = (): Uint32Array => (heads as unknown as { px: Uint32Array }).px;
  return {
    heads,
    alphaSum: () => px().reduce((s, v) => s + (v >>> 24) / 255, 0),
    at: (x, y) => px()[y * Math.ceil(W * scale) + x]!,
  };
}

test('a head covers its triangle: area 1.4 · tri², at any sub-pixel position and scale', () => {
  for (const scale of [1, 2]) {
    for (const tri of [2.5, 10 / 3, 5]) {
      for (const [x, y] of [
        [20, 5],
        [20.3, 5.7],
        [41.125, 9.5],
        [60.9, 3.05],
      ] as const) {
        const l = layer(scale);
        l.heads.add(x, y, tri, RED);
        const area = 1.4 * tri * tri * scale * scale;
        assert.ok(
          Math.abs(l.alphaSum() - area) < 0.02 * area + 0.05,
          `tri ${tri} at (${x}, ${y}), ${scale}×: coverage ${l.alphaSum().toFixed(3)} against area ${area.toFixed(3)}`,
        );
      }
    }
  }
});

test('within a run heads are one shape; another run goes over it', () => {
  const once = layer();
  once.heads.add(30.3, 4.2, 4, RED);
  const twice = layer();
  twice.heads.add(30.3, 4.2, 4, RED);
  twice.heads.add(30.3, 4.2, 4, RED);
  assert.equal(twice.alphaSum(), once.alphaSum(), 'the same head twice covers what it covers once');
  // side by side (bases touching at x = 34.3): the union is the two areas, the shared pixels not over-covered
  const pair = layer();
  pair.heads.add(30.3, 4.2, 4, RED);
  pair.heads.add(38.3, 4.2, 4, RED);
  assert.ok(Math.abs(pair.alphaSum() - 2 * once.alphaSum()) < 0.05, `two heads side by side: ${pair.alphaSum()} against ${2 * once.alphaSum()}`);
  const right = layer();
  right.heads.add(38.3, 4.2, 4, RED);
  const shared = [once.at(34, 4) >>> 24, right.at(34, 4) >>> 24, pair.at(34, 4) >>> 24];
  assert.ok(
    shared[0]! > 0 && shared[1]! > 0 && Math.abs(shared[2]! - shared[0]! - shared[1]!) <= 1,
    `the pixel the bases share: its parts add up (${shared.join(', ')})`,
  );
  // another run: blue over red where they overlap
  const runs = layer();
  runs.heads.add(30.3, 4.2, 4, RED);
  runs.heads.nextRun();
  runs.heads.add(30.3, 4.2, 4, BLUE);
  assert.equal(runs.at(30, 5), BLUE, 'a later run covers an earlier one inside the shape');
  // on an edge pixel (coverage c of each), source-over: c + c · (1 − c), in blue
  let edge = 0;
  while ((once.at(edge % W, Math.floor(edge / W)) >>> 24) % 255 === 0) edge++;
  const c = (once.at(edge % W, Math.floor(edge / W)) >>> 24) / 255;
  const blended = runs.at(edge % W, Math.floor(edge / W));
  assert.ok(Math.abs((blended >>> 24) / 255 - (c + c * (1 - c))) < 0.01, `an edge pixel: ${blended >>> 24} against ${(c + c * (1 - c)) * 255}`);
  assert.ok((blended & 0xff0000) > 0x800000, 'and bluer than red');
});

test('a new frame starts empty', () => {
  const l = layer();
  l.heads.add(30.3, 4.2, 4, RED);
  l.heads.begin(W, H, 1);
  assert.equal(l.alphaSum(), 0);
});

test('a new frame starts empty whatever drew the last one: heads, rects, stamped shapes, a layer drawn over it, scrolled', () => {
  // each writer marks the rows it touches, and a new frame clears only marked rows
  const parts = [{ x: 0, y: 0, w: 4, h: 3, rgba: 0xc0f0d0b0 }];
  const draws: [string, (l: HeadLayer, scale: number) => void][] = [
    ['heads', (l) => l.add(30.3, 4.2, 4, RED)],
    ['a rect', (l) => l.fillRect(10.5, 20.25, 40, 3.5, BLUE)],
    ['stamped shapes', (l) => l.stamp([5, 7.5, 60, 30.25, 100, 12], parts)],
    [
      'a layer drawn over it',
      (l, scale) => {
        const top = new HeadLayer();
        top.begin(W, H, scale);
        top.add(70, 25.5, 5, RED);
        top.fillRect(3, 33, 20, 2, BLUE);
        l.drawLayer(top);
      },
    ],
    [
      'heads, scrolled',
      (l) => {
        l.add(50.5, 10, 4, RED);
        l.scroll(-7);
        l.add(118, 10, 4, BLUE);
      },
    ],
  ];
  for (const scale of [1, 2]) {
    for (const [what, draw] of draws) {
      const l = layer(scale);
      draw(l.heads, scale);
      assert.ok(l.alphaSum() > 1, `${what}, ${scale}x: something drawn`);
      l.heads.begin(W, H, scale);
      assert.equal(l.alphaSum(), 0, `${what}, ${scale}x: a new frame is empty`);
    }
  }
});

test('a new frame starts clean: what the last frame covered is neither under nor OR-ed into its heads', () => {
  const fresh = layer();
  fresh.heads.add(30.3, 4.2, 4, RED);
  const again = layer();
  for (let frame = 0; frame < 3; frame++) {
    again.heads.begin(W, H, 1);
    // the last frame drew another colour here, then the same head in a run numbered alike
    if (frame > 0) again.heads.add(30.3, 4.2, 4, RED);
    else {
      again.heads.add(31.1, 4.6, 4, BLUE);
      again.heads.nextRun();
      again.heads.add(30.1, 4.2, 4, RED);
    }
  }
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) assert.equal(again.at(x, y), fresh.at(x, y), `pixel ${x},${y} after three frames`);
});

test('blends are remembered per colour: the same under-colour and coverage blend in each run’s own colour', () => {
  const GREEN_HALF = 0x8000ff00;
  const BLUE_HALF = 0x80ff0000;
  // red under two places; a translucent head over each, blue then green, at the same sub-pixel offset
  const both = layer();
  both.heads.add(20.25, 4, 4, RED);
  both.heads.add(60.25, 4, 4, RED);
  both.heads.nextRun();
  both.heads.add(20.25, 4, 4, BLUE_HALF);
  both.heads.nextRun();
  both.heads.add(60.25, 4, 4, GREEN_HALF);
  const greenOnly = layer();
  greenOnly.heads.add(60.25, 4, 4, RED);
  greenOnly.heads.nextRun();
  greenOnly.heads.add(60.25, 4, 4, GREEN_HALF);
  let blended = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 40; x < W; x++) {
      assert.equal(both.at(x, y), greenOnly.at(x, y), `pixel ${x},${y}: green over red, whatever blue did before`);
      if (both.at(x, y) !== 0 && both.at(x, y) !== RED) blended++;
    }
  }
  assert.ok(blended > 10, `green blended over red in ${blended} pixels`);
  assert.notEqual(both.at(20, 6), both.at(60, 6), 'blue over red is not green over red');
});

test('remembered blends never answer for another colour: 300 colours over the same under-colour and coverage', () => {
  const l = layer();
  for (let i = 0; i < 300; i++) {
    // translucent colours that differ in every channel and alpha
    const colour = (((0x40 + (i % 0x80)) << 24) | (((i * 37) & 0xff) << 16) | (((i * 91) & 0xff) << 8) | ((i * 13) & 0xff)) >>> 0;
    l.heads.begin(W, H, 1);
    l.heads.add(30.25, 4, 4, RED);
    l.heads.nextRun();
    l.heads.add(30.25, 4, 4, colour);
    // a pixel both heads cover whole: the colour over red, at full coverage
    assert.equal(l.at(30, 6), over(colour, 1, RED), `colour ${colour.toString(16)}`);
  }
});

test('a rect covers its area, its edge pixels at the part they overlap, at any scale; later colours go over', () => {
  for (const scale of [1, 2]) {
    const l = layer(scale);
    l.heads.fillRect(10.5, 5.25, 4, 3, RED);
    assert.ok(Math.abs(l.alphaSum() - 12 * scale * scale) < 0.05, `${scale}×: coverage ${l.alphaSum()} against area ${12 * scale * scale}`);
    if (scale === 1) {
      assert.equal(l.at(12, 6), RED, 'inside: the colour');
      assert.equal(l.at(10, 6) >>> 24, 128, 'a half-covered column: half alpha');
      assert.equal(l.at(10, 5) >>> 24, Math.round(0.5 * 0.75 * 255), 'a corner: the product of its two overlaps');
      assert.equal(l.at(9, 6), 0, 'outside: nothing');
      l.heads.fillRect(12, 6, 1, 1, BLUE);
      assert.equal(l.at(12, 6), BLUE, 'an opaque rect over it');
    }
  }
});

test('a stamped shape: the pixels of its rects filled in order at each place, where places do not overlap, at any scale', () => {
  // the arrows' density marks: a translucent edge, then a bar over it, in cells 6 px apart (some
  // off the layer's left and right edges)
  const parts = [
    { x: -0.5, y: -0.5, w: 5, h: 4, rgba: 0x80204060 },
    { x: 0, y: 0, w: 4, h: 3, rgba: 0xc0f0d0b0 },
  ];
  for (const scale of [1, 1.25, 1.5, 2]) {
    const places: number[] = [];
    for (let col = -1; col < 21; col++) for (let row = 0; row < 7; row++) places.push(col * 6 + 1, row * 6 + 1.5 + (col % 3) * 0.25);
    const stamped = layer(scale);
    stamped.heads.stamp(places, parts);
    const filled = layer(scale);
    for (let q = 0; q < places.length; q += 2) for (const r of parts) filled.heads.fillRect(places[q]! + r.x, places[q + 1]! + r.y, r.w, r.h, r.rgba);
    let differ = 0;
    let painted = 0;
    for (let y = 0; y < H * scale; y++) {
      for (let x = 0; x < Math.ceil(W * scale); x++) {
        if (filled.at(x, y) !== 0) painted++;
        if (stamped.at(x, y) !== filled.at(x, y)) differ++;
      }
    }
    assert.ok(painted > 2000 * scale * scale, `${scale}×: ${painted} pixels painted`);
    assert.equal(differ, 0, `${scale}×: ${differ} of ${painted} pixels differ`);
  }
});

/** A seeded spread of heads in runs (colours), as drawEvents adds them: x in 16ths of a CSS px (exact in binary). */
function headsOf(seed: number): { x: number; y: number; rgba: number; run: boolean }[] {
  let s = seed;
  const rand = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / 2 ** 24;
  const out: { x: number; y: number; rgba: number; run: boolean }[] = [];
  const colours = [RED, BLUE, 0x80ff8000, 0xff00ff00];
  let x = -9;
  for (let i = 0; i < 400; i++) {
    x += Math.floor(rand() * 40) / 16;
    if (x > W + 9) x = -9 + Math.floor(rand() * 64) / 16;
    out.push({ x, y: 4 + Math.floor(rand() * 3) * 12, rgba: colours[Math.floor(i / 37) % colours.length]!, run: i % 37 === 0 });
  }
  return out;
}

function drawHeads(l: HeadLayer, heads: ReturnType<typeof headsOf>, dx: number): void {
  for (const h of heads) {
    if (h.run) l.nextRun();
    l.add(h.x + dx, h.y, 10 / 3, h.rgba);
  }
}

test('a scrolled layer: the last frame moved by whole pixels and the uncovered columns drawn is the frame drawn afresh, at any scale', () => {
  const pixels = (l: HeadLayer): Uint32Array => (l as unknown as { px: Uint32Array }).px;
  for (const scale of [1, 1.25, 2]) {
    for (const seed of [1, 2, 3]) {
      const heads = headsOf(seed);
      const kept = new HeadLayer();
      kept.begin(W, H, scale);
      drawHeads(kept, heads, 0);
      // pan by whole CSS px that are whole device px too (1.25×: multiples of 4), both ways, several frames
      let at = 0;
      for (const step of [-8, -8, 16, 4, -12, 0]) {
        at += step;
        kept.scroll(step * scale);
        drawHeads(kept, heads, at);
        const fresh = new HeadLayer();
        fresh.begin(W, H, scale);
        drawHeads(fresh, heads, at);
        const a = pixels(kept);
        const b = pixels(fresh);
        let differ = 0;
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
        assert.equal(differ, 0, `${scale}×, seed ${seed}, view moved to ${at} CSS px: ${differ} pixels differ`);
      }
    }
  }
});

test('a layer drawn over another: each pixel source-over, rows it covers added to the frame', () => {
  const under = layer();
  under.heads.fillRect(10, 2, 50, 30, 0x80ffffff);
  const top = new HeadLayer();
  top.begin(W, H, 1);
  top.add(30, 4, 5, RED);
  top.add(80, 20, 5, 0x800000ff);
  // in rows the layer under holds nothing in (they are copied whole)
  top.add(100, 33, 5, 0x800000ff);
  const topPx = (top as unknown as { px: Uint32Array }).px;
  const before = Uint32Array.from((under.heads as unknown as { px: Uint32Array }).px);
  under.heads.drawLayer(top);
  let checked = 0;
  let copied = 0;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const v = topPx[y * W + x]!;
      const u = before[y * W + x]!;
      const want = v === 0 ? u : u === 0 || v >>> 24 === 255 ? v : over(v, 1, u);
      assert.equal(under.at(x, y), want, `(${x}, ${y})`);
      if (v !== 0 && u !== 0) checked++;
      if (v !== 0 && y >= 32) copied++;
    }
  assert.ok(checked > 10, `${checked} pixels over pixels`);
  assert.ok(copied > 10, `${copied} pixels in rows with nothing under them`);
  const rows = under.heads as unknown as { y0: number; y1: number };
  assert.ok(rows.y0 <= 2 && rows.y1 >= 26, 'the rows of both');
});
