// The shift a data frame is drawn at (panAnchor.ts): a pan by whole pixels, give or take the last
// bits of a window recomputed from its times, is drawn at the last frame's shift plus those pixels
// exactly, so that what the last frame kept (state marks, event heads) moves rigidly; any other
// view is drawn at its shift on a grid of 2⁻¹⁶ px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PAN_SLACK_PX, PanAnchor, gridShift } from '../../../webview/timeline/panAnchor';

const k = 1.7e7;

test('a drag whose window is recomputed from its times moves the frame by whole pixels, exactly', () => {
  const a = new PanAnchor();
  const payload = {};
  const first = a.drawnMap(payload, { shift: -5000.123456789, k }, 1200);
  assert.equal(first.shift, gridShift(-5000.123456789), 'the first frame: the shift on its grid');
  assert.equal(first.k, k);
  // a drag whose windows' times round to 5.8e-6 px off whole pixels a move (deep zoom, large times)
  let view = -5000.123456789;
  let drawn = first.shift;
  for (let i = 1; i <= 30; i++) {
    view -= 8.0000058;
    const m = a.drawnMap(payload, { shift: view, k }, 1200);
    assert.equal(m.shift - drawn, -8, `move ${i}: 8 px exactly`);
    assert.ok(Math.abs(m.shift - view) <= PAN_SLACK_PX, `move ${i}: within the slack of the view's shift`);
    drawn = m.shift;
  }
  // the drift past the slack: drawn where the view is, on the grid
  const far = view - 8 - 0.02;
  assert.equal(a.drawnMap(payload, { shift: far, k }, 1200).shift, gridShift(far));
});

test('another payload, scale or a move off whole pixels is drawn where the view is', () => {
  const a = new PanAnchor();
  const p = {};
  a.drawnMap(p, { shift: 100.25, k }, 1200);
  assert.equal(a.drawnMap({}, { shift: 92.25 + 1e-6, k }, 1200).shift, gridShift(92.25 + 1e-6), 'another payload');
  a.drawnMap(p, { shift: 100.25, k }, 1200);
  assert.equal(a.drawnMap(p, { shift: 92.25 + 1e-6, k: k * 1.01 }, 1200).shift, gridShift(92.25 + 1e-6), 'another scale');
  a.drawnMap(p, { shift: 100.25, k }, 1200);
  assert.equal(a.drawnMap(p, { shift: 92.5, k }, 1200).shift, 92.5, 'half a pixel');
  a.drawnMap(p, { shift: 100.25, k }, 1200);
  assert.equal(a.drawnMap(p, { shift: 100.25 + 1e-9, k }, 1200).shift, 100.25, 'the same view again');
});

test('the grid: whole pixels added stay on it, exactly', () => {
  for (const s of [-5000.123456789, 0.3, 123456.987654321, -1e9 / 3]) {
    const g = gridShift(s);
    assert.ok(Math.abs(g - s) <= 2 ** -17, `${s}: on the grid, near it`);
    assert.equal(gridShift(g), g);
    for (const dx of [1, -8, 300, -1199]) assert.equal(gridShift(g + dx), g + dx, `${s} + ${dx}`);
  }
});
