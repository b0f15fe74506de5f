// The conversion worker's and the converter thread's start messages: a preview's prefixBytes is
// a number when present; anything else is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isHostToWorker } from '../../../src/protocol/worker';
import { isWriterToConverter } from '../../../src/protocol/converter';

test('convert: prefixBytes absent or a number', () => {
  const convert = { kind: 'convert', id: 1, input: '/a.clog2', output: '/a.slog2', force: true };
  assert.ok(isHostToWorker(convert));
  assert.ok(isHostToWorker({ ...convert, prefixBytes: 4 << 20 }));
  assert.ok(!isHostToWorker({ ...convert, prefixBytes: '4194304' }));
  assert.ok(!isHostToWorker({ ...convert, prefixBytes: null }));
});

test('converter start: prefixBytes absent or a number', () => {
  const start = { kind: 'start', input: '/a.clog2', referenceQuirks: false };
  assert.ok(isWriterToConverter(start));
  assert.ok(isWriterToConverter({ ...start, prefixBytes: 1024 }));
  assert.ok(!isWriterToConverter({ ...start, prefixBytes: [1024] }));
});
