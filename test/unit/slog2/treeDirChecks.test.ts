// The TreeDir checks at open with the WebAssembly kernel (treeDirKernel.ts) doing the per-entry work.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseInKernel } from '../../../src/core/formats/slog2/treeDirKernel';
import { TreeDirColumns } from '../../../src/core/formats/slog2/treeDir';
import { treeDirCases } from './treeDirCases';

test('the kernel runs here', () => {
  assert.ok(parseInKernel(new Uint8Array(0), 0, false, 0, new TreeDirColumns(0, 0)) !== undefined);
});

treeDirCases('kernel');
