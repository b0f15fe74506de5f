// The data layer's dense path in headless Chromium: a synthetic payload (120 000 states, 40 rows,
// three nesting levels, a translucent colour) drawn by drawData (chunk culling, draw keys, column
// runs as image strips) must give the pixels of a plain painter (every state, each column run
// one fillRect, as the layer drew before), whole and zoomed or panned so that most of the payload is culled. Boxes
// are under 10 px tall, so no borders or names (their code is not on the dense path). Dense
// events (their stems as pixel lines, eventStems.ts) are compared with a painter of paths.
// Skipped, saying why, when Chromium is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PixelDiff } from './pixelDiff';
import { NEEDS_CHROMIUM, withBrowserPage } from './browserPage';

test('dense data layer: the pixels of one fillRect per column run, every state', { skip: NEEDS_CHROMIUM }, async () => {
  await withBrowserPage('dataLayerPage.ts', async (page, errors) => {
    for (const [t0, t1, rowH, what] of [
      [0, 1.05, 11, 'whole payload'],
      [0.3, 0.32, 11, 'zoomed in: most chunks culled'],
      [-0.5, 0.2, 10, 'panned past the start'],
      [0.9, 1.6, 9.5, 'panned past the end, fractional rows'],
    ] as const) {
      // states by depth and row (scanned by run, shown rows only), and by depth and time (whole)
      const drawn: number[] = [];
      for (const byRow of [true, false]) {
        const d = (await page.evaluate(
          ([a, b, h, r]) =>
            (globalThis as unknown as { compareDataLayer: (a: number, b: number, h: number, s: number, r: boolean) => PixelDiff }).compareDataLayer(
              a,
              b,
              h,
              11,
              r,
            ),
          [t0, t1, rowH, byRow] as const,
        )) as PixelDiff;
        const how = `${what}, ${byRow ? 'by row' : 'by time'}`;
        assert.ok(d.drawn > 1000 && d.painted > 10_000, `${how}: something drawn (${JSON.stringify(d)})`);
        assert.equal(d.differ, 0, `${how}: ${d.differ} of ${d.painted} painted pixels differ by more than rounding (max delta ${d.maxDelta.toFixed(1)})`);
        drawn.push(d.drawn);
      }
      assert.equal(drawn[0], drawn[1], `${what}: the same states drawn either way`);
    }
    // Events: heads as paths per colour run, stems composited as pixel lines (eventStems.ts),
    // against a painter of every head, then every stem, each a path per colour run, at 1× and
    // 2× device pixels. One-colour rows, and sparse rows on whole pixels, match to rounding.
    // Where stems of different runs overlap, the line keeps the later one before a fractional
    // row edge's anti-aliasing blends it (the paths blended both): a few pixels in a thousand.
    for (const [colours, rowH, scroll, n, dpr, allowed] of [
      [1, 20, 0, 300, 1, 0],
      [1, 13.5, 7.25, 300, 1, 0],
      [3, 20, 0, 300, 1, 0],
      [7, 20, 0, 300, 1, 0],
      [1, 13.5, 7.25, 300, 2, 0],
      [3, 20, 0, 300, 2, 0],
      [3, 13.5, 7.25, 300, 2, 0.002],
      [1, 20, 0, 12000, 1, 0],
      [1, 13.5, 7.25, 12000, 1, 0],
      [1, 20, 0, 12000, 2, 0],
      [3, 20, 0, 12000, 1, 0.001],
      [7, 20, 0, 12000, 1, 0.001],
    ] as const) {
      const d = (await page.evaluate(
        ([c, h, s, k, r]) =>
          (globalThis as unknown as { compareEvents: (c: number, h: number, s: number, n: number, r: number) => PixelDiff }).compareEvents(c, h, s, k, r),
        [colours, rowH, scroll, n, dpr] as const,
      )) as PixelDiff;
      const what = `${n} events of ${colours} colours, rows ${rowH} px, ${dpr}×`;
      assert.ok(d.drawn > n / 2 && d.painted > 5000, `${what}: something drawn (${JSON.stringify(d)})`);
      assert.ok(d.differ <= allowed * d.painted, `${what}: ${d.differ} of ${d.painted} painted pixels differ (max delta ${d.maxDelta.toFixed(1)})`);
    }
    // COLOURS[1] is #3cb44b: a real event's stem keeps it after a preview event in its run
    const stem = await page.evaluate(() => (globalThis as unknown as { eventRunColour: () => number[] }).eventRunColour());
    assert.deepEqual(stem, [0x3c, 0xb4, 0x4b], 'the events of a colour run are filled in their colour');
    assert.deepEqual(errors, []);
  });
});
