// State shadows (drawShadowBoxes.ts) through a recording context, in headless Chromium (the
// painter's types are the DOM's; pages/shadowBoxesPage.ts draws, this file judges): bands on
// device pixels, tiling their box bottom-up without overlap, grouped per depth (outermost first)
// with one fill style per colour, hidden categories leaving their share empty, each depth's
// outlines under one stroke style after its bands, names after them. shadowBoxPixels.test.ts
// checks that the grouped fills give the pixels of the boxes painted one band at a time.
// Skipped, saying why, when Chromium is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_CHROMIUM, withBrowserPage } from './browserPage';

interface Op {
  readonly op: string;
  readonly style?: string;
  readonly args: readonly number[];
  readonly text?: string;
}

interface Rows {
  readonly rowCount: number;
  readonly rowHeight: number;
  readonly scrollPx: number;
  readonly heightPx: number;
}

type Shadow = readonly [number, number, number, number, readonly (readonly [number, number])[]];

/** The fills of the page's recorder, by category. */
const COLOURS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231'];
const ROWS: Rows = { rowCount: 4, rowHeight: 37.3, scrollPx: 3.7, heightPx: 150 };

type Page = Parameters<Parameters<typeof withBrowserPage>[1]>[0];
let page: Page;

/** Random shadows (`seed`) or the given ones, drawn under the transform (a, 0.5a; a, f). */
async function draw(
  what: number | readonly Shadow[],
  a: number,
  f: number,
  hidden: readonly number[] = [],
  rows: Rows = ROWS,
): Promise<{ ops: Op[]; drawn: number }> {
  const request = { ...(typeof what === 'number' ? { seed: what } : { shadows: what }), a, f, hidden, rows };
  return (await page.evaluate(`recordShadowBoxes(${JSON.stringify(request)})`)) as { ops: Op[]; drawn: number };
}

/** The band rects of each depth: a depth's outlines come after its bands, under one stroke style. */
function depthGroups(ops: readonly Op[]): Op[][] {
  const groups: Op[][] = [[]];
  for (const o of ops) {
    if (o.op === 'fillRect') groups[groups.length - 1]!.push(o);
    if (o.op === 'strokeStyle') groups.push([]);
  }
  return groups.filter((g) => g.length > 0);
}

const cases: [string, () => Promise<void>][] = [];

cases.push([
  'shadow bands lie on device pixels and tile their box bottom-up, without overlap, at 1× and 2×',
  async () => {
    for (const [a, f] of [
      [1, 0],
      [2, 0],
      [2, 1],
    ] as const) {
      for (let seed = 1; seed <= 5; seed++) {
        const { ops } = await draw(seed, a, f);
        const rects = ops.filter((o) => o.op === 'fillRect');
        assert.ok(rects.length > 20, 'bands drawn');
        for (const r of rects) {
          const [x, y, w, h] = r.args as [number, number, number, number];
          for (const [v, scale, off] of [
            [x, a, 0.5 * a],
            [y, a, f],
            [x + w, a, 0.5 * a],
            [y + h, a, f],
          ] as const) {
            const device = v * scale + off;
            assert.ok(Math.abs(device - Math.round(device)) < 1e-6, `${r.op}(${r.args.join(', ')}) has an edge off the device pixels (${device}) at ${a}×`);
          }
          assert.ok(w > 0 && h > 0, 'no empty band');
        }
        // within a depth, rects of different colours never overlap: grouping them keeps the pixels
        for (const group of depthGroups(ops)) {
          for (let i = 0; i < group.length; i++)
            for (let j = i + 1; j < group.length; j++) {
              const [p, q] = [group[i]!, group[j]!];
              if (p.style === q.style) continue;
              const [px, py, pw, ph] = p.args as [number, number, number, number];
              const [qx, qy, qw, qh] = q.args as [number, number, number, number];
              const overlap = px < qx + qw - 1e-9 && qx < px + pw - 1e-9 && py < qy + qh - 1e-9 && qy < py + ph - 1e-9;
              assert.ok(!overlap, `${p.style} (${p.args.join(', ')}) and ${q.style} (${q.args.join(', ')}) overlap at ${a}×`);
            }
        }
      }
    }
  },
]);

cases.push([
  'one box: bands bottom-up in weight order, heights ∝ shares (rounded to device pixels), a hidden category leaves its share empty',
  async () => {
    // one box of 40 px (rowHeight 48 minus pads), shares 0.5, 0.25, 0.125 (total 0.875: centred)
    const c: Shadow[] = [
      [
        10,
        30,
        0,
        0,
        [
          [0, 0.5],
          [1, 0.25],
          [2, 0.125],
        ],
      ],
    ];
    const rows: Rows = { rowCount: 1, rowHeight: 48, scrollPx: 0, heightPx: 48 };
    const { ops, drawn } = await draw(c, 1, 0, [], rows);
    assert.equal(drawn, 1);
    const bands = ops.filter((o) => o.op === 'fillRect').map((o) => [o.style, ...o.args.slice(1).map((v) => Math.round(v * 1000) / 1000)]);
    assert.equal(bands.length, 3);
    // each band's bottom is the one below's top
    for (let k = 1; k < bands.length; k++) assert.equal((bands[k]![1] as number) + (bands[k]![3] as number), bands[k - 1]![1], 'bands touch');
    const heights = bands.map((b) => b[3] as number);
    const box = heights[0]! / 0.5;
    for (const [k, share] of [0.5, 0.25, 0.125].entries())
      assert.ok(Math.abs(heights[k]! - share * box) <= 1, `band ${k}: ${heights[k]} px for a share of ${share}`);
    assert.deepEqual(
      bands.map((b) => b[0]),
      [COLOURS[0], COLOURS[1], COLOURS[2]],
    );
    const hidden = (await draw(c, 1, 0, [1], rows)).ops
      .filter((o) => o.op === 'fillRect')
      .map((o) => [o.style, ...o.args.slice(1).map((v) => Math.round(v * 1000) / 1000)]);
    assert.deepEqual(hidden, [bands[0], bands[2]], 'the others keep their places');
  },
]);

cases.push([
  'fills go out per depth, outermost first, one fill style per colour; then the depth’s outlines (one stroke style), then its names',
  async () => {
    const { ops } = await draw(9, 1, 0);
    // the fill styles set for bands: never the same colour twice within a depth's group run
    const sequence: string[] = [];
    let depthRuns = 0;
    for (const o of ops) {
      if (o.op === 'fillStyle') sequence.push(o.style!);
      if (o.op === 'strokeStyle') depthRuns++;
    }
    const bandStyles = sequence.filter((s) => COLOURS.includes(s));
    const colours = new Set(bandStyles).size;
    assert.ok(
      bandStyles.length <= colours * 2 + ops.filter((o) => o.op === 'fillText').length,
      `${bandStyles.length} fill styles set for ${colours} colours in two depths`,
    );
    assert.equal(depthRuns, 2, 'the stroke style set once per depth');
    assert.ok(ops.filter((o) => o.op === 'strokeRect').length > 20, 'outlines drawn');
    // two depths, outermost first: the inner boxes' bands (inset: below their row's top pad) after every outer band
    const groups = depthGroups(ops);
    assert.equal(groups.length, 2, 'bands of two depths, each followed by its outlines');
    const topOfRow = (y: number): number => y - Math.floor((y + ROWS.scrollPx) / ROWS.rowHeight) * ROWS.rowHeight;
    const outerTop = Math.min(...groups[0]!.map((o) => topOfRow(o.args[1]!)));
    const innerTop = Math.min(...groups[1]!.map((o) => topOfRow(o.args[1]!)));
    assert.ok(innerTop > outerTop + 1, `inner boxes inset (${innerTop} against ${outerTop})`);
    const rects = ops.filter((o) => o.op === 'fillRect');
    const stroke = ops.findIndex((o) => o.op === 'strokeRect');
    const firstText = ops.findIndex((o) => o.op === 'fillText');
    assert.ok(firstText === -1 || firstText > stroke, 'names after the outlines of their depth');
    // fewer fill styles than bands: the point of grouping
    assert.ok(bandStyles.length < rects.length / 3, `${bandStyles.length} fill styles for ${rects.length} bands`);
  },
]);

cases.push([
  'boxes outside the rows or the width are not drawn; a box narrower than a pixel takes one',
  async () => {
    const c: Shadow[] = [
      [10, 10.01, 0, 0, [[0, 1]]],
      [-50, -40, 1, 0, [[1, 1]]],
      [200, 210, 1, 0, [[2, 1]]],
      [10, 20, 3, 0, [[3, 1]]],
    ];
    const rows: Rows = { rowCount: 4, rowHeight: 20, scrollPx: 0, heightPx: 45 };
    const { ops, drawn } = await draw(c, 2, 0, [], rows);
    assert.equal(drawn, 1, 'only the first: the second ends left of the view, the third starts right of it, the fourth is below');
    const [rect] = ops.filter((o) => o.op === 'fillRect');
    assert.ok(rect!.args[2]! >= 1, `one CSS pixel at least (${rect!.args[2]})`);
  },
]);

test('state shadows through a recording context', { skip: NEEDS_CHROMIUM }, async (t) => {
  await withBrowserPage('shadowBoxesPage.ts', async (p, errors) => {
    page = p;
    for (const [name, run] of cases) await t.test(name, run);
    assert.deepEqual(errors, []);
  });
});
