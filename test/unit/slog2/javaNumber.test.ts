// Java's Double.toString as the reference tools print times: the plain-range fast path gives the
// digits the exponent path gives, and the known outputs hold at the range's edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { javaDouble, javaFloat } from '../../../src/core/model/javaNumber';

test('Java forms at and around the plain range (1e-3 ≤ |x| < 1e7)', () => {
  const cases: [number, string][] = [
    [0, '0.0'],
    [-0, '-0.0'],
    [5e-4, '5.0E-4'],
    [0.000999, '9.99E-4'],
    [0.001, '0.001'],
    [-0.5, '-0.5'],
    [2.01, '2.01'],
    [100, '100.0'],
    [1234567, '1234567.0'],
    [9999999.999, '9999999.999'],
    [1e7, '1.0E7'],
    [123456789, '1.23456789E8'],
    [1e-5, '1.0E-5'],
    [NaN, 'NaN'],
    [-Infinity, '-Infinity'],
  ];
  for (const [x, java] of cases) assert.equal(javaDouble(x), java, String(x));
  assert.equal(javaFloat(0.1), '0.1');
});

/** The plain form built from the shortest exponent digits, as the general path builds it. */
function plainFromExponent(x: number): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential())!;
  const digits = m[2]! + (m[3] ?? '');
  const exp = Number(m[4]);
  const [int, frac] = exp >= 0 ? [digits.slice(0, exp + 1).padEnd(exp + 1, '0'), digits.slice(exp + 1)] : ['0', '0'.repeat(-exp - 1) + digits];
  return `${m[1]}${int}.${frac || '0'}`;
}

test('in the plain range the fast path equals the exponent digits, for random and integral values', () => {
  const prng = new Prng(12345);
  const random = (): number => prng.next();
  for (let i = 0; i < 20000; i++) {
    const decade = -3 + Math.floor(random() * 10); // 1e-3 .. 1e6
    let x = (1 + random() * 9) * 10 ** decade;
    if (i % 5 === 0) x = Math.round(x);
    if (i % 7 === 0) x = -x;
    if (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e7) continue;
    assert.equal(javaDouble(x), plainFromExponent(x), String(x));
  }
});
