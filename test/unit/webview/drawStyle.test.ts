import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TextFitter,
  arrowHead,
  arrowsToSummarise,
  borderFor,
  labelFits,
  previewArrowStyle,
  summariseArrows,
  textOn,
} from '../../../webview/timeline/drawStyle';
import { contrast } from '../../../webview/timeline/colour';

test('text and borders contrast with the fill', () => {
  assert.deepEqual(textOn([255, 255, 0]), [0, 0, 0]); // MPI_Barrier yellow: black text
  assert.deepEqual(textOn([160, 32, 240]), [255, 255, 255]); // MPI_Allreduce purple: white text
  for (const fill of [
    [255, 255, 0],
    [160, 32, 240],
    [0, 0, 0],
    [255, 255, 255],
  ] as const) {
    assert.ok(contrast(borderFor(fill), fill) > 1.5, `border of ${fill}`);
  }
});

test('names fit with an ellipsis, or not at all', () => {
  const f = new TextFitter((s) => s.length * 7); // 7 px per character
  assert.equal(f.fit('MPI_Barrier', 200), 'MPI_Barrier');
  const cut = f.fit('MPI_Barrier', 60)!;
  assert.ok(cut.endsWith('…') && cut.length * 7 <= 60 - 6, cut);
  assert.equal(cut, 'MPI_Ba…');
  assert.equal(f.fit('MPI_Barrier', 15), undefined);
  assert.ok(labelFits(40, 12));
  assert.ok(!labelFits(10, 40));
});

test('preview arrows stay thin; width and alpha grow with log5 of the count', () => {
  const one = previewArrowStyle(1, 625);
  const mid = previewArrowStyle(25, 625);
  const top = previewArrowStyle(625, 625);
  const huge = previewArrowStyle(1e9, 1e9);
  assert.ok(one.width < mid.width && mid.width < top.width);
  assert.ok(one.alpha < mid.alpha && mid.alpha < top.alpha);
  assert.ok(huge.width <= 3 && huge.alpha <= 0.85 + 1e-9);
  assert.ok(Math.abs(mid.alpha - (0.25 + 0.6 * 0.5)) < 1e-9);
});

test('arrowheads shrink in short rows; dense arrows are summarised', () => {
  assert.deepEqual(arrowHead(60), { length: 10, halfWidth: 3 });
  assert.ok(arrowHead(10).length < 10);
  assert.ok(!summariseArrows(100, 1200, 600));
  assert.ok(summariseArrows(50_000, 1200, 600));
  // the count a frame stops at: the first that is summarised
  for (const [w, h] of [
    [1200, 600],
    [300, 100],
    [1201, 333],
  ] as const) {
    const n = arrowsToSummarise(w, h);
    assert.ok(!summariseArrows(n - 1, w, h) && summariseArrows(n, w, h), `${w}×${h}: ${n}`);
  }
});
