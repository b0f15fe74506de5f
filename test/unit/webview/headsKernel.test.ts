// The event heads' WebAssembly kernel (webview/timeline/headsKernel.ts): the same pixels as the JS
// loop of headLayer.ts in every case the layer meets (runs, single heads added in one run, colours
// with alpha, clipped scrolls, heads beyond the edges, frames one after another, scales), and its
// bytes are what headsKernel.wat assembles to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { HeadLayer } from '../../../webview/timeline/headLayer';
import { EventMarks } from '../../../webview/timeline/eventMarks';
import { repoRoot } from '../../helpers/paths';

const W = 160;
const H = 90;

function pixels(l: HeadLayer): Uint32Array {
  return (l as unknown as { px: Uint32Array }).px;
}

function assertSame(js: HeadLayer, wasm: HeadLayer, what: string): void {
  const a = pixels(js);
  const b = pixels(wasm);
  assert.equal(b.length, a.length, `${what}: layer sizes`);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) assert.fail(`${what}: pixel ${i} differs: JS ${a[i]!.toString(16)}, kernel ${b[i]!.toString(16)}`);
  }
}

/** A seeded generator (xorshift), so a failure names its case. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** Marks as drawEvents writes them: rows' tops, x beyond both edges, runs of a colour, some colours translucent. */
function scene(rnd: () => number, n: number, rowH: number): EventMarks {
  const marks = new EventMarks();
  while (marks.xe.length < n) marks.grow();
  const colours = [0xff2020e0, 0xff20e020, 0x80e02020, 0x33808080, 0xff000000 | Math.floor(rnd() * 0xffffff)];
  let run = 0;
  let colour = colours[0]!;
  for (let h = 0; h < n; h++) {
    if (rnd() < 0.15) {
      colour = colours[Math.floor(rnd() * colours.length)]!;
      run++;
    }
    marks.xe[h] = -12 + rnd() * (W + 24);
    marks.top[h] = Math.floor(-1 + rnd() * (H / rowH + 1)) * rowH + 1 + (rnd() < 0.1 ? rnd() : 0);
    marks.rgba[h] = colour >>> 0;
    marks.run[h] = run;
  }
  marks.count = n;
  return marks;
}

test('the kernel is used where WebAssembly is (here), and the JS loop when not asked for', () => {
  assert.equal(new HeadLayer({ kernel: true }).composesInKernel, true);
  assert.equal(new HeadLayer().composesInKernel, false);
});

test('the kernel composes the pixels the JS loop does: dense runs, translucent colours, scales, frames, scrolls', () => {
  for (let seed = 1; seed <= 24; seed++) {
    const rnd = random(seed);
    const scale = [1, 1.5, 2, 1.25][seed % 4]!;
    const rowH = [2, 6, 15, 20][Math.floor(seed / 4) % 4]!;
    const tri = Math.max(2.5, Math.min(5, rowH / 6));
    const js = new HeadLayer();
    const wasm = new HeadLayer({ kernel: true });
    for (let frame = 0; frame < 3; frame++) {
      const marks = scene(rnd, 50 + Math.floor(rnd() * 1500), rowH);
      const what = `seed ${seed}, ${scale}x, rows ${rowH} px, frame ${frame}`;
      for (const l of [js, wasm]) {
        l.begin(W, H, scale);
        l.addMarks(marks, tri);
      }
      assertSame(js, wasm, what);
      // panned by whole device pixels: the kept pixels moved, heads drawn in the uncovered columns only
      const dx = Math.round((rnd() - 0.5) * 60);
      const more = scene(rnd, 300, rowH);
      for (const l of [js, wasm]) {
        l.scroll(dx);
        l.addMarks(more, tri);
      }
      assertSame(js, wasm, `${what}, scrolled ${dx}`);
    }
  }
});

test('the kernel matches the JS loop for heads added one by one in one run, across runs, and every alpha', () => {
  const js = new HeadLayer();
  const wasm = new HeadLayer({ kernel: true });
  for (const l of [js, wasm]) l.begin(W, H, 1);
  const rnd = random(99);
  // every alpha, so every colour table entry: one run each, overlapping the last
  for (let alpha = 0; alpha < 256; alpha++) {
    const x = 5 + (alpha % 30) * 5 + rnd();
    const y = 2 + Math.floor(alpha / 30) * 9 + rnd();
    const rgba = ((alpha << 24) | Math.floor(rnd() * 0xffffff)) >>> 0;
    for (const l of [js, wasm]) {
      l.nextRun();
      l.add(x, y, 3.3, rgba);
      // the same run again, a little beside: OR-ed with the first, over what was under the run
      l.add(x + 1.3, y, 3.3, rgba);
    }
  }
  assertSame(js, wasm, 'every alpha');
});

test('heads at NaN or infinite places draw nothing, in the kernel as in the JS loop', () => {
  const js = new HeadLayer();
  const wasm = new HeadLayer({ kernel: true });
  const marks = scene(random(5), 40, 15);
  for (const [h, x] of [
    [3, Number.NaN],
    [7, Number.POSITIVE_INFINITY],
    [11, Number.NEGATIVE_INFINITY],
  ] as const)
    marks.xe[h] = x;
  marks.top[20] = Number.NaN;
  for (const l of [js, wasm]) {
    l.begin(W, H, 1);
    l.addMarks(marks, 2.5);
  }
  assertSame(js, wasm, 'NaN and infinite places');
  const drawn = pixels(wasm).reduce((n, v) => n + (v === 0 ? 0 : 1), 0);
  assert.ok(drawn > 0, 'the other heads are drawn');
});

test('the committed kernel bytes are what headsKernel.wat assembles to', () => {
  const script = path.join(repoRoot, 'scripts', 'build-wasm.mjs');
  const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `build-wasm --check: ${r.stderr}`);
});
