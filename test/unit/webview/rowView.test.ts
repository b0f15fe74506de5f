import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RowView, sizingOf, sizingState } from '../../../webview/timeline/rowView';
import { parseRankList } from '../../../webview/timeline/rowOrder';
import { rowAt, rowTop, visibleRows } from '../../../webview/timeline/rowLayout';
import { isWebviewToHost } from '../../../src/protocol/webview';

test('4 rows fill a 600 px plot; hiding rank 2 gives the 3 others a third each', () => {
  const v = new RowView();
  v.reset(4);
  v.setHeight(600);
  assert.equal(v.rowHeight, 150);
  v.hide([2]);
  assert.deepEqual(v.shownRows(), [0, 1, 3]);
  assert.equal(v.rowHeight, 200);
  const vp = v.viewport();
  assert.ok(Number.isNaN(rowTop(vp, 2)));
  assert.equal(rowAt(vp, 450), 3);
  // hiding everything is refused (the last row stays)
  v.hide([0, 1, 3]);
  assert.equal(v.slots, 3);
  v.showAll();
  assert.equal(v.customised, false);
});

test('vertical zoom in and out around the pointer; zooming out stops at "fit all"', () => {
  const v = new RowView();
  v.reset(4096);
  v.setHeight(600);
  assert.equal(v.rowHeight, 20); // auto: too many to fit at a readable height
  v.setSizing({ mode: 'fit' });
  assert.ok(Math.abs(v.rowHeight * 4096 - 600) < 1e-6);
  assert.deepEqual(visibleRows(v.viewport()), { first: 0, end: 4096 });
  v.zoom(8, 300);
  assert.equal(v.sizingMode.mode, 'fixed');
  // the slot under y = 300 stays about the same (slot 2048)
  assert.ok(Math.abs((v.scrollPx + 300) / v.rowHeight - 2048) < 1);
  for (let i = 0; i < 20; i++) v.zoom(0.5, 300);
  assert.deepEqual(v.sizingMode, { mode: 'fit' });
  assert.equal(v.scrollPx, 0);
});

test('rank filter and persisted sizing', () => {
  const v = new RowView();
  const labels = Array.from({ length: 200 }, (_, i) => String(i));
  v.reset(200, undefined, 33);
  v.setHeight(500);
  assert.equal(v.rowHeight, 33);
  assert.ok(v.filter(parseRankList('0-15,64,128-'), labels));
  assert.equal(v.slots, 16 + 1 + 72);
  assert.ok(!v.filter(parseRankList('500-'), labels));
  assert.deepEqual(sizingOf('fit'), { mode: 'fit' });
  assert.deepEqual(sizingOf(-3), { mode: 'auto' });
  assert.equal(sizingState({ mode: 'fixed', px: 12 }), 12);
  // a reset keeps a valid order and drops rows that do not exist in the new map
  v.reset(20, [19, 5, 40]);
  assert.deepEqual(v.shownRows(), [19, 5]);
});

test('view states with rows and row sizing are checked before use', () => {
  const base = { t0: 0, t1: 1, mapIndex: 0, scrollRow: 0 };
  assert.ok(isWebviewToHost({ kind: 'viewState', state: { ...base, rows: [0, 1, 3], rowSizing: 'fit' }, moved: true, syncSeq: 2 }));
  assert.ok(isWebviewToHost({ kind: 'viewState', state: { ...base, rowSizing: 24 }, moved: true, syncSeq: 2 }));
  assert.ok(!isWebviewToHost({ kind: 'viewState', state: { ...base, rows: [0, -1] }, moved: true, syncSeq: 2 }));
  assert.ok(!isWebviewToHost({ kind: 'viewState', state: { ...base, rows: 'all' }, moved: true, syncSeq: 2 }));
  assert.ok(!isWebviewToHost({ kind: 'viewState', state: { ...base, rowSizing: 'huge' }, moved: true, syncSeq: 2 }));
  assert.ok(!isWebviewToHost({ kind: 'viewState', state: { ...base, rowSizing: Infinity }, moved: true, syncSeq: 2 }));
});
