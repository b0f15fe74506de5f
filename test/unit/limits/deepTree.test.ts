/**
 * A SLOG-2 whose header claims the largest tree depth (max_treedepth 32767, the root moved there,
 * all levels between empty): opening, the full read and the time-ordered stream give every drawable
 * once, in time order. (How long that takes is a figure of `npm run bench` (slog2.bench.ts), not a test.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { synthBytes, writtenSlog2 } from '../../fuzz/corpus';

test('max_treedepth 32767 over ~770 leaves: every drawable, in time order', async () => {
  const b = await writtenSlog2(await synthBytes({ ranks: 4, seconds: 0.05, seed: 9, blockSize: 8192 }), 256);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const maxDepth = dv.getInt16(18);
  const treeDir = Number(dv.getBigInt64(24 + 48));
  const entries = dv.getInt32(treeDir);
  let leaves = 0;
  for (let i = 0; i < entries; i++) {
    const e = treeDir + 4 + 34 * i;
    const depth = dv.getInt16(e);
    if (depth === 0) leaves++;
    if (depth === maxDepth) dv.setInt16(e, 32767);
  }
  dv.setInt16(18, 32767);
  assert.ok(leaves > 500, `${leaves} leaves`);

  const file = await Slog2File.open(new MemorySource('deep.slog2', b));
  assert.equal(file.maxDepth, 32767);
  let all = 0;
  for await (const _ of file.allDrawables()) all++;
  let ordered = 0;
  let last = -Infinity;
  for await (const d of file.drawablesInTimeOrder()) {
    assert.ok(d.earliest >= last);
    last = d.earliest;
    ordered++;
  }
  assert.equal(ordered, all);
  assert.ok(all > 1000);
});
