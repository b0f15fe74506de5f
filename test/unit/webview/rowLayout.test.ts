import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AGGREGATE_BELOW_PX,
  DEFAULT_ROW_PX,
  MAX_FIT_ROW_PX,
  boxHeight,
  deviceBand,
  nestingInset,
  rowAt,
  rowHeightFor,
  rowPad,
  rowsBetween,
  rowTop,
  scrollForZoom,
  slotOfRow,
  visibleRowSpan,
  visibleRows,
  zoomRows,
  type RowViewport,
} from '../../../webview/timeline/rowLayout';
import { slotsOf } from '../../../webview/timeline/rowOrder';

test('auto sizing fits all rows when each gets enough height, else scrolls at the default height', () => {
  // user_states_4: 4 rows in a 600 px plot share it (Jumpshot shows ~90 px rows)
  assert.equal(rowHeightFor({ mode: 'auto' }, 4, 600), 150);
  assert.equal(rowHeightFor({ mode: 'auto' }, 1, 600), MAX_FIT_ROW_PX);
  assert.equal(rowHeightFor({ mode: 'auto' }, 2048, 600), DEFAULT_ROW_PX);
  // fit always fits: 10 000 rows in 600 px are 0.06 px each (aggregated)
  const h = rowHeightFor({ mode: 'fit' }, 10_000, 600);
  assert.ok(Math.abs(h * 10_000 - 600) < 1e-6);
  assert.ok(h < AGGREGATE_BELOW_PX);
  assert.equal(rowHeightFor({ mode: 'fixed', px: 33 }, 4, 600), 33);
  assert.equal(rowHeightFor({ mode: 'fixed', px: Number.NaN }, 4, 600), DEFAULT_ROW_PX);
});

test('vertical zoom: zooming out from 20 px rows of 100 in 600 px goes to 10 px (still above fit)', () => {
  assert.deepEqual(zoomRows(20, 0.5, 100, 600), { mode: 'fixed', px: 10 });
  assert.deepEqual(zoomRows(20, 0.25, 100, 600), { mode: 'fit' });
});

test('vertical zoom limits', () => {
  assert.deepEqual(zoomRows(20, 1.25, 100, 600), { mode: 'fixed', px: 25 });
  assert.deepEqual(zoomRows(7, 0.8, 100, 600), { mode: 'fit' });
  assert.deepEqual(zoomRows(150, 0.8, 4, 600), { mode: 'fit' });
  // slot under y = 100 is slot 5 at 20 px (scroll 0); at 40 px it must still be under y = 100
  const s = scrollForZoom(20, 40, 0, 100);
  assert.equal(Math.floor((s + 100) / 40), 5);
});

test('hidden and reordered rows: slots, tops, hit rows and the fetched row span', () => {
  const order = [3, 0, 7];
  const v: RowViewport = { rowCount: 3, rowHeight: 30, scrollPx: 0, heightPx: 200, order, slotOf: slotsOf(order, 8) };
  assert.equal(slotOfRow(v, 3), 0);
  assert.equal(slotOfRow(v, 2), -1);
  assert.equal(rowTop(v, 7), 60);
  assert.ok(Number.isNaN(rowTop(v, 2)));
  assert.equal(rowAt(v, 35), 0);
  assert.equal(rowAt(v, 95), undefined);
  assert.deepEqual(visibleRows(v), { first: 0, end: 3 });
  assert.deepEqual(visibleRowSpan(v), { start: 0, end: 8 });
  assert.deepEqual(visibleRowSpan({ rowCount: 100, rowHeight: 10, scrollPx: 50, heightPx: 100 }), { start: 5, end: 15 });
});

test("a region's rows: the shown rows between two plot ys, in slot order (hidden and moved rows respected)", () => {
  const order = [3, 0, 7];
  const v: RowViewport = { rowCount: 3, rowHeight: 30, scrollPx: 10, heightPx: 200, order, slotOf: slotsOf(order, 8) };
  // y 25 → slot 1 (row 0), y 55 → slot 2 (row 7), in either drag direction
  assert.deepEqual(rowsBetween(v, 25, 55), [0, 7]);
  assert.deepEqual(rowsBetween(v, 55, 25), [0, 7]);
  assert.deepEqual(rowsBetween(v, -100, 1000), [3, 0, 7]);
  assert.deepEqual(rowsBetween({ rowCount: 10, rowHeight: 20, scrollPx: 0, heightPx: 200 }, 41, 41), [2]);
});

test('nesting: each level an inset box; the innermost of depth 3 is the largest readable area', () => {
  const rowH = 150;
  const box = boxHeight(rowH);
  assert.ok(box >= 0.88 * rowH && box < rowH);
  const inner = box - 2 * nestingInset(3, 3, box);
  // Jumpshot's NESTING_HEIGHT_FACTOR 0.8 per level: 0.8^3 of the box
  assert.ok(Math.abs(inner - box * 0.512) < 1e-9);
  // outer levels stay visible as bands of at least a few px
  for (let d = 1; d <= 3; d++) assert.ok(nestingInset(d, 3, box) - nestingInset(d - 1, 3, box) >= 4);
  // deep nesting: the innermost keeps ≥ 35 % of the box
  assert.ok(box - 2 * nestingInset(30, 30, box) >= 0.35 * box - 1e-9);
  // a 20 px row: depth 3 of 3 is still ≥ 8 px
  const b20 = boxHeight(20);
  assert.ok(b20 - 2 * nestingInset(3, 3, b20) >= 8);
  // thin rows: no insets, no padding
  assert.equal(nestingInset(2, 3, 4), 0);
  assert.equal(rowPad(3), 0);
});

test('a state box on whole device rows: edges rounded to the nearest, nesting kept inside, at least one device row', () => {
  const out: [number, number] = [0, 0];
  // 1×: rows of 9.5 px, 8.5 px boxes
  assert.deepEqual(deviceBand({ d: 1, f: 0 }, 19.5, 8.5, out), [20, 28]);
  assert.deepEqual(deviceBand({ d: 1, f: 0 }, 10.25, 8.5, out), [10, 19]);
  // 2×, translated by 3 device px: edges on half CSS px, less the translation
  assert.deepEqual(deviceBand({ d: 2, f: 3 }, 10.3, 4.1, out), [10.5, 14.5]);
  // a box under one device row tall keeps one
  assert.deepEqual(deviceBand({ d: 1, f: 0 }, 4.6, 0.3, out), [5, 6]);
  // every depth of a fractional row: its band within its parent's, each band ≥ 1 device row
  const rowH = 21.7;
  const box = boxHeight(rowH);
  for (const top of [0, 3.3, 117.85]) {
    let parent: [number, number] = [-Infinity, Infinity];
    for (let depth = 0; depth <= 3; depth++) {
      const inset = nestingInset(depth, 3, box);
      const [t, b] = deviceBand({ d: 1, f: 0 }, top + rowPad(rowH) + inset, box - 2 * inset, [0, 0]);
      assert.ok(Number.isInteger(t) && Number.isInteger(b) && b - t >= 1, `depth ${depth} at ${top}: [${t}, ${b})`);
      assert.ok(t >= parent[0] && b <= parent[1], `depth ${depth} at ${top}: [${t}, ${b}) inside [${parent[0]}, ${parent[1]})`);
      parent = [t, b];
    }
  }
});
