// Structural invariants of written files for other fan-outs and leaf sizes (SLOG2.md §9, §15),
// checked through our reader, and the writer's input contract.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { makePrimitive } from '../../../src/core/model/types';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { CATEGORIES, syntheticTrace, topologyOf } from './synthetic';
import { DrawableBatchEncoder } from '../../../src/core/formats/slog2/writer/drawableBatchEncoder';

for (const [children, leafBytes] of [
  [2, 400],
  [3, 700],
  [5, 2000],
] as const) {
  test(`fan-out ${children}, leaves of ${leafBytes} bytes: a valid tree holding every drawable once`, async () => {
    const { drawables, maps } = syntheticTrace(5, 40);
    const sink = new MemorySink();
    const w = new Slog2Writer(sink, { childrenPerNode: children, leafBytes, topologyOf });
    for (const d of drawables) w.add(d);
    const summary = await w.finish({ categories: CATEGORIES, lineIDMaps: maps });
    const file = await Slog2File.open(new MemorySource('t.slog2', sink.bytes()));
    assert.deepEqual(file.warnings, []);
    assert.equal(file.header.numChildrenPerNode, children);
    assert.equal(summary.nodes, file.treeDir.length);
    assert.ok(file.maxDepth >= 2, `depth ${file.maxDepth}`);
    let total = 0;
    let maxBlock = 0;
    for (const info of file.treeDir) {
      maxBlock = Math.max(maxBlock, info.size);
      const node = await file.readNode(info);
      total += node.drawables.length;
      for (const d of node.drawables) assert.ok(info.earliest <= d.earliest && d.latest <= info.latest, `drawable inside node (${info.depth},${info.xpos})`);
      if (info.depth === 0) {
        assert.equal(node.shadowBuffers.length, 0);
        assert.ok(info.size <= leafBytes + 1 || node.drawables.length === 1, `leaf size ${info.size}`);
      } else {
        assert.ok(node.shadowBuffers.length >= 1 && node.shadowBuffers.length <= children);
        for (const b of node.shadowBuffers) {
          const child = file.treeDir.find((n) => n.depth === b.child.depth && n.xpos === b.child.xpos)!;
          assert.ok(child, 'stub names a real child');
          assert.equal(b.child.depth, info.depth - 1);
          assert.equal(Math.floor(b.child.xpos / children), info.xpos);
          assert.deepEqual([b.child.fptr, b.child.size, b.child.earliest, b.child.latest], [child.fptr, child.size, child.earliest, child.latest]);
          assert.ok(info.earliest <= child.earliest && child.latest <= info.latest);
        }
      }
    }
    assert.equal(total, drawables.length);
    for (const block of [file.header.categories, file.header.lineIDMaps, file.header.treeDir]) maxBlock = Math.max(maxBlock, block.size);
    assert.equal(file.header.maxBufferByteSize, maxBlock, 'max_buffer_bytesize is the largest block');
    // Same-level nodes touch and do not overlap.
    for (let depth = 0; depth <= file.maxDepth; depth++) {
      const level = file.level(depth);
      for (let i = 1; i < level.length; i++) assert.equal(level[i]!.earliest, level[i - 1]!.latest);
    }
    // Every category count matches the drawables.
    for (const c of CATEGORIES.slice(0, 4)) {
      assert.equal(file.categories.get(c.index)!.summary!.count, drawables.filter((d) => d.category === c.index).length);
    }
    assert.equal(file.lineIDMaps.at(-1)!.title, 'Identity Map');
  });
}

test('input contract: end-time order, finite times, known categories, at least one drawable', async () => {
  const w = new Slog2Writer(new MemorySink(), { topologyOf });
  w.add(
    makePrimitive(1, [
      { time: 1, lineID: 0 },
      { time: 2, lineID: 0 },
    ]),
  );
  assert.throws(
    () =>
      w.add(
        makePrimitive(1, [
          { time: 0, lineID: 0 },
          { time: 1.5, lineID: 0 },
        ]),
      ),
    /non-decreasing end time/,
  );
  assert.throws(
    () =>
      w.add(
        makePrimitive(1, [
          { time: NaN, lineID: 0 },
          { time: 3, lineID: 0 },
        ]),
      ),
    /invalid time bounds/,
  );
  assert.throws(() => w.add(makePrimitive(42, [{ time: 3, lineID: 0 }])), /category 42/);
  await assert.rejects(new Slog2Writer(new MemorySink(), { topologyOf }).finish({ categories: CATEGORIES, lineIDMaps: [] }), /no drawables/);
  assert.throws(() => new Slog2Writer(new MemorySink(), { topologyOf, childrenPerNode: 1 }), /children per node/);
  // A Y map missing a used lineID gets the row (Jumpshot needs every lineID in every map).
  const sink = new MemorySink();
  const v = new Slog2Writer(sink, { topologyOf });
  v.add(
    makePrimitive(1, [
      { time: 1, lineID: 7 },
      { time: 2, lineID: 7 },
    ]),
  );
  const s = await v.finish({ categories: CATEGORIES, lineIDMaps: [{ title: 'Process View', columns: ['world_rank'], rows: [], methods: [] }] });
  assert.equal(s.addedMapRows, 1);
  const file = await Slog2File.open(new MemorySource('m.slog2', sink.bytes()));
  assert.deepEqual(
    file.lineIDMaps.map((m) => m.rows.map((r) => r.lineID)),
    [[7], [7]],
  );
});

test('a file holds at most 2^32 − 1 real primitives (the shadows count them in 32 bits): more is refused, not wrapped', () => {
  const w = new Slog2Writer(new MemorySink(), { topologyOf });
  // as if 4 294 967 290 had been written already (writing them would take hours)
  (w as unknown as { primitives: number }).primitives = 0xffffffff - 5;
  assert.throws(() => {
    for (let i = 0; i < 10_000; i++)
      w.add(
        makePrimitive(1, [
          { time: i, lineID: 0 },
          { time: i + 0.5, lineID: 0 },
        ]),
      );
  }, /more than 4294967295 real primitives .*too many for one file/);
});

test('a batch entry out of end-time order is refused; the entries placed before it are written', async () => {
  const encoder = new DrawableBatchEncoder(topologyOf);
  for (let i = 0; i < 6; i++)
    encoder.add(
      makePrimitive(1, [
        { time: i, lineID: 0 },
        { time: i + 0.5, lineID: 0 },
      ]),
    );
  encoder.flush();
  const batch = encoder.takeReady()!;
  assert.equal(batch.count, 6);
  batch.latest[3] = 0.25; // entry 3 now ends before entry 2: the writer's own check refuses it
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { topologyOf });
  assert.throws(() => w.addBatch(batch), /drawable 3 .*non-decreasing end time/);
  assert.equal(w.drawables, 3);
  await w.finish({ categories: CATEGORIES, lineIDMaps: [] });
  const file = await Slog2File.open(new MemorySource('t.slog2', sink.bytes()));
  const written = [];
  for (const info of file.treeDir) for (const d of (await file.readNode(info)).drawables) written.push([d.earliest, d.latest]);
  assert.deepEqual(
    written.sort((a, b) => a[0]! - b[0]!),
    [
      [0, 0.5],
      [1, 1.5],
      [2, 2.5],
    ],
  );
});
