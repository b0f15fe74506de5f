// The data layer's dense path in headless Chromium: a synthetic payload (120 000 states, 40 rows,
// three nesting levels, a translucent colour) drawn by drawData (chunk culling, draw keys, column
// runs as image strips) must give the pixels of a plain painter (every state, each column run
// one fillRect, as the layer drew before), whole and zoomed or panned so that most of the payload
// is culled, at 1x and 2x device pixels (the strips drawn from one image: columnStrips.ts
// drawFromSheet). Boxes are under 10 px tall, so no borders or names (their code is not on the
// dense path). Dense events (their stems as pixel lines, eventStems.ts) are compared with a
// painter of paths. Skipped, saying why, when Chromium is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PanDiff, PixelDiff } from './pixelDiff';
import { NEEDS_CHROMIUM, withBrowserPage } from './browserPage';

test('dense data layer: the pixels of one fillRect per column run, every state', { skip: NEEDS_CHROMIUM }, async () => {
  await withBrowserPage('dataLayerPage.ts', async (page, errors) => {
    for (const [t0, t1, rowH, dpr, what] of [
      [0, 1.05, 11, 1, 'whole payload'],
      [0.3, 0.32, 11, 1, 'zoomed in: most chunks culled'],
      [-0.5, 0.2, 10, 1, 'panned past the start'],
      [0.9, 1.6, 9.5, 1, 'panned past the end, fractional rows'],
      [0, 1.05, 9.5, 2, 'whole payload, fractional rows, 2x'],
    ] as const) {
      // states by depth and row (scanned by run, shown rows only), and by depth and time (whole);
      // wide boxes as fillRects, and as pixels of the strips (where canvas2d rasterises on the CPU)
      const drawn: number[] = [];
      for (const [byRow, boxPixels] of [
        [true, false],
        [false, false],
        [true, true],
        [false, true],
      ] as const) {
        const d = (await page.evaluate(
          ([a, b, h, r, k, bp]) =>
            (
              globalThis as unknown as { compareDataLayer: (a: number, b: number, h: number, s: number, r: boolean, k: number, bp: boolean) => PixelDiff }
            ).compareDataLayer(a, b, h, 11, r, k, bp),
          [t0, t1, rowH, byRow, dpr, boxPixels] as const,
        )) as PixelDiff;
        const how = `${what}, ${byRow ? 'by row' : 'by time'}, wide boxes as ${boxPixels ? 'pixels' : 'rects'}`;
        assert.ok(d.drawn > 1000 && d.painted > 10_000, `${how}: something drawn (${JSON.stringify(d)})`);
        assert.equal(d.differ, 0, `${how}: ${d.differ} of ${d.painted} painted pixels differ by more than rounding (max delta ${d.maxDelta.toFixed(1)})`);
        drawn.push(d.drawn);
      }
      assert.ok(
        drawn.every((n) => n === drawn[0]),
        `${what}: the same states drawn every way (${drawn.join(', ')})`,
      );
    }
    // The strips alone at rows with partly covered top and bottom device rows (three lines a row):
    // boxes and marks as their fillRects at 1× and 2×.
    for (const dpr of [1, 2]) {
      const d = (await page.evaluate((r) => (globalThis as unknown as { compareStrips: (r: number) => PixelDiff }).compareStrips(r), dpr)) as PixelDiff;
      assert.ok(d.painted > 5000, `strips at fractional rows, ${dpr}×: something drawn (${JSON.stringify(d)})`);
      assert.equal(d.differ, 0, `strips at fractional rows, ${dpr}×: ${d.differ} of ${d.painted} painted pixels differ (max delta ${d.maxDelta.toFixed(1)})`);
    }
    // Pans by whole pixels draw the states from the last frame's marks, moved (stateMarks.ts): the
    // plain painter's pixels at every step, a full scan's pixels and drawn count at checkpoints.
    // With the idle warm-up's frames (warmUp.ts) drawn between two of them, the frames after are
    // the same: what its frames leave behind (kept marks, the pan anchor) never shows.
    // States of each depth and row one after another (time-ordered runs: a run's states in a time
    // range found by binary search, timeChunks.ts spansInRun) or overlapping (scanned by chunks).
    for (const [rowH, dpr, boxPixels, warmUpAt, timeOrdered] of [
      [11, 1, false, -1, false],
      [9.5, 1, true, -1, false],
      [11, 2, true, -1, false],
      [9.5, 1, true, 3, false],
      [11, 2, true, 10, false],
      [11, 1, false, -1, true],
      [9.5, 2, true, 3, true],
    ] as const) {
      const d = (await page.evaluate(
        ([h, r, bp, wu, to]) =>
          (globalThis as unknown as { comparePans: (h: number, r: number, bp: boolean, wu: number, to: boolean) => PanDiff }).comparePans(h, r, bp, wu, to),
        [rowH, dpr, boxPixels, warmUpAt, timeOrdered] as const,
      )) as PanDiff;
      const what = `pans, rows ${rowH} px, ${dpr}×, wide boxes as ${boxPixels ? 'pixels' : 'rects'}${warmUpAt >= 0 ? `, warm-up frames before step ${warmUpAt}` : ''}, runs ${timeOrdered ? 'in time order' : 'overlapping'}`;
      assert.equal(d.timeOrderedRuns, timeOrdered, `${what}: the payload's runs as meant`);
      // every move but the first frame and the one past the width (a full scan); after the
      // warm-up, whose last frame is the view before, its move too
      assert.equal(d.panned, d.steps - 2, `${what}: frames drawn from the kept marks (${JSON.stringify(d)})`);
      if (warmUpAt >= 0) assert.ok(d.warmUpPanned >= 12, `${what}: the warm-up drew its pans from the kept marks (${d.warmUpPanned})`);
      assert.ok(d.painted > 10_000, `${what}: something drawn (${JSON.stringify(d)})`);
      assert.equal(d.differ, 0, `${what}: pixels differ from the plain painter at ${d.worst}`);
      assert.equal(d.mismatches, '', `${what}: against a full scan of the same view`);
    }
    // Events: heads filled as a path per colour run, or composited from sample masks
    // (eventHeads.ts: where canvas2d rasterises on the CPU), and stems as pixel lines
    // (eventStems.ts), against a painter of every head, then every stem, each a path per colour
    // run, at 1× and 2× device pixels, the stems' ends on whole device rows in both (eventStems.ts).
    // As paths, at most 2 in 1000 pixels differ (measured: none at rows of 13.5 px, 32 of 160 739
    // where 12 000 events of several colours overlap at rows of 20 px). Composited, the heads' edges are anti-aliased by different means (64
    // samples a pixel; Skia's path filler): pixels may differ beyond HEAD_AA (24 of 255) only on
    // edges of the reference picture, at most 0.6 % of painted pixels where 12 000 events overlap
    // (measured ≤ 0.57 %), and off the edges in at most 1 in 10 000 pixels (where runs of
    // different colours overlap: measured 15 of 160 748, 0 elsewhere). A missing or shifted head
    // differs inside its shape, off any edge.
    for (const [colours, rowH, scroll, n, dpr, headPixels] of [false, true].flatMap((pixels) =>
      (
        [
          [1, 20, 0, 300, 1],
          [1, 13.5, 7.25, 300, 1],
          [3, 20, 0, 300, 1],
          [7, 20, 0, 300, 1],
          [1, 13.5, 7.25, 300, 2],
          [3, 20, 0, 300, 2],
          [3, 13.5, 7.25, 300, 2],
          [1, 20, 0, 12000, 1],
          [1, 13.5, 7.25, 12000, 1],
          [1, 20, 0, 12000, 2],
          [3, 20, 0, 12000, 1],
          [7, 20, 0, 12000, 1],
        ] as const
      ).map((c) => [...c, pixels] as const),
    )) {
      const d = (await page.evaluate(
        ([c, h, s, k, r, px]) =>
          (globalThis as unknown as { compareEvents: (c: number, h: number, s: number, n: number, r: number, px: boolean) => PixelDiff }).compareEvents(
            c,
            h,
            s,
            k,
            r,
            px,
          ),
        [colours, rowH, scroll, n, dpr, headPixels] as const,
      )) as PixelDiff;
      const what = `${n} events of ${colours} colours, rows ${rowH} px, ${dpr}×, heads as ${headPixels ? 'pixels' : 'paths'}`;
      assert.ok(d.drawn > n / 2 && d.painted > 5000, `${what}: something drawn (${JSON.stringify(d)})`);
      assert.ok(
        d.differ <= (headPixels ? 0.006 : 0.002) * d.painted,
        `${what}: ${d.differ} of ${d.painted} painted pixels differ (max delta ${d.maxDelta.toFixed(1)})`,
      );
      assert.ok(d.offEdge <= 1e-4 * d.painted, `${what}: ${d.offEdge} of ${d.painted} painted pixels differ off any edge`);
    }
    // Density marks as pixels of the events' layer (where canvas2d rasterises on the CPU) against
    // the marks as paths: at 1× (half-pixel edges) and 2×, alone and under events' heads.
    for (const [rowH, dpr, events] of [
      [10, 1, false],
      [10, 2, false],
      [13.5, 1, true],
      [10, 2, true],
    ] as const) {
      const d = (await page.evaluate(
        ([h, r, e]) => (globalThis as unknown as { compareDensity: (h: number, r: number, e: boolean) => PixelDiff }).compareDensity(h, r, e),
        [rowH, dpr, events] as const,
      )) as PixelDiff;
      const what = `density marks, rows ${rowH} px, ${dpr}×${events ? ', under heads' : ''}`;
      assert.ok(d.drawn > 1000 && d.painted > 50_000, `${what}: something drawn (${JSON.stringify(d)})`);
      assert.equal(d.differ, 0, `${what}: ${d.differ} of ${d.painted} painted pixels differ (max delta ${d.maxDelta.toFixed(1)})`);
    }
    // COLOURS[1] is #3cb44b: a real event's stem keeps it after a preview event in its run
    const stem = await page.evaluate(() => (globalThis as unknown as { eventRunColour: () => number[] }).eventRunColour());
    assert.deepEqual(stem, [0x3c, 0xb4, 0x4b], 'the events of a colour run are filled in their colour');
    assert.deepEqual(errors, []);
  });
});
