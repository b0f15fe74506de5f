// How the writer bounds its memory on wide traces (issue 21): finished shadow buffers wait for
// their parent in a spill, closing nodes pause for the output to drain, big blocks are encoded
// in parts, the next buffer at a depth starts small. None of it may change a byte: each is forced
// here at tiny sizes and the file compared with the plain writer's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Drawable } from '../../../src/core/model/types';
import { DrawableBatchEncoder } from '../../../src/core/formats/slog2/writer/drawableBatchEncoder';
import { batchBuffers, type DrawableBatch } from '../../../src/core/formats/slog2/writer/drawableBatch';
import { NodeDrawables } from '../../../src/core/formats/slog2/writer/nodeDrawables';
import { OUTPUT_CHUNK_BYTES } from '../../../src/core/formats/slog2/writer/outputBlocks';
import type { ShadowSpill } from '../../../src/core/formats/slog2/writer/shadowSpill';
import { MemorySink, Slog2Writer, type Slog2WriterOptions } from '../../../src/core/formats/slog2/writer';
import { CATEGORIES, syntheticTrace, topologyOf } from './synthetic';

/** A spill in memory that checks its use: reads only of stored bytes, each write freed once. */
class MemorySpill implements ShadowSpill {
  private bytes = new Uint8Array(1 << 12);
  private end = 0;
  readonly live = new Map<number, number>();
  writes = 0;
  reads = 0;
  mostLive = 0;

  write(parts: readonly Uint8Array[]): number {
    const position = this.end;
    let n = 0;
    for (const p of parts) n += p.length;
    if (position + n > this.bytes.length) {
      const next = new Uint8Array(Math.max(2 * this.bytes.length, position + n));
      next.set(this.bytes);
      this.bytes = next;
    }
    for (const p of parts) {
      this.bytes.set(p, this.end);
      this.end += p.length;
    }
    this.live.set(position, n);
    this.mostLive = Math.max(this.mostLive, this.live.size);
    this.writes++;
    return position;
  }

  read(position: number, into: Uint8Array): void {
    const region = [...this.live].find(([at, n]) => position >= at && position + into.length <= at + n);
    assert.ok(region !== undefined, `read of ${into.length} bytes at ${position}: not stored, or freed`);
    into.set(this.bytes.subarray(position, position + into.length));
    this.reads++;
  }

  free(position: number): void {
    assert.ok(this.live.delete(position), `free of ${position}: not stored, or freed twice`);
  }
}

function* batchesOf(drawables: readonly Drawable[]): Generator<DrawableBatch> {
  const encoder = new DrawableBatchEncoder(topologyOf);
  for (const d of drawables) {
    encoder.add(d);
    for (let b = encoder.takeReady(); b !== undefined; b = encoder.takeReady()) yield b;
  }
  encoder.flush();
  for (let b = encoder.takeReady(); b !== undefined; b = encoder.takeReady()) yield b;
}

async function plainFile(drawables: readonly Drawable[], options: Slog2WriterOptions, trailer: Parameters<Slog2Writer['finish']>[0]): Promise<Uint8Array> {
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, options);
  for (const d of drawables) w.add(d);
  await w.finish(trailer);
  return sink.bytes();
}

for (const [children, leafBytes] of [
  [2, 300],
  [3, 700],
  [2, 4000],
  [2, 64],
] as const) {
  test(`fan-out ${children}, leaves of ${leafBytes} bytes: spilled buffers, paused switches and blocks in parts write the same bytes`, async () => {
    const { drawables, maps } = syntheticTrace(9, 80);
    const trailer = { categories: CATEGORIES, lineIDMaps: maps };
    const base = { childrenPerNode: children, leafBytes, topologyOf };
    const expected = await plainFile(drawables, base, trailer);

    for (const partBytes of [1, 64, 1 << 20]) {
      const spill = new MemorySpill();
      const sink = new MemorySink();
      const w = new Slog2Writer(sink, { ...base, shadowSpill: spill, memory: { spillMinBytes: 0, pauseBytes: 1, partBytes } });
      let pauses = 0;
      for (const b of batchesOf(drawables)) {
        for (let at = w.addBatchFrom(b, 0); at < b.count || w.switchPaused; at = w.addBatchFrom(b, at)) {
          if (++pauses > 100_000) assert.fail('a switch that pauses for ever');
          await w.drain();
        }
      }
      await w.finish(trailer);
      const bytes = sink.bytes();
      assert.ok(spill.writes > 5 && spill.reads > 5, `the spill was used (${spill.writes} writes, ${spill.reads} reads)`);
      assert.ok(spill.mostLive >= 2, 'buffers of several depths waited in the spill at once');
      assert.equal(spill.live.size, 0, 'every spilled buffer was read back and freed');
      assert.ok(pauses > 5, `switches paused (${pauses} times)`);
      assert.equal(bytes.length, expected.length, `parts of ${partBytes} bytes: same length`);
      assert.ok(Buffer.from(bytes).equals(Buffer.from(expected)), `parts of ${partBytes} bytes: same bytes`);
    }
  });
}

test('snapshots taken while buffers wait in the spill are the ones taken without it', async () => {
  const { drawables, maps } = syntheticTrace(7, 50);
  const trailer = { categories: CATEGORIES, lineIDMaps: maps };
  const base = { childrenPerNode: 2, leafBytes: 350, topologyOf };
  const spill = new MemorySpill();
  const plain = new Slog2Writer(new MemorySink(), base);
  const spilled = new Slog2Writer(new MemorySink(), { ...base, shadowSpill: spill, memory: { spillMinBytes: 0 } });
  let compared = 0;
  for (let i = 0; i < drawables.length; i++) {
    plain.add(drawables[i]!);
    spilled.add(drawables[i]!);
    if (i % 97 !== 96) continue;
    // Drained first: a snapshot places what the encoder holds, which may close (and spill) nodes.
    await plain.drain();
    await spilled.drain();
    const a = (await plain.snapshot(trailer))!;
    const liveBefore = spill.live.size;
    const b = (await spilled.snapshot(trailer))!;
    assert.equal(spill.live.size, liveBefore, 'a snapshot reads spilled buffers and leaves them spilled');
    assert.equal(b.base, a.base);
    assert.ok(Buffer.from(b.header).equals(Buffer.from(a.header)), `snapshot after ${i + 1}: same header`);
    assert.ok(Buffer.from(b.tail).equals(Buffer.from(a.tail)), `snapshot after ${i + 1}: same open nodes and tables`);
    compared++;
  }
  assert.ok(compared >= 3 && spill.writes > 0, `${compared} snapshots compared, ${spill.writes} buffers spilled`);
});

test('a paused switch is finished before anything else: finish() and snapshot() refuse it', async () => {
  const { drawables, maps } = syntheticTrace(4, 30);
  const trailer = { categories: CATEGORIES, lineIDMaps: maps };
  const w = new Slog2Writer(new MemorySink(), { childrenPerNode: 2, leafBytes: 300, topologyOf, memory: { pauseBytes: 1 } });
  const [batch] = [...batchesOf(drawables)];
  const at = w.addBatchFrom(batch!, 0);
  assert.ok(at < batch!.count && w.switchPaused, 'the first switch pauses (the placeholder header waits for the sink)');
  await assert.rejects(w.finish(trailer), /finish\(\) before addBatchFrom\(\) placed its batch/);
  await assert.rejects(w.snapshot(trailer), /snapshot\(\) before addBatchFrom\(\) placed its batch/);
  assert.throws(() => new Slog2Writer(new MemorySink(), { topologyOf, memory: { partBytes: 0 } }), /memory limits must be positive/);
});

test('a trunk node whose columns grew past 1 MiB lets them go when written; a small one keeps its own', () => {
  // On a wide trace each depth's node holds tens of thousands of states now and then and few most
  // of the time: kept, every depth's largest columns stayed allocated (16 384 ranks: ~45 MB).
  const { drawables } = syntheticTrace(9, 80);
  const [batch] = [...batchesOf(drawables)];
  const bytesOf = (n: NodeDrawables): number => batchBuffers(n.columns).reduce((sum, b) => sum + b.byteLength, 0);
  const node = new NodeDrawables();
  node.addRange(batch!, 0, 40);
  const small = node.columns;
  node.clear();
  assert.equal(node.columns, small, 'a small node keeps its columns for the next one');
  assert.equal(node.count, 0);
  while (bytesOf(node) <= 1 << 20) node.addRange(batch!, 0, batch!.count);
  const grown = bytesOf(node);
  node.clear();
  assert.equal(node.count, 0);
  assert.ok(bytesOf(node) < grown / 8, `columns of ${grown} bytes let go (now ${bytesOf(node)})`);
  node.addRange(batch!, 0, 10);
  assert.equal(node.count, 10, 'the fresh columns take entries');
});

/** MemorySink that also takes bytes at once, counting the bytes that came each way. */
class SyncMemorySink extends MemorySink {
  syncBytes = 0;
  queuedBytes = 0;
  override async write(bytes: Uint8Array): Promise<void> {
    this.queuedBytes += bytes.length;
    return super.write(bytes);
  }
  writeSync(bytes: Uint8Array): void {
    this.syncBytes += bytes.length;
    void super.write(bytes); // MemorySink's write completes synchronously
  }
}

test('a sink that writes at once takes queued blocks past writeNowBytes: same bytes, little waits for the drains', async () => {
  // ~4 MB of output and no drain until the end (pauseBytes huge): without writeSync all of it
  // waits in the queue; with it, what is below writeNowBytes and the 1 MiB chunk being filled.
  const { drawables, maps } = syntheticTrace(9, 2800);
  const trailer = { categories: CATEGORIES, lineIDMaps: maps };
  const base = { childrenPerNode: 2, leafBytes: 1 << 16, topologyOf };
  const expected = await plainFile(drawables, base, trailer);
  // Blocks encoded in parts (without onNode) and whole (with it, as the row index asks).
  for (const onNode of [undefined, () => {}]) {
    for (const writeNowBytes of [1, 1 << 20]) {
      const sink = new SyncMemorySink();
      const w = new Slog2Writer(sink, { ...base, onNode, memory: { writeNowBytes, pauseBytes: 1 << 30 } });
      for (const d of drawables) w.add(d);
      await w.finish(trailer);
      const bytes = sink.bytes();
      const name = `writeNowBytes ${writeNowBytes}, onNode ${onNode !== undefined}`;
      assert.ok(Buffer.from(bytes).equals(Buffer.from(expected)), `${name}: same bytes`);
      // The last drain takes what is left: below writeNowBytes, plus the chunk being filled.
      assert.ok(sink.queuedBytes <= writeNowBytes + OUTPUT_CHUNK_BYTES, `${name}: ${sink.queuedBytes} bytes waited for a drain`);
      assert.equal(sink.syncBytes + sink.queuedBytes, bytes.length, `${name}: every byte came once`);
    }
  }
});

/**
 * A MemorySink that takes buffers uncopied (writeOwned) and reads them late: each is copied into
 * the file only when `lag` more have come after it (or at a flush, a copied write or the header),
 * then released. A chunk the writer encoded into again before its release shows in the bytes.
 */
class LateOwnedSink extends MemorySink {
  private readonly held: { bytes: Uint8Array; copy: Uint8Array; release: () => void }[] = [];
  owned = 0;
  constructor(private readonly lag: number) {
    super();
  }
  async writeOwned(bytes: Uint8Array, release: () => void): Promise<void> {
    this.owned++;
    this.held.push({ bytes, copy: bytes.slice(), release });
    while (this.held.length > this.lag) await this.settleOne();
  }
  override async write(bytes: Uint8Array): Promise<void> {
    await this.settle();
    return super.write(bytes);
  }
  override async writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    await this.settle();
    return super.writeAt(offset, bytes);
  }
  async flush(): Promise<void> {
    await this.settle();
  }
  private async settle(): Promise<void> {
    while (this.held.length > 0) await this.settleOne();
  }
  private async settleOne(): Promise<void> {
    const h = this.held.shift()!;
    assert.ok(Buffer.from(h.bytes).equals(Buffer.from(h.copy)), 'a buffer handed over was not written to again before its release');
    await super.write(h.bytes);
    h.release();
  }
}

test('a sink that takes the output chunks uncopied and writes them late: same bytes, chunks reused only once released', async () => {
  const { drawables, maps } = syntheticTrace(9, 2800);
  const trailer = { categories: CATEGORIES, lineIDMaps: maps };
  const base = { childrenPerNode: 2, leafBytes: 1 << 14, topologyOf };
  const expected = await plainFile(drawables, base, trailer);
  for (const lag of [1, 3, 40]) {
    const sink = new LateOwnedSink(lag);
    const w = new Slog2Writer(sink, base);
    let k = 0;
    for (const d of drawables) {
      w.add(d);
      // drains between batches as writeConversion's, a snapshot now and then
      if (++k % 5000 === 0) await w.drain();
      if (k % 40_000 === 0) await w.snapshot(trailer);
    }
    await w.finish(trailer);
    assert.ok(sink.owned > 3, `lag ${lag}: ${sink.owned} buffers handed over`);
    assert.ok(Buffer.from(sink.bytes()).equals(Buffer.from(expected)), `lag ${lag}: same bytes`);
  }
});
