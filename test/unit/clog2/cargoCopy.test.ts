/**
 * CARGOEVT info bytes are copied out of the chunk being parsed (the chunk is reused): by 32-bit
 * words when the record lies on a word boundary of a word-aligned chunk, else byte by byte. Both
 * paths must hand the sink the same 32 bytes, the bytes of the file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Clog2Parser } from '../../../src/core/formats/clog2/reader';
import type { Clog2Sink } from '../../../src/core/formats/clog2/records';
import { synthToMemory } from '../synth/synthUtil';

/** Every CARGOEVT's info as hex, parsing `bytes` in chunks made by `chunk`. */
function cargoOf(bytes: Uint8Array, chunk: (from: number, to: number) => Uint8Array, size: number): string[] {
  const seen: Uint8Array[] = [];
  const sink: Clog2Sink = {
    time: Number.NaN,
    stateDef() {},
    eventDef() {},
    event(_c, _r, _th, _e, info) {
      if (info) seen.push(info);
    },
    message() {},
    comm() {},
    srcloc() {},
  };
  const parser = new Clog2Parser('cargo.clog2', sink, () => {});
  for (let i = 0; i < bytes.length; i += size) {
    const c = chunk(i, Math.min(bytes.length, i + size));
    parser.push(c);
  }
  parser.end();
  return seen.map((b) => Buffer.from(b).toString('hex'));
}

test('cargo bytes are the same whether copied by words or by bytes', async () => {
  const { bytes } = await synthToMemory({ ranks: 4, iterations: 30, seed: 7 });
  // Word-aligned chunks of a word multiple: records land on word boundaries (the word path).
  const aligned = cargoOf(bytes, (a, z) => bytes.slice(a, z), 1 << 14);
  // Chunks starting one byte into their buffer: never word-aligned (the byte path).
  const shifted = cargoOf(
    bytes,
    (a, z) => {
      const host = new Uint8Array(z - a + 1);
      host.set(bytes.subarray(a, z), 1);
      return host.subarray(1);
    },
    (1 << 14) + 3,
  );
  assert.ok(aligned.length > 100, `the synthetic trace has cargo events (${aligned.length})`);
  assert.deepEqual(shifted, aligned);
  // And the truth: the info bytes as they lie in the file, found by scanning for the hex.
  const whole = Buffer.from(bytes).toString('hex');
  for (const hex of aligned.slice(0, 50).filter((h) => h !== '00'.repeat(32))) assert.ok(whole.includes(hex), 'cargo bytes come from the file');
});
