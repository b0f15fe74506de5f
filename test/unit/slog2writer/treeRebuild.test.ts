// Tree rebuild: the reference's drawables, fed to our writer with the same options, give the
// reference's tree: same node ids, bounds, offsets, sizes, drawable placement and shadows; node
// blocks byte-identical except for the order of category weights with equal ratios (SLOG2.md §21).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { samples, sampleSource } from '../slog2/samples';
import { allDrawablesOf, arrivalOrder, rebuild } from './rebuild';
import { canonicalNode } from './nodeBytes';

for (const sample of samples) {
  test(`rebuilds the tree of ${sample.name} node for node`, async () => {
    const reference = await Slog2File.open(sampleSource(sample));
    const drawables = (await allDrawablesOf(reference)).sort(arrivalOrder);
    const { file, summary } = await rebuild(reference, drawables);
    assert.equal(summary.drawables, drawables.length);
    assert.equal(file.header.maxTreeDepth, reference.header.maxTreeDepth, 'depth');
    assert.equal(file.treeDir.length, reference.treeDir.length, 'node count');
    const key = (n: { depth: number; xpos: number }) => `${n.depth},${n.xpos}`;
    const ours = new Map(file.treeDir.map((n) => [key(n), n]));
    let identical = 0;
    for (const ref of reference.treeDir) {
      const mine = ours.get(key(ref));
      assert.ok(mine, `node (${key(ref)}) missing`);
      assert.deepEqual([mine.earliest, mine.latest, mine.fptr, mine.size], [ref.earliest, ref.latest, ref.fptr, ref.size], `node (${key(ref)}) bounds/FBinfo`);
      const a = await file.readBlock(mine, 'ours');
      const b = await reference.readBlock(ref, 'reference');
      if (Buffer.compare(a, b) === 0) identical++;
      else assert.deepEqual(canonicalNode(a, file.header.version), canonicalNode(b, reference.header.version), `node (${key(ref)}) content`);
    }
    console.log(`${sample.name}: ${identical}/${reference.treeDir.length} nodes byte-identical, ${drawables.length} drawables`);
    assert.ok(identical >= Math.ceil(reference.treeDir.length * 0.8), 'most nodes byte-identical');
    // Everything after the tree but the CategoryMap (hash-ordered in the reference) is byte-identical.
    for (const block of ['lineIDMaps', 'treeDir'] as const) {
      assert.deepEqual(await file.readBlock(file.header[block], 'ours'), await reference.readBlock(reference.header[block], 'reference'), block);
    }
    assert.deepEqual(
      { ...file.header, categories: undefined, lineIDMaps: undefined, treeDir: undefined },
      { ...reference.header, categories: undefined, lineIDMaps: undefined, treeDir: undefined },
      'header',
    );
    assert.equal(file.header.categories.size, reference.header.categories.size, 'CategoryMap size');
    assert.deepEqual(
      [...file.categories.keys()].sort((a, b) => a - b),
      [...reference.categories.keys()].sort((a, b) => a - b),
      'category indices',
    );
    for (const [index, c] of reference.categories) {
      const mine = file.categories.get(index)!;
      assert.deepEqual({ ...mine, summary: undefined }, { ...c, summary: undefined }, `category ${index}`);
      assert.equal(mine.summary!.count, c.summary!.count, `category ${index} count`);
      for (const k of ['incl', 'excl'] as const) {
        const x = mine.summary![k];
        const y = c.summary![k];
        if (Number.isNaN(y)) assert.ok(Number.isNaN(x), `category ${index} ${k} NaN`);
        else assert.ok(Math.abs(x - y) <= Math.abs(y) * 1e-6, `category ${index} ${k}: ${x} vs ${y}`);
      }
    }
    await file.close();
    await reference.close();
  });
}
