// FileSource: reads through the LRU block cache equal the file's bytes, whatever the block size
// and wherever a read straddles block boundaries, read through the thread pool or on the thread;
// offsets beyond 4 GiB work in a sparse file; reads on the thread give the event loop turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FormatError } from '../../../src/core/bytes/formatError';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipToMemory, hasGzipMagic } from '../../../src/io/gzip';
import { fixture } from '../../helpers/paths';
import { Prng } from '../../../src/core/synth/prng';

/** Seeded (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}

test('reads straddling block-cache boundaries equal the bytes read directly (seeded random cache sizes)', async () => {
  const p = fixture('ring_p2p_4.slog2');
  const bytes = new Uint8Array(fs.readFileSync(p));
  const random = rng(20261121);
  for (let round = 0; round < 12; round++) {
    const blockBytes = 1 + Math.floor(random() * (round % 3 === 0 ? 64 : 9000));
    const maxBlocks = 1 + Math.floor(random() * 6);
    const src = await FileSource.open(p, { blockBytes, maxBlocks, onThread: round % 2 === 1 });
    assert.equal(src.size, bytes.length);
    for (let k = 0; k < 150; k++) {
      // Lengths around the block size so reads start/end on, just before and just after boundaries.
      const length = Math.min(bytes.length, Math.floor(random() * blockBytes * 3) + (random() < 0.1 ? 0 : 1));
      const boundary = Math.floor(random() * Math.ceil(bytes.length / blockBytes)) * blockBytes;
      const offset = Math.max(0, Math.min(bytes.length - length, boundary + Math.floor(random() * 5) - 2));
      const got = await src.read(offset, length);
      assert.equal(got.length, length);
      assert.ok(
        Buffer.from(got).equals(Buffer.from(bytes.subarray(offset, offset + length))),
        `block ${blockBytes} x${maxBlocks}: read ${length} at ${offset}`,
      );
    }
    await src.close();
  }
});

test('reads outside the file are FormatErrors naming file and offset', async () => {
  const src = await FileSource.open(fixture('pi_bcast_4.slog2'));
  await assert.rejects(src.read(src.size - 4, 8), (e: unknown) => e instanceof FormatError && e.offset === src.size - 4 && e.file.endsWith('pi_bcast_4.slog2'));
  await assert.rejects(src.read(-1, 2), FormatError);
  await src.close();
  await assert.rejects(src.read(0, 1), /read after close/);
});

test('offsets beyond 4 GiB in a sparse file', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'filesource-'));
  const p = path.join(dir, 'sparse.bin');
  try {
    const marks = [2 ** 32 - 3, 2 ** 32 + 65536 * 3 - 1, 5 * 2 ** 30 + 17];
    const fd = fs.openSync(p, 'w');
    try {
      for (const [i, at] of marks.entries()) fs.writeSync(fd, Buffer.from(`mark${i}:abcdefgh`), 0, 14, at);
    } catch (e) {
      t.skip(`sparse files unsupported: ${String(e)}`);
      return;
    } finally {
      fs.closeSync(fd);
    }
    const src = await FileSource.open(p, { blockBytes: 65536, maxBlocks: 4 });
    assert.equal(src.size, marks[2]! + 14);
    for (const [i, at] of marks.entries()) {
      assert.equal(Buffer.from(await src.read(at, 14)).toString('latin1'), `mark${i}:abcdefgh`);
      // A read straddling the mark's block boundary from the zero-filled hole.
      const before = await src.read(at - 5, 10);
      assert.deepEqual([...before], [0, 0, 0, 0, 0, ...Buffer.from('mark' + i).subarray(0, 5)]);
    }
    await src.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('gzip: magic detection and whole-file decompression with a size cap', async () => {
  const gz = await FileSource.open(fixture('bigrun_medium_4.slog2.gz'));
  assert.ok(await hasGzipMagic(gz));
  const mem = await gunzipToMemory(gz, 64 << 20);
  assert.equal(Buffer.from(await mem.read(2, 10)).toString('latin1'), 'SLOG 2.0.6');
  await assert.rejects(gunzipToMemory(gz, 1000), (e: unknown) => e instanceof FormatError && /exceeds 1000 bytes/.test(e.message));
  await gz.close();
  const plain = await FileSource.open(fixture('pi_bcast_4.slog2'));
  assert.equal(await hasGzipMagic(plain), false);
  await plain.close();
});

test('concurrent reads sharing and evicting blocks equal the bytes read directly', async () => {
  const p = fixture('ring_p2p_4.slog2');
  const bytes = new Uint8Array(fs.readFileSync(p));
  const random = rng(20261126);
  for (const [blockBytes, maxBlocks] of [
    [512, 1],
    [4096, 3],
    [97, 2],
  ] as const) {
    for (const onThread of [false, true]) {
      const src = await FileSource.open(p, { blockBytes, maxBlocks, onThread });
      const reads = Array.from({ length: 200 }, () => {
        const length = 1 + Math.floor(random() * blockBytes * 1.5);
        const offset = Math.floor(random() * (bytes.length - length));
        return { offset, length };
      });
      const got = await Promise.all(reads.map((r) => src.read(r.offset, r.length).then((b) => b.slice())));
      reads.forEach((r, i) =>
        assert.ok(
          Buffer.from(got[i]!).equals(Buffer.from(bytes.subarray(r.offset, r.offset + r.length))),
          `block ${blockBytes}${onThread ? ' on the thread' : ''}: read ${r.length} at ${r.offset}`,
        ),
      );
      await src.close();
    }
  }
});

test('reads on the thread give the event loop a turn (a cancel message is received mid-pass)', async () => {
  const src = await FileSource.open(fixture('ring_p2p_4.slog2'), { onThread: true });
  const target = new Uint8Array(Math.min(4096, src.size));
  let turned = false;
  setImmediate(() => (turned = true));
  // Each read completes at once: without the reader's own turns the loop below never lets the
  // immediate run and ends by its 2 s bound.
  const started = performance.now();
  let reads = 0;
  while (!turned && performance.now() - started < 2000) {
    await src.readInto(0, target);
    reads++;
  }
  const turnedWhileReading = turned; // closing the file turns the loop itself
  await src.close();
  assert.ok(turnedWhileReading, `no event-loop turn in ${reads} reads`);
});

test('a file cut short after it was opened: the error names the file and offset, read either way', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'filesource-'));
  const p = path.join(dir, 'cut.bin');
  try {
    for (const onThread of [false, true]) {
      fs.writeFileSync(p, Buffer.alloc(300_000, 7));
      const src = await FileSource.open(p, { onThread });
      fs.truncateSync(p, 200_000);
      await assert.rejects(
        src.read(150_000, 100_000),
        (e: unknown) => e instanceof Error && e.message === `${p}: unexpected end of file at 200000 (file changed on disk?)`,
      );
      await src.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
