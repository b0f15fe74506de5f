// The TreeDir checks at open where WebAssembly is missing (or a policy refuses it): the JS loops
// do the per-entry work, with the same nodes, warnings and errors (treeDirCases.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseInKernel } from '../../../src/core/formats/slog2/treeDirKernel';
import { TreeDirColumns } from '../../../src/core/formats/slog2/treeDir';
import { treeDirCases } from './treeDirCases';

// Before any kernel is compiled: this file runs in its own process.
delete (globalThis as { WebAssembly?: unknown }).WebAssembly;

test('the kernel does not run here', () => {
  assert.equal(parseInKernel(new Uint8Array(0), 0, false, 0, new TreeDirColumns(0, 0)), undefined);
});

treeDirCases('JS loops');
