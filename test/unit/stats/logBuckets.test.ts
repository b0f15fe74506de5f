import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogBuckets } from '../../../src/core/stats/logBuckets';
import { rng } from '../../helpers/rng';

const formula = (d: number, perDecade: number): number => Math.floor(Math.log10(d) * perDecade);

/** The doubles next to `d` (same sign, finite, positive). */
function neighbours(d: number): number[] {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, d);
  const bits = v.getBigUint64(0);
  const out: number[] = [];
  for (const delta of [-2n, -1n, 1n, 2n]) {
    v.setBigUint64(0, bits + delta);
    const x = v.getFloat64(0);
    if (x > 0 && Number.isFinite(x)) out.push(x);
  }
  return out;
}

test('log buckets: the formula’s bucket at every boundary (10^(k/4) and its neighbouring doubles), over the whole range', () => {
  for (const perDecade of [4, 3, 6, 1]) {
    const buckets = new LogBuckets(perDecade);
    const check = (d: number): void => assert.equal(buckets.of(d), formula(d, perDecade), `${d} (${perDecade} per decade)`);
    for (let k = -323 * perDecade; k <= 308 * perDecade; k++) {
      const edge = 10 ** (k / perDecade);
      if (!(edge > 0 && Number.isFinite(edge))) continue;
      check(edge);
      for (const x of neighbours(edge)) check(x);
    }
    for (const d of [Number.MIN_VALUE, 2 ** -1022, 2 ** -1022 * (1 - 2 ** -52), Number.MAX_VALUE, 1, 2, 0.5, 1e-9, 1e-6]) check(d);
  }
});

test('log buckets: random durations (seconds to days and every scale of double) give the formula’s bucket', () => {
  const r = rng(11);
  const buckets = new LogBuckets(4);
  const v = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < 200_000; i++) {
    let d: number;
    if (i % 2 === 0) d = 10 ** (r() * 14 - 9);
    else {
      v.setUint32(0, Math.floor(r() * 0x7ff00000));
      v.setUint32(4, Math.floor(r() * 2 ** 32));
      d = v.getFloat64(0);
    }
    if (!(d > 0)) continue;
    assert.equal(buckets.of(d), formula(d, 4), String(d));
  }
});

test('log buckets: more than 6 per decade (three steps in a binade) is refused', () => {
  assert.throws(() => new LogBuckets(10), /at most 6/);
  assert.doesNotThrow(() => new LogBuckets(6));
});
