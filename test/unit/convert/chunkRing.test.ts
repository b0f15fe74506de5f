// A CLOG2's chunks are read into a ring of buffers (conversionInput.ts: CLOG2_CHUNK_RING): chunk
// k goes into chunk k − 3's buffer while chunk k − 1 is parsed. The conversion must equal the one
// from fresh chunks, with records cut at every chunk's end, read from a file (reads in the thread
// pool, as the converter's) and from memory (reads at once, where a ring too small breaks).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { chunksOf, MemorySource } from '../../../src/core/bytes/memorySource';
import type { ByteSource } from '../../../src/core/bytes/byteSource';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { CLOG2_CHUNK_RING, clog2Chunks } from '../../../src/convert/conversionInput';
import { FileSource } from '../../../src/io/fileSource';
import { synthToMemory } from '../synth/synthUtil';

/** Not a multiple of any record size: records are cut at chunk ends all along the file. */
const ODD_CHUNK = 4099;

async function drawablesOf(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  try {
    const { drawables, summary } = await collectConversion(convertClog2(chunks, { name: 'ring.clog2' }));
    return JSON.stringify({ drawables, warnings: summary.warnings, unmatched: summary.unmatched });
  } catch (e) {
    return `failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** chunksOf with a ring of `ring` buffers, one chunk read ahead (as clog2Chunks, any ring). */
async function* ringChunks(source: ByteSource, ring: number): AsyncGenerator<Uint8Array> {
  const it = chunksOf(source, ODD_CHUNK, 0, { ring });
  let next = it.next();
  for (;;) {
    const r = await next;
    if (r.done) return;
    next = it.next();
    yield r.value;
  }
}

test('a CLOG2 read through the chunk ring converts as from fresh chunks (file and memory), and a ring one shorter does not', async () => {
  const { bytes } = await synthToMemory({ ranks: 4, bytes: 600_000, srcloc: true, subComms: true, seed: 9 });
  const expected = await drawablesOf(chunksOf(new MemorySource('ring.clog2', bytes), 1 << 16));
  assert.ok(!expected.startsWith('failed') && expected.length > 100_000, expected.slice(0, 200));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-ring-'));
  const file = path.join(dir, 'ring.clog2');
  fs.writeFileSync(file, bytes);
  const source = await FileSource.open(file);
  try {
    assert.equal(await drawablesOf(clog2Chunks(source, ODD_CHUNK)), expected, 'from the file through clog2Chunks');
  } finally {
    await source.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const memory = new MemorySource('ring.clog2', bytes);
  assert.equal(await drawablesOf(ringChunks(memory, CLOG2_CHUNK_RING)), expected, 'from memory, the same ring');
  // the ring's size is the least that holds: one less and a cut record's bytes are overwritten
  assert.notEqual(await drawablesOf(ringChunks(memory, CLOG2_CHUNK_RING - 1)), expected, 'a ring of 2 must break');
});

test("chunksOf reads chunk k into chunk k − ring's buffer once recycling is on, and a buffer of its own before", async () => {
  const bytes = Uint8Array.from({ length: 10 * 100 + 7 }, (_, i) => i & 255);
  const recycling = { ring: 0 };
  const seen: Uint8Array[] = [];
  let k = 0;
  for await (const c of chunksOf(new MemorySource('b', bytes), 100, 0, recycling)) {
    assert.deepEqual([...c], [...bytes.subarray(k * 100, k * 100 + c.length)], `chunk ${k}'s bytes`);
    seen.push(c);
    if (++k === 2) recycling.ring = 3;
  }
  assert.equal(seen.length, 11);
  const buffers = seen.map((c) => c.buffer);
  assert.equal(new Set(buffers.slice(0, 2)).size, 2, 'fresh before recycling');
  assert.equal(buffers[5], buffers[2], "chunk 5 in chunk 2's buffer");
  assert.equal(buffers[6], buffers[3]);
  assert.equal(buffers[9], buffers[3]);
  assert.notEqual(buffers[10], buffers[7], 'the last, shorter chunk gets its own');
  assert.equal(new Set(buffers.slice(2, 10)).size, 3, 'three buffers in turn');
});
