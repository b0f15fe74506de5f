// When the event heads' layer is kept from the last frame (headsView.ts headsMovedBy): only a pan
// by whole CSS and device pixels of the same payload, palette, rows and scale keeps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headsMovedBy, type HeadsView } from '../../../webview/timeline/headsView';

const payload = {};
const palette = {};
const view = (over: Partial<HeadsView> = {}): HeadsView => ({
  payload,
  palette,
  width: 1200,
  heightPx: 600,
  scale: 1,
  slots: Int32Array.from([0, 1, 2, -1, 3]),
  first: 0,
  end: 4,
  scrollPx: 0,
  rowHeight: 20,
  k: 0.37,
  shift: -5000.25,
  ...over,
});

test('a pan by whole pixels keeps the heads, moved', () => {
  assert.equal(headsMovedBy(undefined, view()), undefined, 'no last frame');
  assert.equal(headsMovedBy(view(), view({ shift: -5008.25 })), -8);
  assert.equal(headsMovedBy(view(), view()), 0, 'the same view');
  assert.equal(headsMovedBy(view({ scale: 2 }), view({ scale: 2, shift: -4996.25 })), 8, '4 CSS px at 2x');
  assert.equal(headsMovedBy(view({ scale: 1.25 }), view({ scale: 1.25, shift: -4996.25 })), 5);
  // k recomputed from a panned window: its last bits differ, no head moves by a millionth of a pixel
  assert.equal(headsMovedBy(view(), view({ k: 0.37 * (1 + 1e-15), shift: -5008.25 })), -8);
});

test('anything else draws them afresh', () => {
  const cases: [string, Partial<HeadsView>][] = [
    ['a fractional pan', { shift: -5008.75 }],
    ['whole CSS px but not whole device px', { scale: 1.25, shift: -5001.25 }],
    ['a pan as wide as the view', { shift: -6200.25 }],
    ['another payload', { payload: {} }],
    ['another palette (colours, hidden categories)', { palette: {} }],
    ['a zoom', { k: 0.38 }],
    ['rows reordered', { slots: Int32Array.from([1, 0, 2, -1, 3]) }],
    ['a row hidden', { slots: Int32Array.from([0, -1, 1, -1, 2]) }],
    ['scrolled rows', { scrollPx: 3 }],
    ['taller rows', { rowHeight: 24 }],
    ['a wider view', { width: 1300 }],
    ['another scale', { scale: 2 }],
  ];
  for (const [what, change] of cases) assert.equal(headsMovedBy(view(), view(change)), undefined, what);
  assert.equal(headsMovedBy(view(), view({ slots: Int32Array.from([0, 1, 2, -1, 3]) })), 0, 'equal slots in another array');
});
