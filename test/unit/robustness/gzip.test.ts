// Issue 14 §6, §7: gzip bombs and corrupted gzip. The format is sniffed from the first bytes (no
// full unpacking of an unrecognised file), CLOG2 reading stops at ENDLOG (data behind it is never
// inflated), SLOG-2 stops at its header's extent, memory stays flat; every member's CRC-32 and ISIZE
// are checked (a mismatch is an error naming the file), trailing zero padding is tolerated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { gzipSync, createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ByteSource } from '../../../src/core/bytes/byteSource';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { writeHostileClog2 } from '../../../src/core/synth/hostileClog2';
import { gunzipChunks, gunzipSlog2ToMemory } from '../../../src/io/gzip';
import { fixture } from '../../helpers/paths';
import { cliPath, runCli } from '../cli/runCli';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-gzip-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

/** A ByteSource that counts the compressed bytes read. */
class Counting implements ByteSource {
  bytesRead = 0;
  constructor(private readonly inner: ByteSource) {}
  get name() {
    return this.inner.name;
  }
  get size() {
    return this.inner.size;
  }
  async read(o: number, n: number) {
    this.bytesRead += n;
    return this.inner.read(o, n);
  }
  close() {
    return this.inner.close();
  }
}

function infoJson(file: string): { status: number | null; info?: { drawables: { total: number } }; stderr: string } {
  const r = runCli(['info', '--json', file]);
  return { status: r.status, stderr: r.stderr, ...(r.status === 0 ? { info: JSON.parse(r.stdout) } : {}) };
}

test('an unrecognised .gz (zeros) is refused from its first bytes, not unpacked whole', async () => {
  // Not a trace: zeros, then 8 MB of incompressible bytes (so reading it all would show).
  const zeros = Buffer.concat([gzipSync(new Uint8Array(64 << 20), { level: 9 }), gzipSync(randomBytes(8 << 20), { level: 1 })]);
  const src = new Counting(new MemorySource('zeros.slog2.gz', zeros));
  assert.equal(await gunzipSlog2ToMemory(src, 1 << 30), undefined);
  assert.ok(src.bytesRead < zeros.length / 2, `read ${src.bytesRead} of ${zeros.length} compressed bytes`);
  // The CLI in a 1.2 GB address space: 300 MB of zeros used to be unpacked into memory first.
  const file = path.join(dir, 'zeros.slog2.gz');
  await pipeline(
    Readable.from(
      (function* () {
        const mb = new Uint8Array(1 << 20);
        for (let i = 0; i < 300; i++) yield mb;
      })(),
    ),
    createGzip({ level: 9 }),
    fs.createWriteStream(file),
  );
  const r = spawnSync('bash', ['-c', 'ulimit -v 1200000; exec "$0" "$@"', process.execPath, cliPath(), 'info', file], { encoding: 'utf8' });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /zeros\.slog2\.gz:0: unrecognised trace format/);
  // stats does not unpack a .clog2.gz into memory either (it streams): same bomb named .clog2.gz.
  const asClog = path.join(dir, 'zeros.clog2.gz');
  fs.copyFileSync(file, asClog);
  const s = spawnSync('bash', ['-c', 'ulimit -v 1200000; exec "$0" "$@"', process.execPath, cliPath(), 'stats', asClog], { encoding: 'utf8' });
  assert.equal(s.status, 2, s.stderr);
  assert.match(s.stderr, /zeros\.clog2\.gz/);
  assert.doesNotMatch(s.stderr, /allocation failed/);
});

test('a .gz SLOG-2 is inflated only up to its header extent (trailing zeros never unpacked)', async () => {
  const slog2 = fs.readFileSync(fixture('pi_bcast_4.slog2'));
  const gz = gzipSync(Buffer.concat([slog2, Buffer.alloc(32 << 20), randomBytes(8 << 20)]), { level: 1 });
  const src = new Counting(new MemorySource('pi.slog2.gz', gz));
  const mem = await gunzipSlog2ToMemory(src, 1 << 30);
  assert.equal(mem?.size, slog2.length);
  assert.ok(src.bytesRead < gz.length, `read ${src.bytesRead} of ${gz.length}`);
  const file = path.join(dir, 'pi.slog2.gz');
  fs.writeFileSync(file, gz);
  assert.equal(infoJson(file).info?.drawables.total, infoJson(fixture('pi_bcast_4.slog2')).info?.drawables.total);
});

test('CLOG2 reading stops at ENDLOG: 256 MB of zeros behind it are never inflated (bounded tail check)', async () => {
  const file = path.join(dir, 'tail.clog2.gz');
  const gz = createGzip({ level: 1 });
  const out = fs.createWriteStream(file);
  const done = pipeline(gz, out);
  await writeHostileClog2({ events: 100, times: 'equal', afterEndLog: 256 << 20 }, async (c) => {
    if (!gz.write(c)) await new Promise((r) => gz.once('drain', r));
  });
  gz.end();
  await done;
  const src = new Counting(new MemorySource(file, fs.readFileSync(file)));
  const { convertClog2 } = await import('../../../src/core/formats/clog2/convertClog2');
  const conv = convertClog2(gunzipChunks(src), { name: file });
  for await (const b of conv.batches) void b;
  assert.equal(conv.summary.drawables.total, 100);
  assert.ok(src.bytesRead < src.size / 4, `read ${src.bytesRead} of ${src.size} compressed bytes`);
  const r = infoJson(file);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.info?.drawables.total, 100);
});

test('corrupt gzip: CRC-32 and ISIZE mismatches are errors naming the file; zero padding and multiple members are fine', () => {
  const plain = fs.readFileSync(fixture('ring_p2p_4.clog2'));
  const want = infoJson(fixture('ring_p2p_4.clog2')).info!.drawables.total;
  const gz = gzipSync(plain);
  const write = (name: string, b: Uint8Array): string => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, b);
    return f;
  };
  const crc = Buffer.from(gz);
  crc[crc.length - 8] ^= 0x01;
  const isize = Buffer.from(gz);
  isize[isize.length - 3] ^= 0x01;
  for (const [name, bytes, what] of [
    ['crc.clog2.gz', crc, /CRC-32 mismatch/],
    ['isize.clog2.gz', isize, /ISIZE mismatch/],
  ] as const) {
    const f = write(name, bytes);
    const r = runCli(['info', f]);
    assert.equal(r.status, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, what);
    assert.ok(r.stderr.includes(f), `names the file: ${r.stderr}`);
    const c = runCli(['convert', f, '-o', path.join(dir, `${name}.slog2`)]);
    assert.equal(c.status, 2, c.stderr);
    assert.equal(fs.existsSync(path.join(dir, `${name}.slog2`)), false, 'nothing written from corrupt input');
  }
  // A flipped byte inside the compressed data: an error too (was: 127 of 290 drawables, exit 0).
  let flippedErrors = 0;
  for (const at of [200, 400, 800, Math.floor(gz.length / 2)]) {
    const bad = Buffer.from(gz);
    bad[at] ^= 0x10;
    const r = runCli(['info', write(`flip${at}.clog2.gz`, bad)]);
    if (r.status === 2 && /gzip/.test(r.stderr)) flippedErrors++;
  }
  assert.equal(flippedErrors, 4);
  // Zero padding after the last member (tapes, some copies), and two concatenated members.
  const padded = write('padded.clog2.gz', Buffer.concat([gz, Buffer.alloc(4096)]));
  assert.equal(infoJson(padded).info?.drawables.total, want);
  const half = plain.length >> 1;
  const multi = write('multi.clog2.gz', Buffer.concat([gzipSync(plain.subarray(0, half)), gzipSync(plain.subarray(half))]));
  assert.equal(infoJson(multi).info?.drawables.total, want);
});
