// copyBytes moves every byte of a span (words, then the tail) between views at any offsets; a
// span that runs past either view throws a RangeError (the views bound-check every access).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyBytes } from '../../../src/core/bytes/copyBytes';

test('copyBytes: every length and alignment, words then tail', () => {
  const src = Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255);
  const sv = new DataView(src.buffer);
  for (let length = 0; length <= 40; length++)
    for (const from of [0, 1, 3, 7])
      for (const to of [0, 2, 5]) {
        const dst = new Uint8Array(64).fill(0xee);
        const end = copyBytes(sv, from, new DataView(dst.buffer), to, length);
        assert.equal(end, to + length);
        const want = new Uint8Array(64).fill(0xee);
        want.set(src.subarray(from, from + length), to);
        assert.deepEqual(dst, want, `length ${length} from ${from} to ${to}`);
      }
});

test('copyBytes: views over part of a buffer index from their own start; a span past either end throws', () => {
  const buffer = Uint8Array.from({ length: 48 }, (_, i) => i).buffer;
  const src = new DataView(buffer, 8, 16);
  const dst = new Uint8Array(32);
  copyBytes(src, 2, new DataView(dst.buffer, 4, 20), 1, 13);
  assert.deepEqual(
    Array.from(dst.subarray(5, 18)),
    Array.from({ length: 13 }, (_, i) => 10 + i),
  );
  assert.throws(() => copyBytes(src, 10, new DataView(dst.buffer), 0, 7), RangeError);
  assert.throws(() => copyBytes(src, 0, new DataView(dst.buffer, 0, 8), 4, 6), RangeError);
});
