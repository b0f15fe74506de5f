// Fixed-size text fields (CLOG/CLOG2 char[N]): the reference's reading rule, and the memo used on
// the SRCLOC hot path must give exactly what a fresh decode gives, field after field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFixedText, FixedTextMemo } from '../../../src/core/bytes/binaryReader';
import { Prng } from '../../../src/core/synth/prng';

const field = (s: string, n = 40, garbage = 0x41): Uint8Array => {
  const b = new Uint8Array(n).fill(garbage);
  for (let i = 0; i < s.length && i < n; i++) b[i] = s.charCodeAt(i);
  if (s.length < n) b[s.length] = 0;
  return b;
};

test('decodeFixedText: cut at the first NUL, trimmed; no NUL or NUL at 0 is absent; Latin-1', () => {
  assert.equal(decodeFixedText(field('user_states.c')), 'user_states.c');
  assert.equal(decodeFixedText(field('  padded\t ')), 'padded');
  assert.equal(decodeFixedText(field('')), undefined);
  assert.equal(decodeFixedText(new Uint8Array(8).fill(0x42)), undefined);
  assert.equal(decodeFixedText(Uint8Array.of(0xe9, 0x74, 0xe9, 0)), 'été');
});

test('FixedTextMemo.decode equals decodeFixedText on every field of a random sequence with repeats', () => {
  const rng = new Prng(42);
  const pool = [
    field('user_states.c'),
    field('user_states.c', 40, 0x00),
    field('a.c'),
    field(''),
    new Uint8Array(40).fill(0x43),
    field('user_states.h'),
    field('user_states.c', 40, 0x7a),
  ];
  const memo = new FixedTextMemo();
  for (let i = 0; i < 2000; i++) {
    const f = pool[rng.int(0, pool.length - 1)]!;
    assert.equal(memo.decode(f), decodeFixedText(f), `step ${i}`);
  }
});

test('FixedTextMemo.decodeAt reads a field where it lies in a larger buffer, as decode of its view', () => {
  const rng = new Prng(7);
  const pool = [
    field('user_states.c'),
    field('user_states.c', 40, 0x00),
    field('user_states.cc'),
    field('user_states'),
    field(''),
    new Uint8Array(40).fill(0x43),
    field('a.c'),
  ];
  const memo = new FixedTextMemo();
  for (let i = 0; i < 3000; i++) {
    const f = pool[rng.int(0, pool.length - 1)]!;
    // the field at some offset, between bytes that are not part of it
    const at = rng.int(0, 9);
    const buf = new Uint8Array(at + 40 + 9).fill(0x5a);
    buf.set(f, at);
    assert.equal(memo.decodeAt(buf, at, 40), decodeFixedText(f), `step ${i}`);
  }
});
