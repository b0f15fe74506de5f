/**
 * The structure-aware "shapes" target (issue 14): inputs the byte mutators do not make, generated
 * from the case's Prng — valid CLOG2 files whose event times are equal, NaN/±∞, descending or mixed
 * at scale; gzip members with a bad CRC-32 or ISIZE (also as the first of several members); zero
 * padding after the last member; megabytes of data after ENDLOG. Invariants: every finite-time
 * record becomes a drawable and the bad ones are counted (n + badTimes = events), no drawable has a
 * non-finite time, corrupt gzip is always refused (FormatError), padding is accepted, and reading
 * stops at ENDLOG (the compressed tail is not read).
 */
import { gzipSync } from 'node:zlib';
import type { ByteChunks, ByteSource } from '../../src/core/bytes/byteSource';
import { isFormatError } from '../../src/core/bytes/formatError';
import { MemorySource } from '../../src/core/bytes/memorySource';
import { convertClog2 } from '../../src/core/formats/clog2/convertClog2';
import { hostileClog2Bytes, type TimeShape } from '../../src/core/synth/hostileClog2';
import type { Prng } from '../../src/core/synth/prng';
import { gunzipChunks } from '../../src/io/gzip';

export class ShapeInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvariantError';
  }
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new ShapeInvariantError(message);
}

class CountingSource implements ByteSource {
  bytesRead = 0;
  constructor(private readonly inner: MemorySource) {}
  get name(): string {
    return this.inner.name;
  }
  get size(): number {
    return this.inner.size;
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    this.bytesRead += length;
    return this.inner.read(offset, length);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

async function* chunked(bytes: Uint8Array, size: number): ByteChunks {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function convertAll(chunks: ByteChunks): Promise<{ n: number; badTimes: number }> {
  const conv = convertClog2(chunks, { name: 'shape.clog2' });
  let n = 0;
  for await (const batch of conv.batches) {
    for (const p of batch) {
      n++;
      if (!Number.isFinite(p.earliest) || !Number.isFinite(p.latest))
        throw new ShapeInvariantError(`drawable with a non-finite time ${p.earliest}..${p.latest}`);
    }
  }
  check(conv.summary.drawables.total === n, `summary says ${conv.summary.drawables.total} drawables, the stream had ${n}`);
  return { n, badTimes: conv.summary.unmatched.badTimes };
}

const SHAPES: readonly TimeShape[] = ['equal', 'nan', 'infinite', 'descending', 'mixed'];
type Kind = 'times' | 'bad-crc' | 'bad-isize' | 'padding' | 'after-endlog';

export async function shapesTarget(rng: Prng): Promise<string> {
  const kind = rng.pick<Kind>(['times', 'times', 'bad-crc', 'bad-isize', 'padding', 'after-endlog']);
  const times = rng.pick(SHAPES);
  if (kind === 'times') {
    const events = rng.pick([1, 1000, 20_000, 100_000]);
    const plain = await hostileClog2Bytes({ events, times, categories: rng.pick([1, 3, 500]) });
    const gz = rng.next() < 0.5;
    const chunks = gz
      ? gunzipChunks(new MemorySource('shape.clog2.gz', gzipSync(plain, { level: 1 })))
      : chunked(plain, rng.pick([24, 4096, 65536, plain.length]));
    const r = await convertAll(chunks);
    check(r.n + r.badTimes === events, `${times} ×${events}: ${r.n} drawables + ${r.badTimes} bad times ≠ ${events} events`);
    return `${times} times ×${events}${gz ? ' (gzip)' : ''}`;
  }
  const plain = await hostileClog2Bytes({ events: 2000, times });
  const expected = (await convertAll(chunked(plain, plain.length))).n;
  const members = rng.next() < 0.5 ? [plain] : [plain.subarray(0, plain.length >> 1), plain.subarray(plain.length >> 1)];
  const gzMembers = members.map((m) => new Uint8Array(gzipSync(m, { level: 1 })));
  if (kind === 'bad-crc' || kind === 'bad-isize') {
    const which = rng.int(0, gzMembers.length - 1);
    const m = gzMembers[which]!;
    m[m.length - (kind === 'bad-crc' ? 8 : 4) + rng.int(0, 3)] ^= 1 << rng.int(0, 7);
    const all = concat(gzMembers);
    try {
      await convertAll(gunzipChunks(new MemorySource('bad.clog2.gz', all)));
    } catch (e) {
      check(isFormatError(e), `corrupt gzip ended in ${String(e)}, not a FormatError`);
      return `${kind} in member ${which + 1}/${gzMembers.length}: refused`;
    }
    throw new ShapeInvariantError(`${kind} in member ${which + 1} of ${gzMembers.length} was accepted`);
  }
  if (kind === 'padding') {
    const pad = rng.pick([1, 8, 512, 8192]);
    const all = concat([...gzMembers, new Uint8Array(pad)]);
    const r = await convertAll(gunzipChunks(new MemorySource('padded.clog2.gz', all)));
    check(r.n === expected, `zero padding of ${pad} bytes changed the result: ${r.n} ≠ ${expected}`);
    return `padding ${pad} bytes after ${gzMembers.length} member(s)`;
  }
  // Data after ENDLOG: zeros, compressed at level 1 (so reading it would show in the byte count).
  const tail = rng.pick([1 << 20, 32 << 20]);
  const withTail = await hostileClog2Bytes({ events: 2000, times, afterEndLog: tail });
  const src = new CountingSource(new MemorySource('tail.clog2.gz', gzipSync(withTail, { level: 1 })));
  let inflated = 0;
  const counted = async function* (): ByteChunks {
    for await (const c of gunzipChunks(src)) {
      inflated += c.length;
      yield c;
    }
  };
  const r = await convertAll(counted());
  check(r.n === expected, `data after ENDLOG changed the result: ${r.n} ≠ ${expected}`);
  const used = withTail.length - tail;
  check(inflated <= used + (4 << 20), `${inflated} bytes inflated for ${used} bytes of log: reading did not stop at ENDLOG`);
  return `${tail >> 20} MiB after ENDLOG`;
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
