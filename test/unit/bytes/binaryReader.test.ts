// BinaryReader.i64: the two-halves fast path equals the BigInt reading, and values beyond ±2^53 fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryReader } from '../../../src/core/bytes/binaryReader';
import { FormatError } from '../../../src/core/bytes/formatError';
import { Prng } from '../../../src/core/synth/prng';

const edges = [
  0n,
  1n,
  -1n,
  2n ** 32n - 1n,
  2n ** 32n,
  -(2n ** 32n),
  2n ** 53n - 1n,
  -(2n ** 53n - 1n),
  2n ** 52n,
  -(2n ** 52n),
  2n ** 53n - 2n ** 32n,
  -(2n ** 53n) + 2n ** 32n,
];
const beyond = [2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n), 2n ** 60n];

function bytesOf(v: bigint, little: boolean): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, v, little);
  return b;
}

test('i64 reads every value inside ±2^53 exactly, in both byte orders', () => {
  const prng = new Prng(64);
  const random = Array.from({ length: 2000 }, () => {
    const bits = BigInt(Math.floor(prng.next() * 53));
    const v = (BigInt(Math.floor(prng.next() * 2 ** 31)) * BigInt(Math.floor(prng.next() * 2 ** 22))) % 2n ** bits;
    return prng.next() < 0.5 ? -v : v;
  });
  for (const little of [false, true])
    for (const v of [...edges, ...random]) {
      const r = new BinaryReader(bytesOf(v, little), 0, 'x', little);
      assert.equal(r.i64(), Number(v), `${v} (${little ? 'LE' : 'BE'})`);
      assert.equal(r.pos, 8);
    }
});

test('i64 refuses values beyond ±2^53 with a FormatError at their offset', () => {
  for (const little of [false, true])
    for (const v of beyond) {
      const r = new BinaryReader(bytesOf(v, little), 100, 'x.slog2', little);
      assert.throws(
        () => r.i64('count'),
        (e: unknown) => e instanceof FormatError && /count .* outside the supported range/.test(e.message) && e.message.includes('100'),
      );
    }
});
