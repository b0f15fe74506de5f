import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DensityRaster, arrowDensity, densityAlpha, labelBands, mixColours } from '../../../webview/timeline/density';

test('sub-pixel rows add up per pixel row: two ranks of different colour in one pixel mix 50/50', () => {
  const r = new DensityRaster(4, 2);
  r.add(0, 4, 0, 0.5, [255, 0, 0]);
  r.add(0, 4, 0.5, 1, [0, 0, 255]);
  const [pr, pg, pb, a] = r.pixel(1, 0);
  assert.ok(Math.abs(pr - 0.5) < 1e-6 && pg === 0 && Math.abs(pb - 0.5) < 1e-6 && Math.abs(a - 1) < 1e-6);
  // the second pixel row is empty
  assert.equal(r.pixel(1, 1)[3], 0);
});

test('a deeper level paints over the level below (innermost wins where it covers)', () => {
  const r = new DensityRaster(2, 1);
  r.add(0, 2, 0, 1, [255, 0, 0]);
  r.flushLevel();
  r.add(0, 1, 0, 1, [0, 255, 0]);
  assert.deepEqual(
    r.pixel(0, 0).map((v) => Math.round(v * 100) / 100),
    [0, 1, 0, 1],
  );
  assert.deepEqual(
    r.pixel(1, 0).map((v) => Math.round(v * 100) / 100),
    [1, 0, 0, 1],
  );
  const bytes = r.toRgba();
  assert.deepEqual([...bytes.slice(0, 4)], [0, 255, 0, 255]);
});

test('half-covered pixel: partial alpha, colour unchanged', () => {
  const r = new DensityRaster(1, 1);
  r.add(0, 0.5, 0, 1, [255, 255, 0]);
  assert.deepEqual([...r.toRgba()], [255, 255, 0, 128]);
});

test('shadow colours mix by weight', () => {
  assert.deepEqual(
    mixColours(
      [
        [255, 0, 0],
        [0, 0, 255],
      ],
      [3, 1],
    ),
    { rgb: [191, 0, 64], total: 4 },
  );
  assert.equal(mixColours([], []).total, 0);
});

test('arrow density counts both ends per row block × time bin', () => {
  // rows 0 and 1 centred at y = 3 and 15; two arrows 0 → 1 from x 1 to 13; one preview arrow of 10 messages 0 → 0
  const a = { start: [1, 1, 1], end: [13, 13, 2], fromRow: [0, 0, 0], toRow: [1, 1, 0], count: [1, 1, 10], flags: [0, 0, 1] };
  const d = arrowDensity(a, { shift: 0, k: 1 }, [3, 15], 18, 18, 1);
  assert.equal(d.cols, 3);
  assert.equal(d.counts[0], 1 + 1 + 10 + 10);
  assert.equal(d.counts[2 * 3 + 2], 2);
  assert.equal(d.max, 22);
  // the cells counted in, in cell order (the marks are made from these alone)
  assert.deepEqual(Array.from(d.cells.subarray(0, d.cellCount)), [0, 2 * 3 + 2]);
  assert.ok(densityAlpha(1, 22) > 0.2 && densityAlpha(22, 22) === 0.95);
  // a hidden row (NaN) and skipped arrows do not count
  const hiddenRow = arrowDensity(a, { shift: 0, k: 1 }, [3, Number.NaN], 18, 18, 1, (i) => i === 2);
  assert.equal(hiddenRow.counts[0], 2);
  assert.equal(hiddenRow.max, 2);
  // offsets map to px as shift + offset·k: with shift −8 and k 2 the sends (1 → −6) and the
  // receives (13 → 18, 2 → −4) are all outside the 18 px view
  const mapped = arrowDensity(a, { shift: -8, k: 2 }, [3, 15], 18, 18, 1);
  assert.deepEqual(Array.from(mapped.counts), [0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const shifted = arrowDensity(a, { shift: 2, k: 1 }, [3, 15], 18, 18, 1);
  // sends at x 3 (bin 0), receives at 15 (bin 2) and, for the preview arrow, 4 (bin 0)
  assert.equal(shifted.counts[0], 1 + 1 + 10 + 10);
  assert.equal(shifted.counts[2 * 3 + 2], 2);
  // a cell of each row at each end, out of order in the arrows; rows outside the given centres do not count
  const spread = { start: [10, 1, 7], end: [2, 16, 13], fromRow: [1, 0, 5], toRow: [0, 1, 1], count: [1, 1, 1], flags: [0, 0, 0] };
  const s2 = arrowDensity(spread, { shift: 0, k: 1 }, [3, 15], 18, 18, 1);
  assert.deepEqual(Array.from(s2.cells.subarray(0, s2.cellCount)), [0, 2 * 3 + 1, 2 * 3 + 2]);
  assert.deepEqual(Array.from(s2.counts), [2, 0, 0, 0, 0, 0, 0, 1, 2]);
  assert.equal(s2.max, 2);
});

test('labels of sub-pixel rows become rank ranges', () => {
  const bands = labelBands(4096, 600 / 4096, 0, 600, (s) => String(s), 18);
  assert.equal(bands[0]!.text, '0–122');
  assert.equal(bands.at(-1)!.text.endsWith('–4095'), true);
  assert.ok(bands.length <= Math.ceil(600 / 18) + 1);
  assert.deepEqual(
    labelBands(2, 30, 0, 60, (s) => `r${s}`).map((b) => b.text),
    ['r0', 'r1'],
  );
});
