import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  TimeScale,
  clampWindow,
  formatDuration,
  formatTime,
  formatTimeField,
  niceTicks,
  panBy,
  parseTime,
  unitFor,
  zoomAt,
} from '../../../webview/timeline/timeScale';

const full = { t0: 0, t1: 10 };

test('time ↔ pixel round trip and offsets relative to a payload base', () => {
  const s = new TimeScale(2, 4, 1000);
  assert.equal(s.timeToPx(3), 500);
  assert.equal(s.pxToTime(250), 2.5);
  const map = s.offsetMapper(1.5);
  assert.equal(map(1.5), 500);
});

test('deep zoom far from 0: a 10 ns window at t = 9.5 s still separates 1 ns steps via f32 offsets', () => {
  const t0 = 9.500000001;
  const s = new TimeScale(t0, t0 + 1e-8, 1000);
  const base = t0 - 1e-8; // payload fetched from one span earlier
  const map = s.offsetMapper(base);
  const px = [0, 1, 2, 3].map((ns) => map(Math.fround(1e-8 + ns * 1e-9)));
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(px[i]! - i * 100) < 0.01, `pixel ${px[i]} for ${i} ns`);
  // the naive float32 absolute time would collapse all of them to the same value
  assert.equal(Math.fround(t0), Math.fround(t0 + 3e-9));
});

test('zoom at the cursor keeps the time under the cursor fixed; spans are clamped', () => {
  const z = zoomAt({ t0: 2, t1: 6 }, 2, 3, full);
  assert.deepEqual(z, { t0: 2.5, t1: 4.5 });
  const out = zoomAt({ t0: 2, t1: 6 }, 0.01, 4, full);
  assert.ok(out.t0 >= -0.5 && out.t1 <= 10.5, 'not beyond the trace + 5 %');
  let deep = { t0: 5, t1: 6 };
  for (let i = 0; i < 200; i++) deep = zoomAt(deep, 4, 5.25, full);
  assert.ok(deep.t1 - deep.t0 >= 1e-9, 'minimum span of 1 ns');
  assert.ok(deep.t0 <= 5.25 && 5.25 <= deep.t1);
  assert.deepEqual(panBy({ t0: 2, t1: 4 }, 0.5, full), { t0: 3, t1: 5 });
  assert.deepEqual(panBy({ t0: 9, t1: 10 }, 5, full), { t0: 9.5, t1: 10.5 });
  assert.deepEqual(clampWindow({ t0: Number.NaN, t1: Number.NaN }, full), { t0: 0, t1: 10 });
});

test('ticks at 1/2/5 steps with units s/ms/µs/ns', () => {
  const t = niceTicks(new TimeScale(0, 1, 1000), 80);
  assert.equal(t.step, 0.1);
  assert.equal(t.times.length, 11);
  assert.equal(niceTicks(new TimeScale(1, 1 + 2e-6, 1000), 80).step, 2e-7);
  assert.deepEqual(unitFor(2e-7), [1e-6, 'µs']);
  assert.deepEqual(unitFor(5e-8), [1e-9, 'ns']);
  assert.equal(formatTime(0.25, 0.05), '250 ms');
  assert.equal(formatTime(2.5, 0.5), '2.5 s');
  assert.equal(formatTime(0.0125, 0.0005), '12.5 ms');
  assert.equal(formatTime(1.0000021, 2e-7), '1000002.1 µs');
  assert.equal(formatTime(2e-8, 1e-8), '20 ns');
  assert.equal(formatTime(3e-6, 1e-6), '3 µs');
  assert.equal(formatTime(4.901426, 0.002, 0.00002), '4901.43 ms');
  assert.equal(formatDuration(0.00125), '1.25 ms');
  assert.equal(formatDuration(2), '2 s');
});

test('typed times with units', () => {
  assert.equal(parseTime('1.5ms'), 0.0015);
  assert.equal(parseTime(' 2.3 s '), 2.3);
  assert.equal(parseTime('120 µs'), 0.00012);
  assert.equal(parseTime('120us'), 0.00012);
  assert.equal(parseTime('7ns'), 7e-9);
  assert.equal(parseTime('0.004'), 0.004);
  assert.equal(parseTime('1e-3'), 0.001);
  assert.equal(parseTime('abc'), undefined);
  assert.equal(parseTime('1.5 minutes'), undefined);
});

test('from/to fields: times in units with sensible precision, read back by parseTime within 1/1000 of the span', () => {
  // user_states_4's whole trace (issue 13: the fields showed 0.0000523080000221).
  assert.equal(formatTimeField(0.0000523080000221, 0.49313), '52.31 µs');
  assert.equal(formatTimeField(0.49318, 0.49313), '493.18 ms');
  assert.equal(formatTimeField(0.02, 0.09), '20.00 ms');
  assert.equal(formatTimeField(2.5, 10), '2.50 s');
  assert.equal(formatTimeField(0, 1), '0 s');
  assert.equal(formatTimeField(-0.002, 0.01), '-2.00 ms');
  // Deep zoom: more decimals, never more than needed.
  assert.equal(formatTimeField(0.2513456789, 1e-6), '251.345679 ms');
  for (const [t, span] of [
    [0.0000523080000221, 0.49313],
    [0.2513456789, 1e-6],
    [1234.5678, 1e-3],
    [3e-9, 1e-8],
  ] as const) {
    const back = parseTime(formatTimeField(t, span));
    assert.ok(back !== undefined && Math.abs(back - t) <= span / 1e3, `${t} → ${formatTimeField(t, span)} → ${back}`);
  }
});
