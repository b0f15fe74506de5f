// The writer's output chunks: blocks reach the sink in file order, and the chunks a sink holds
// (writeOwned) are reused once it releases them — as many as a file sink and the queue hold out at
// once on the bench's inputs (19–22), so a conversion does not page-fault fresh chunks in for ever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OUTPUT_CHUNK_BYTES, OutputBlocks } from '../../../src/core/formats/slog2/writer/outputBlocks';
import type { OutputSink } from '../../../src/core/formats/slog2/writer/sink';

/** A sink that keeps what it is handed (in order) and releases owned chunks only when told. */
class HoldingSink implements OutputSink {
  readonly blocks: Uint8Array[] = [];
  private readonly held: (() => void)[] = [];

  async write(bytes: Uint8Array): Promise<void> {
    this.blocks.push(bytes.slice());
  }
  async writeAt(): Promise<void> {}
  async writeOwned(bytes: Uint8Array, release: () => void): Promise<void> {
    this.blocks.push(bytes.slice());
    this.held.push(release);
  }
  releaseAll(): void {
    for (const release of this.held.splice(0)) release();
  }
}

/** Fills `n` whole chunks, chunk k with the byte `first + k`; returns the buffers they went into. */
function fillChunks(out: OutputBlocks, n: number, first: number): ArrayBufferLike[] {
  const buffers: ArrayBufferLike[] = [];
  for (let k = 0; k < n; k++) {
    const w = out.reserve(OUTPUT_CHUNK_BYTES);
    w.bytes.fill((first + k) & 255);
    w.pos = OUTPUT_CHUNK_BYTES;
    buffers.push(w.bytes.buffer);
  }
  return buffers;
}

test('chunks a sink held are reused once released, 22 at once as well as a few', async () => {
  for (const outAtOnce of [3, 22]) {
    const sink = new HoldingSink();
    const out = new OutputBlocks(sink, new Uint8Array([1, 2, 3]));
    const first = fillChunks(out, outAtOnce, 10);
    await out.drain();
    sink.releaseAll();
    const second = fillChunks(out, outAtOnce, 100);
    await out.drain();
    // all but the second round's first: the drain had taken a new current chunk while the sink
    // still held every other one (so a fresh one)
    const reused = second.filter((b) => first.includes(b)).length;
    assert.equal(reused, outAtOnce - 1, `${outAtOnce} chunks out at once: ${reused} reused`);
    // in file order, each block as written
    assert.deepEqual(Array.from(sink.blocks[0]!), [1, 2, 3]);
    const fills = sink.blocks.slice(1).map((b) => {
      assert.equal(b.length, OUTPUT_CHUNK_BYTES);
      assert.ok(b.every((x) => x === b[0]));
      return b[0];
    });
    const expected = [...Array.from({ length: outAtOnce }, (_, k) => (10 + k) & 255), ...Array.from({ length: outAtOnce }, (_, k) => (100 + k) & 255)];
    assert.deepEqual(fills, expected);
    assert.equal(out.offset, 3 + 2 * outAtOnce * OUTPUT_CHUNK_BYTES);
  }
});
