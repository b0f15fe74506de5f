import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clampScroll, maxScroll, nestingInset, rowAt, rowTop, visibleRows } from '../../../webview/timeline/rowLayout';
import { ZoomHistory } from '../../../webview/timeline/zoomHistory';
import { FrameScheduler, type LayerName } from '../../../webview/timeline/scheduler';
import { adjustForBackground, contrast, parseCssColour } from '../../../webview/timeline/colour';

test('row virtualisation: only rows intersecting the viewport, for thousands of rows', () => {
  const v = { rowCount: 5000, rowHeight: 20, scrollPx: 30_010, heightPx: 400 };
  assert.deepEqual(visibleRows(v), { first: 1500, end: 1521 });
  assert.equal(rowTop(v, 1500), -10);
  assert.equal(rowAt(v, 0), 1500);
  assert.equal(rowAt(v, 15), 1501);
  assert.equal(rowAt({ ...v, scrollPx: 0 }, -1), undefined);
  assert.equal(maxScroll(v), 99_600);
  assert.equal(clampScroll(v, 1e9), 99_600);
  assert.deepEqual(visibleRows({ rowCount: 4, rowHeight: 20, scrollPx: 0, heightPx: 400 }), { first: 0, end: 4 });
  assert.deepEqual(visibleRows({ rowCount: 0, rowHeight: 20, scrollPx: 0, heightPx: 400 }), { first: 0, end: 0 });
});

test('nesting insets grow with depth and keep the innermost state visible', () => {
  assert.equal(nestingInset(0, 3, 20), 0);
  assert.ok(nestingInset(1, 3, 20) < nestingInset(2, 3, 20));
  assert.ok(20 - 2 * nestingInset(40, 40, 20) >= 3);
});

test('zoom undo/redo', () => {
  const h = new ZoomHistory(3);
  const a = { t0: 0, t1: 10 };
  const b = { t0: 2, t1: 4 };
  const c = { t0: 3, t1: 3.5 };
  h.push(a);
  h.push(b);
  assert.deepEqual(h.undo(c), b);
  assert.deepEqual(h.undo(b), a);
  assert.equal(h.undo(a), undefined);
  assert.deepEqual(h.redo(a), b);
  assert.deepEqual(h.redo(b), c);
  assert.equal(h.canRedo, false);
  h.push(a);
  h.push(b);
  h.push(c);
  h.push({ t0: 1, t1: 2 });
  let n = 0;
  let cur = { t0: 0, t1: 1 };
  for (let w = h.undo(cur); w; w = h.undo(cur)) {
    cur = w;
    n++;
  }
  assert.equal(n, 3, 'bounded');
});

test('one frame per burst of marks; hover repaints only the overlay', () => {
  const frames: (() => void)[] = [];
  const drawn: LayerName[] = [];
  const s = new FrameScheduler(
    (l) => drawn.push(l),
    (cb) => frames.push(cb),
  );
  s.mark('overlay');
  s.mark('data', 'grid');
  s.mark('overlay');
  assert.equal(frames.length, 1);
  frames.shift()!();
  assert.deepEqual(drawn, ['grid', 'data', 'overlay']);
  drawn.length = 0;
  s.mark('overlay');
  frames.shift()!();
  assert.deepEqual(drawn, ['overlay']);
  assert.equal(frames.length, 0);
});

test('theme colours: too little contrast is fixed, hue kept; CSS colours parsed', () => {
  const white = [255, 255, 255] as const;
  const dark = [30, 30, 30] as const;
  const onLight = adjustForBackground(white, white);
  assert.ok(contrast(onLight, white) >= 1.9);
  const yellow = [255, 255, 0] as const;
  const y = adjustForBackground(yellow, white);
  assert.equal(y[2], 0);
  assert.equal(y[0], y[1], 'hue kept');
  assert.deepEqual(adjustForBackground([160, 32, 240], dark), [160, 32, 240], 'good colours untouched');
  assert.ok(contrast(adjustForBackground([20, 20, 40], dark), dark) >= 1.9);
  assert.deepEqual(parseCssColour('#1e1e1e'), [30, 30, 30]);
  assert.deepEqual(parseCssColour('#fff'), [255, 255, 255]);
  assert.deepEqual(parseCssColour('#ffffffcc'), [255, 255, 255]);
  assert.deepEqual(parseCssColour('rgba(1, 2, 3, 0.5)'), [1, 2, 3]);
  assert.equal(parseCssColour('transparent'), undefined);
});
