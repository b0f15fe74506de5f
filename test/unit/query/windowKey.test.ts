import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruCache, covers, keyId, keySpan, minSpanAt, windowKeyFor, type VisibleWindow } from '../../../src/core/query/windowKey';

const view = (t0: number, t1: number, rowStart = 0, rowEnd = 20): VisibleWindow => ({
  t0,
  t1,
  rowStart,
  rowEnd,
  rowCount: 1000,
  mapIndex: 0,
  pixelWidth: 1200,
});

test('the fetched span covers the view with at least one visible span of margin on each side', () => {
  for (const [t0, t1] of [
    [0, 1],
    [0.3, 0.9],
    [9.75, 9.8],
    [1e-7, 1.3e-7],
    [5000.123456, 5000.12346],
  ] as const) {
    const k = windowKeyFor(view(t0, t1));
    const [a, b] = keySpan(k);
    const span = t1 - t0;
    assert.ok(a <= t0 - span && t1 + span <= b, `[${a}, ${b}] around [${t0}, ${t1}]`);
    assert.ok(b - a <= 16 * span, 'over-fetch is bounded');
  }
});

test('small pans keep the key (cache hit), leaving the fetched span changes it', () => {
  const k0 = windowKeyFor(view(10, 11));
  // bucket is 1 s; index = 9; fetched [9, 13]
  assert.deepEqual(keySpan(k0), [9, 13]);
  assert.equal(keyId(windowKeyFor(view(10.4, 11.4))), keyId(k0));
  assert.equal(keyId(windowKeyFor(view(10.99, 11.99))), keyId(k0));
  assert.notEqual(keyId(windowKeyFor(view(11.0, 12.0))), keyId(k0));
  // zooming in by < 2x keeps the bucket only while the span stays above 0.5 s
  assert.equal(windowKeyFor(view(10, 10.6)).level, 0);
  assert.equal(windowKeyFor(view(10, 10.4)).level, -1);
});

test('rows are fetched in aligned blocks with one block of margin, clamped to the row count', () => {
  const k = windowKeyFor(view(0, 1, 130, 170));
  assert.equal(k.rowStart, 64);
  assert.equal(k.rowEnd, 256);
  const top = windowKeyFor(view(0, 1, 0, 10));
  assert.equal(top.rowStart, 0);
  const small = windowKeyFor({ ...view(0, 1, 0, 4), rowCount: 4 });
  assert.equal(small.rowEnd, 4);
  assert.ok(covers({ t0: keySpan(k)[0], t1: keySpan(k)[1], rowStart: k.rowStart, rowEnd: k.rowEnd }, view(0, 1, 130, 170)));
  assert.equal(covers({ t0: 0, t1: 1, rowStart: 0, rowEnd: 64 }, view(0, 1, 60, 70)), false);
});

test('deep zoom: a 1 ns view at t = 100 s gets its own exact bucket', () => {
  const t0 = 100.000000123;
  const k = windowKeyFor(view(t0, t0 + 1e-9));
  const [a, b] = keySpan(k);
  assert.ok(a < t0 && t0 + 1e-9 < b);
  assert.ok(b - a < 1e-7);
  assert.ok(minSpanAt(100) <= 1e-9 && minSpanAt(1e4) < 1e-7, 'float64 resolves ~2e-16 relative');
  assert.ok(minSpanAt(1e4) / 8192 >= 1e4 * 2 ** -52, 'each pixel still spans distinct float64 values');
  assert.equal(minSpanAt(0), 1e-9);
});

test('LruCache evicts the least recently used entry', () => {
  const c = new LruCache<number>(2);
  c.set('a', 1);
  c.set('b', 2);
  assert.equal(c.get('a'), 1);
  c.set('c', 3);
  assert.equal(c.get('b'), undefined);
  assert.equal(c.get('a'), 1);
  assert.equal(c.size, 2);
});
