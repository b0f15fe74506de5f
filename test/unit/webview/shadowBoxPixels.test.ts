// State shadows in headless Chromium: drawShadowBoxes groups a frame's band fills per depth and
// colour (one fill style each) and strokes a depth's outlines as one path; on device-pixel edges
// that must give, pixel for pixel, what painting box after box, band after band gave: random
// back-to-back boxes with inner boxes, a translucent colour and a hidden category, at 1× and 2×
// device pixels and several row heights. One exception: a box narrower than a pixel is widened to
// one and shares a column with the box after it, where the colour drawn last shows (before: the
// later box's; now: the colour grouped last) — at most a few pixels a frame, counted apart.
// Skipped, saying why, when Chromium is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_CHROMIUM, withBrowserPage } from './browserPage';

test('state shadows grouped per depth and colour: the pixels of painting them one band at a time', { skip: NEEDS_CHROMIUM }, async () => {
  await withBrowserPage('shadowBoxesPage.ts', async (page, errors) => {
    for (const dpr of [1, 2])
      for (const rowH of [9.5, 24, 41.3])
        for (const seed of [3, 17]) {
          const d = (await page.evaluate(`compareShadowBoxes(${dpr}, ${rowH}, ${seed})`)) as {
            boxes: number;
            drawn: number;
            painted: number;
            differ: number;
            shared: number;
            worst: string;
          };
          const what = `${d.boxes} boxes, rows ${rowH} px, ${dpr}×, seed ${seed}`;
          assert.ok(d.drawn > 100 && d.painted > 10_000, `${what}: drawn ${d.drawn}, ${d.painted} pixels painted`);
          assert.equal(d.differ, 0, `${what}: ${d.differ} of ${d.painted} painted pixels differ, first ${d.worst}`);
          assert.ok(d.shared <= 0.002 * d.painted, `${what}: ${d.shared} pixels differ in columns shared with a box widened to a pixel`);
        }
    assert.deepEqual(errors, []);
  });
});
