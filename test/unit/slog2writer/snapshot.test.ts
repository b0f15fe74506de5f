// Snapshots of an SLOG-2 file while it is written (writer/snapshot.ts): each reads as a complete
// file holding every drawable added so far, and taking them changes nothing in the final bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import type { Drawable } from '../../../src/core/model/types';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { snapshotSource } from '../../../src/core/formats/slog2/writer/snapshot';
import { CATEGORIES, syntheticTrace, topologyOf } from './synthetic';

const key = (d: Drawable): string => `${d.category} ${d.earliest} ${d.latest} ${d.kind}`;

async function drawablesOf(file: Slog2File): Promise<{ keys: string[]; located: number }> {
  const keys: string[] = [];
  let located = 0;
  for (const info of file.treeDir) {
    const node = await file.readNode(info);
    for (const d of node.drawables) {
      keys.push(key(d));
      if (d.kind === 'primitive' && d.source) located++;
    }
  }
  return { keys: keys.sort(), located };
}

for (const [children, leafBytes] of [
  [2, 400],
  [3, 1500],
] as const) {
  test(`fan-out ${children}, leaves of ${leafBytes} bytes: every snapshot is a valid file of the drawables so far; the final bytes are unchanged`, async () => {
    const { drawables, maps } = syntheticTrace(5, 60);
    const trailer = { categories: CATEGORIES, lineIDMaps: maps };

    const plain = new MemorySink();
    const w0 = new Slog2Writer(plain, { childrenPerNode: children, leafBytes, topologyOf });
    for (const d of drawables) w0.add(d);
    await w0.finish(trailer);

    const sink = new MemorySink();
    const w = new Slog2Writer(sink, { childrenPerNode: children, leafBytes, topologyOf });
    assert.equal(await w.snapshot(trailer), undefined, 'no snapshot before the first drawable');
    const cuts = new Set([1, 2, 17, Math.floor(drawables.length * 0.37), Math.floor(drawables.length * 0.8), drawables.length - 1]);
    let depths = 0;
    for (let i = 0; i < drawables.length; i++) {
      w.add(drawables[i]!);
      if (!cuts.has(i + 1)) continue;
      const snap = (await w.snapshot(trailer))!;
      const written = sink.bytes();
      assert.equal(written.length, snap.base, 'the written part is in the sink');
      const file = await Slog2File.open(snapshotSource(new MemorySource('t.slog2', written), snap));
      assert.deepEqual(file.warnings, [], `snapshot after ${i + 1} drawables`);
      const so = drawables.slice(0, i + 1);
      const { keys, located } = await drawablesOf(file);
      assert.deepEqual(keys, so.map(key).sort(), `snapshot after ${i + 1}: the drawables so far, each once`);
      assert.equal(located, so.filter((d) => d.kind === 'primitive' && d.source).length, 'their source locations');
      assert.equal(snap.drawables, i + 1);
      assert.equal(file.root.latest, Math.max(...so.map((d) => d.latest)));
      assert.equal(file.root.earliest, Math.min(...so.map((d) => d.earliest)));
      for (const c of [1, 3]) assert.ok(file.categories.get(c)?.name === CATEGORIES[c]!.name || !so.some((d) => d.category === c));
      // Shadows of written children reach the root: a zoomed-out view sees the part written.
      if (file.maxDepth > 0) {
        const root = await file.readNode(file.root);
        assert.ok(root.shadowBuffers.length > 0, 'the root has child stubs');
      }
      depths = Math.max(depths, file.maxDepth);
    }
    assert.ok(depths >= 2, `the snapshots had open trunks of depth ${depths}`);
    await w.finish(trailer);
    assert.deepEqual(sink.bytes(), plain.bytes(), 'snapshots leave the final file byte-identical');
  });
}

test('a snapshot source reads across its header, the written part and its tail, and refuses reads past its end', async () => {
  const written = new Uint8Array(300).map((_, i) => i & 255);
  const header = new Uint8Array(108).fill(7);
  const tail = Uint8Array.of(1, 2, 3);
  const src = snapshotSource(new MemorySource('w', written), { base: 200, header, tail });
  assert.equal(src.size, 203);
  assert.deepEqual([...(await src.read(100, 10))], [7, 7, 7, 7, 7, 7, 7, 7, 108, 109]);
  assert.deepEqual([...(await src.read(198, 5))], [198, 199, 1, 2, 3]);
  assert.deepEqual([...(await src.read(150, 2))], [150, 151]);
  await assert.rejects(src.read(201, 3), /outside the 203-byte snapshot/);
});
