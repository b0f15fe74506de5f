// The writer's shadow spill as a file (io/shadowSpillFile.ts): what is written reads back the
// same, space freed from the end is used again (spills nest), nothing is left on disk, and a read
// past what is there names the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SinkWriteError } from '../../../src/io/fileSink';
import { ShadowSpillFile } from '../../../src/io/shadowSpillFile';

function bytes(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255);
}

test('spilled parts read back the same; nested frees reuse the space; the file is gone after close', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-spill-'));
  try {
    const spill = new ShadowSpillFile(path.join(dir, 'out.slog2'));
    const a = [bytes(1000, 1), bytes(3, 2), bytes(70_000, 3)];
    const at = spill.write(a);
    const b = [bytes(5000, 4)];
    const bt = spill.write(b);
    assert.equal(at, 0);
    assert.equal(bt, 71_003);
    // Read back piece by piece, as restoreColumns does.
    let p = at;
    for (const part of a) {
      const into = new Uint8Array(part.length);
      spill.read(p, into);
      assert.deepEqual(into, part);
      p += part.length;
    }
    const into = new Uint8Array(5000);
    spill.read(bt, into);
    assert.deepEqual(into, b[0]);
    // Made next to the output, and unlinked at once (POSIX): nothing to find in the directory.
    if (process.platform !== 'win32') assert.deepEqual(fs.readdirSync(dir), [], 'the spill file is unlinked while open');
    // The inner one freed first (nesting), then the outer: the next write starts at 0 again.
    spill.free(bt);
    spill.free(at);
    assert.equal(spill.write([bytes(10, 5)]), 0, 'freed from the end: space reused');
    assert.equal(spill.highWater, 76_003);
    // An outer region freed before an inner one keeps its space until the inner goes.
    const c = spill.write([bytes(100, 6)]);
    spill.free(0);
    assert.equal(spill.write([bytes(1, 7)]), c + 100, 'a hole below a live region is not reused');
    // The file is as long as the most it held: a read past that names the file and the shortfall.
    assert.throws(
      () => spill.read(76_000, new Uint8Array(50)),
      (e: Error) => e.message.includes(spill.path) && /spilled shadows end at byte 76003, 47 bytes short/.test(e.message),
    );
    spill.close();
    spill.close();
    assert.deepEqual(fs.readdirSync(dir), [], 'closed: nothing left');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a spill that cannot be written fails as the output does (a SinkWriteError with its code)', () => {
  const spill = new ShadowSpillFile(path.join(os.tmpdir(), 'mpe-no-such-dir', 'deeper', 'out.slog2'));
  assert.throws(
    () => spill.write([bytes(10, 1)]),
    (e: Error) => e instanceof SinkWriteError && e.code === 'ENOENT',
  );
  spill.close();
});

test('a spill that was never written makes no file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-spill-'));
  try {
    const spill = new ShadowSpillFile(path.join(dir, 'out.slog2'));
    assert.throws(() => spill.read(0, new Uint8Array(1)), /before any were written/);
    spill.close();
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
