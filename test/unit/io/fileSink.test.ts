/**
 * FileSink with several chunks queued: the file holds exactly the bytes written, in order, however
 * slowly the handle writes and however the writes are cut; a failed chunk fails the next call and
 * the chunks queued behind it are not written; parts written at once (writeSync) and parts handed
 * over uncopied (writeOwned) land in order too, the latter released once they are written; a queued
 * write hands the handle at most WRITE_BYTES a call, however big the chunk or the parts gathered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { open, type FileHandle } from 'node:fs/promises';
import { Prng } from '../../../src/core/synth/prng';
import { FileSink, WRITE_BYTES } from '../../../src/io/fileSink';

/**
 * A handle writing into memory after a random delay, at most ~700 bytes per call (short writes),
 * by write() or writev().
 */
function slowHandle(
  rng: Prng,
  failAtCall = -1,
): { handle: FileHandle; file: () => Uint8Array; calls: () => number; vectored: () => number; concurrent: () => number } {
  let bytes = new Uint8Array(0);
  let calls = 0;
  let vectored = 0;
  let active = 0;
  let peak = 0;
  const put = async (parts: readonly Uint8Array[], position: number): Promise<number> => {
    const call = calls++;
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, rng.int(0, 2)));
    active--;
    if (call === failAtCall) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const all = concat(parts);
    const n = Math.min(all.length, rng.int(1, 700));
    if (position + n > bytes.length) {
      const grown = new Uint8Array(position + n);
      grown.set(bytes);
      bytes = grown;
    }
    bytes.set(all.subarray(0, n), position);
    return n;
  };
  const handle = {
    async write(buf: Uint8Array, offset: number, length: number, position: number) {
      return { bytesWritten: await put([buf.subarray(offset, offset + length)], position), buffer: buf };
    },
    async writev(buffers: Uint8Array[], position: number) {
      vectored++;
      return { bytesWritten: await put(buffers, position), buffers };
    },
  } as unknown as FileHandle;
  return { handle, file: () => bytes, calls: () => calls, vectored: () => vectored, concurrent: () => peak };
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

test('buffers handed over (writeOwned): written uncopied in turn with copied bytes, each released once, when it is in the file', async () => {
  for (const seed of [11, 12, 13]) {
    const rng = new Prng(seed);
    const h = slowHandle(rng);
    const sink = new FileSink(h.handle, 1000, 3);
    const written: Uint8Array[] = [];
    let offset = 0;
    let owned = 0;
    let released = 0;
    for (let k = 0; k < 120; k++) {
      const part = Uint8Array.from({ length: rng.int(0, 900) }, () => rng.int(0, 255));
      const want = part.slice();
      written.push(want);
      const at = offset;
      offset += part.length;
      if (rng.int(0, 2) === 0) {
        await sink.write(part);
        part.fill(0);
        continue;
      }
      owned++;
      let once = false;
      await sink.writeOwned(part, () => {
        assert.ok(!once, `part ${k} released twice`);
        once = true;
        released++;
        assert.deepEqual(h.file().subarray(at, at + want.length), want, `part ${k} is in the file when released`);
        part.fill(0xee); // the owner takes it back: the sink must not read it any more
      });
    }
    await sink.flush();
    const want = concat(written);
    assert.equal(released, owned, 'every buffer handed over was released');
    assert.equal(sink.size, want.length);
    assert.deepEqual(h.file().subarray(0, want.length), want, `seed ${seed}`);
    assert.ok(h.vectored() > 0, 'buffers handed over were gathered into vectored writes');
    assert.equal(h.concurrent(), 1, 'one handle write at a time');
  }
});

test('a failed write of buffers handed over: they are released all the same, the next call fails', async () => {
  const rng = new Prng(21);
  const h = slowHandle(rng, 1);
  const sink = new FileSink(h.handle, 100, 3);
  let released = 0;
  let failed: unknown;
  try {
    for (let k = 0; k < 40; k++) await sink.writeOwned(new Uint8Array(60).fill(k), () => released++);
    await sink.flush();
  } catch (e) {
    failed = e;
  }
  assert.match(String(failed), /ENOSPC/);
  await assert.rejects(
    sink.writeOwned(new Uint8Array(10), () => released++),
    /ENOSPC/,
  );
  await assert.rejects(sink.flush(), /ENOSPC/);
  await sink.discard();
  assert.ok(released > 2, `${released} released`);
  // every buffer the sink took was given back: written, failed, refused or discarded
  let taken = 0;
  const s2 = new FileSink(slowHandle(new Prng(3)).handle, 1000, 3);
  await s2.writeOwned(new Uint8Array(10), () => taken++);
  await s2.writeOwned(new Uint8Array(10), () => taken++);
  await s2.discard();
  assert.equal(taken, 2, 'buffers still gathered are released when the file is abandoned');
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
      let owned = 0;
      let released = 0;
      for (let k = 0; k < 80; k++) {
        const part = Uint8Array.from({ length: rng.int(0, 2500) }, () => rng.int(0, 255));
        written.push(part.slice());
        const how = rng.int(0, 2);
        if (how === 0) {
          sink.writeSync(part);
          syncs++;
        } else if (how === 1) await sink.write(part);
        else {
          // handed over: the caller takes it back when released (and must find it written)
          owned++;
          await sink.writeOwned(part, () => {
            released++;
            part.fill(0);
          });
          continue;
        }
        part.fill(0); // either way the caller may reuse its buffer at once
      }
      await sink.writeAt(5, Uint8Array.of(1, 2, 3));
      await sink.flush();
      await handle.close();
      const want = concat(written);
      want.set([1, 2, 3], 5);
      assert.ok(syncs > 10, `${syncs} parts written at once`);
      assert.ok(owned > 10 && released === owned, `${owned} parts handed over, ${released} released`);
      assert.equal(sink.size, want.length);
      assert.deepEqual(new Uint8Array(fs.readFileSync(file)), want, `seed ${seed}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('queued writes go to the handle in calls of at most WRITE_BYTES, a part cut where a call ends', async () => {
  let bytes = new Uint8Array(0);
  const sizes: number[] = [];
  const put = (parts: readonly Uint8Array[], position: number): number => {
    const all = concat(parts);
    sizes.push(all.length);
    if (position + all.length > bytes.length) {
      const grown = new Uint8Array(position + all.length);
      grown.set(bytes);
      bytes = grown;
    }
    bytes.set(all, position);
    return all.length;
  };
  const handle = {
    async write(buf: Uint8Array, offset: number, length: number, position: number) {
      return { bytesWritten: put([buf.subarray(offset, offset + length)], position), buffer: buf };
    },
    async writev(buffers: Uint8Array[], position: number) {
      return { bytesWritten: put(buffers, position), buffers };
    },
  } as unknown as FileHandle;
  const rng = new Prng(21);
  // 4 MiB chunks as in a conversion, parts handed over of 0.7–1.3 MiB and one of 3 MiB, copied bytes between
  const sink = new FileSink(handle, 4 << 20, 3);
  const written: Uint8Array[] = [];
  for (let k = 0; k < 14; k++) {
    const n = k === 5 ? 3 << 20 : rng.int(700_000, 1_300_000);
    const part = Uint8Array.from({ length: n }, (_, i) => (i * 7 + k) & 255);
    written.push(part.slice());
    if (k % 4 === 3) await sink.write(part);
    else await sink.writeOwned(part, () => undefined);
  }
  await sink.flush();
  const want = concat(written);
  assert.deepEqual(bytes.subarray(0, want.length), want);
  assert.equal(bytes.length, want.length);
  assert.ok(sizes.length >= Math.ceil(want.length / WRITE_BYTES), `${sizes.length} calls`);
  assert.ok(
    sizes.every((n) => n <= WRITE_BYTES),
    `calls of ${Math.max(...sizes)} bytes`,
  );
  assert.ok(sizes.filter((n) => n === WRITE_BYTES).length > sizes.length / 2, 'calls of a whole WRITE_BYTES where the bytes allow');
});
