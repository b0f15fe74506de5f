/**
 * FileSink with several chunks queued: the file holds exactly the bytes written, in order, however
 * slowly the handle writes and however the writes are cut; a failed chunk fails the next call and
 * the chunks queued behind it are not written; parts written at once (writeSync) land in order too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open, type FileHandle } from 'node:fs/promises';
import { Prng } from '../../../src/core/synth/prng';
import { FileSink } from '../../../src/io/fileSink';

/** A handle writing into memory after a random delay, at most `most` bytes per call (short writes). */
function slowHandle(rng: Prng, failAtCall = -1): { handle: FileHandle; file: () => Uint8Array; calls: () => number; concurrent: () => number } {
  let bytes = new Uint8Array(0);
  let calls = 0;
  let active = 0;
  let peak = 0;
  const handle = {
    async write(buf: Uint8Array, offset: number, length: number, position: number) {
      const call = calls++;
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, rng.int(0, 2)));
      active--;
      if (call === failAtCall) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const n = Math.min(length, rng.int(1, 700));
      if (position + n > bytes.length) {
        const grown = new Uint8Array(position + n);
        grown.set(bytes);
        bytes = grown;
      }
      bytes.set(buf.subarray(offset, offset + n), position);
      return { bytesWritten: n, buffer: buf };
    },
  } as unknown as FileHandle;
  return { handle, file: () => bytes, calls: () => calls, concurrent: () => peak };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

test('queued chunks: the file is exactly the bytes written, one handle write at a time', async () => {
  for (const seed of [1, 2, 3]) {
    const rng = new Prng(seed);
    const h = slowHandle(rng);
    const sink = new FileSink(h.handle, 1000, rng.int(2, 5));
    const written: Uint8Array[] = [];
    for (let k = 0; k < 60; k++) {
      const part = Uint8Array.from({ length: rng.int(0, 2500) }, () => rng.int(0, 255));
      written.push(part.slice());
      await sink.write(part);
      part.fill(0); // the sink copied it: the caller may reuse its buffer at once
    }
    await sink.writeAt(3, Uint8Array.of(9, 8, 7));
    await sink.flush();
    const want = concat(written);
    want.set([9, 8, 7], 3);
    assert.equal(sink.size, want.length);
    assert.deepEqual(h.file().subarray(0, want.length), want, `seed ${seed}`);
    assert.ok(h.calls() > 60, 'short writes were resumed');
    assert.equal(h.concurrent(), 1, 'chunks are written one after another');
  }
});

test('a failed chunk: the next write or flush fails with it, the chunks queued behind it are not written', async () => {
  const rng = new Prng(9);
  const h = slowHandle(rng, 2);
  const sink = new FileSink(h.handle, 100, 4);
  let failed: unknown;
  try {
    for (let k = 0; k < 50; k++) await sink.write(new Uint8Array(100).fill(k));
    await sink.flush();
  } catch (e) {
    failed = e;
  }
  assert.match(String(failed), /ENOSPC/);
  await assert.rejects(sink.flush(), /ENOSPC/);
  const after = h.calls();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(h.calls(), after, 'nothing is written after the failure');
  assert.ok(h.file().length <= 300, `only what came before the failure is in the file (${h.file().length} bytes)`);
});

test('writeSync between queued writes: the file is exactly the bytes in the order given', async () => {
  // The writer hands a wide node's block over at once (outputBlocks.ts) while chunks written
  // behind are still in flight: each part must land at its own offset.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-sink-'));
  try {
    for (const seed of [4, 5, 6]) {
      const rng = new Prng(seed);
      const file = path.join(dir, `out-${seed}`);
      const handle = await open(file, 'w+');
      const sink = new FileSink(handle, 1000, 3);
      const written: Uint8Array[] = [];
      let syncs = 0;
      for (let k = 0; k < 80; k++) {
        const part = Uint8Array.from({ length: rng.int(0, 2500) }, () => rng.int(0, 255));
        written.push(part.slice());
        if (rng.int(0, 2) === 0) {
          sink.writeSync(part);
          syncs++;
        } else await sink.write(part);
        part.fill(0); // either way the caller may reuse its buffer at once
      }
      await sink.writeAt(5, Uint8Array.of(1, 2, 3));
      await sink.flush();
      await handle.close();
      const want = concat(written);
      want.set([1, 2, 3], 5);
      assert.ok(syncs > 10, `${syncs} parts written at once`);
      assert.equal(sink.size, want.length);
      assert.deepEqual(new Uint8Array(fs.readFileSync(file)), want, `seed ${seed}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
