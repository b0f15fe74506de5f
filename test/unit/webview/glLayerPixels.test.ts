// The WebGL2 painter against canvas2d (issue 21: "same pixels as canvas2d within anti-aliasing"):
// the data layer draws the same scenes through both (pages/glLayerPage.ts) in headless Chromium,
// whose WebGL2 is SwiftShader. Pixels may differ only on the edges of the canvas2d picture
// (anti-aliasing of boxes, lines, heads and glyphs), and few of them; a painter one pixel off
// fails (checked here with a planted shift).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_CHROMIUM, withBrowserPage } from './browserPage';
import type { GlDiff } from './glDiff';

type Compare = (name: string, dpr: number, shift?: number, headPixels?: boolean) => GlDiff;
type SplitResult = { differ: number; split: number; whole: number };
type SplitCompare = (name: string, dpr: number, headPixels?: boolean) => SplitResult;

/** At most this share of painted pixels may differ beyond the tolerance (edges: measured ≤ 1.4 %). */
const EDGE_SHARE = 0.02;
/**
 * Off the edges, at most this share: where the translucent strokes of one path cross, canvas2d
 * fills their union once and the GL blends each (measured ≤ 19 pixels in 526 000, at 2×).
 */
const OFF_EDGE_SHARE = 1e-4;

test('WebGL2 data layer: the pixels of canvas2d within anti-aliasing', { skip: NEEDS_CHROMIUM }, async () => {
  await withBrowserPage('glLayerPage.ts', async (page, errors) => {
    for (const [scene, dpr] of [
      ['boxes', 1],
      ['boxes', 2],
      ['dense', 1],
      ['dense', 2],
      ['aggregated', 1],
      ['hatched', 1],
    ] as const) {
      const d = (await page.evaluate(([s, r]) => (globalThis as unknown as { compareGl: Compare }).compareGl(s, r), [scene, dpr] as const)) as GlDiff;
      const what = `${scene} at ${dpr}×`;
      assert.ok(d.drawn > 100 && d.painted > 20_000 && d.instances > 10, `${what}: something drawn (${JSON.stringify(d)})`);
      assert.ok(d.offEdge <= OFF_EDGE_SHARE * d.painted, `${what}: ${d.offEdge} pixels differ away from any edge (${JSON.stringify(d)})`);
      assert.ok(d.differ <= EDGE_SHARE * d.painted, `${what}: ${d.differ} of ${d.painted} painted pixels differ (${JSON.stringify(d)})`);
    }
    // heads and density marks as pixel layers (WebGL2 forced on software GL): GL draws the layers'
    // rows as pixel lines, canvas2d the layers' canvas; the same layer pixels under both, so fewer
    // pixels differ than with heads as paths (measured 489 against 646 at 1×, 1573 against 1891 at
    // 2×; the layer's rows one device pixel low: 1387 and 3421; no layer drawn: 1202 and 3832)
    for (const dpr of [1, 2]) {
      const compare = async (headPixels: boolean): Promise<GlDiff> =>
        (await page.evaluate(([r, h]) => (globalThis as unknown as { compareGl: Compare }).compareGl('dense', r, 0, h), [dpr, headPixels] as const)) as GlDiff;
      const paths = await compare(false);
      const d = await compare(true);
      const what = `dense with pixel layers at ${dpr}×`;
      assert.ok(d.drawn > 100 && d.painted > 20_000, `${what}: something drawn (${JSON.stringify(d)})`);
      assert.ok(d.offEdge <= OFF_EDGE_SHARE * d.painted, `${what}: ${d.offEdge} pixels differ away from any edge (${JSON.stringify(d)})`);
      assert.ok(d.differ <= paths.differ, `${what}: ${d.differ} pixels differ, ${paths.differ} with heads as paths (${JSON.stringify(d)})`);
    }
    // pixel lines drawn as one quad per coloured stretch: the same pixels as one quad per line, at
    // whole and fractional scales (each stretch's quad is SPAN_MARGIN transparent columns wider:
    // without it 3638 pixels differ in boxes at 1.25×); lines not split fail the second check
    for (const [scene, dpr, heads] of [
      ['dense', 1, false],
      ['dense', 0.75, false],
      ['dense', 1.5, true],
      ['boxes', 1.25, false],
      ['boxes', 2, false],
    ] as const) {
      const s = (await page.evaluate(([n, r, hp]) => (globalThis as unknown as { compareGlSplit: SplitCompare }).compareGlSplit(n, r, hp), [
        scene,
        dpr,
        heads,
      ] as const)) as SplitResult;
      assert.equal(s.differ, 0, `${scene} at ${dpr}×${heads ? ' with pixel layers' : ''}: pixels differ with lines split (${JSON.stringify(s)})`);
      assert.ok(s.split > s.whole, `${scene} at ${dpr}×: lines were split (${JSON.stringify(s)})`);
    }
    // a painter one device pixel off is caught
    const off = (await page.evaluate(([s, r, k]) => (globalThis as unknown as { compareGl: Compare }).compareGl(s, r, k), ['boxes', 1, 1] as const)) as GlDiff;
    assert.ok(off.offEdge > OFF_EDGE_SHARE * off.painted || off.differ > EDGE_SHARE * off.painted, `a one-pixel shift is seen (${JSON.stringify(off)})`);
    assert.deepEqual(errors, []);
  });
});
