// Shadow sections decoded where WebAssembly is missing (or a policy refuses it): the JS loop
// gives the same columns, categories seen, warnings and weight order (shadowTableCases.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeInKernel } from '../../../src/core/formats/slog2/shadowKernel';
import { shadowTableCases } from './shadowTableCases';

// Before any kernel is compiled: this file runs in its own process.
delete (globalThis as { WebAssembly?: unknown }).WebAssembly;

test('the kernel does not run here', () => {
  assert.equal(decodeInKernel(new Uint8Array(4), [0, 0], true), undefined);
});

shadowTableCases('JS loop');
