// Shadow sections decoded by the WebAssembly kernel (shadowKernel.ts): the cases of
// shadowTableCases.ts, and the kernel runs here (else they would test the JS loop twice).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeInKernel } from '../../../src/core/formats/slog2/shadowKernel';
import { shadowTableCases } from './shadowTableCases';

test('the kernel runs here', () => {
  // one list of one shadow: category 7, no info, one vertex, no weights
  const bytes = new Uint8Array(4 + 4 + 2 + 2 + 12 + 28 + 4);
  const v = new DataView(bytes.buffer);
  v.setInt32(0, 1);
  v.setInt32(4, 7);
  v.setInt16(10, 1);
  v.setFloat64(12, 1.5);
  v.setFloat64(24, 1.5);
  v.setFloat64(32, 2.5);
  const decoded = decodeInKernel(bytes, [1, 0], true);
  assert.ok(decoded !== undefined);
  assert.equal(decoded.table.count, 1);
  assert.deepEqual([...decoded.table.earliest, ...decoded.table.latest], [1.5, 2.5]);
  assert.deepEqual([...decoded.events], [0, 7, 4]);
});

shadowTableCases('kernel');
