/**
 * Gzip input (node:zlib). Streaming decompression for the sequential CLOG readers; bounded
 * whole-file decompression into memory for gzip'd SLOG-2 files, which need random access.
 *
 * Hostile inputs (issue 14): compressed input is fed in small slices and output is pulled with
 * back-pressure, so memory stays flat whatever the ratio (deflate expands at most ~1032:1); the
 * CRC-32 and ISIZE of every member are checked (a mismatch is a FormatError naming the compressed
 * offset); concatenated members are read; trailing zero padding after the last member is tolerated
 * as `gzip -d` does; a stream cut short ends like a truncated file (the reader reports it).
 */
import { Readable } from 'node:stream';
import { createGunzip, type Gunzip } from 'node:zlib';
import type { ByteChunks, ByteSource } from '../core/bytes/byteSource';
import { FormatError } from '../core/bytes/formatError';
import { MemorySource, chunksOf } from '../core/bytes/memorySource';
import { HEADER_BYTES, looksLikeSlog2, slog2DeclaredExtent } from '../core/formats/slog2/header';

export function isGzipName(path: string): boolean {
  return /\.gz$/i.test(path);
}

/** True if the first bytes are the gzip magic (1f 8b). */
export async function hasGzipMagic(source: ByteSource): Promise<boolean> {
  if (source.size < 2) return false;
  const b = await source.read(0, 2);
  return b[0] === 0x1f && b[1] === 0x8b;
}

/** Compressed bytes fed to zlib at a time: at most ~16 MiB of output per slice. */
const INPUT_SLICE = 16 << 10;
/**
 * When the reader stops early (a CLOG2 file ends at ENDLOG + its communicator table), at most this
 * much more is inflated to reach the member's CRC-32 / ISIZE; beyond it the rest is not read.
 */
export const VERIFY_TAIL_BYTES = 16 << 20;

function describeZlibError(source: ByteSource, z: Gunzip, e: unknown): FormatError | undefined {
  const err = e as NodeJS.ErrnoException;
  const at = z.bytesWritten;
  const msg = String(err?.message ?? e);
  if (err?.code === 'Z_BUF_ERROR' || /unexpected end of file/.test(msg)) return undefined; // truncated: reader reports
  if (/incorrect data check/.test(msg)) return new FormatError(source.name, at, 'gzip CRC-32 mismatch: the compressed data is corrupt (gzip -t fails too)');
  if (/incorrect length check/.test(msg))
    return new FormatError(source.name, at, 'gzip ISIZE mismatch: the decompressed length differs from the recorded one (corrupt data)');
  if (/incorrect header check|unknown compression method/.test(msg))
    return new FormatError(source.name, at, 'data after the last gzip member is neither a gzip member nor zero padding');
  return new FormatError(source.name, at, `corrupt gzip data: ${msg}`);
}

async function* slices(source: ByteSource): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunksOf(source, 256 << 10)) {
    for (let off = 0; off < chunk.length; off += INPUT_SLICE) yield chunk.subarray(off, Math.min(chunk.length, off + INPUT_SLICE));
  }
}

/** Decompresses a gzip ByteSource as a stream of chunks (bounded memory, checked CRC/ISIZE). */
export async function* gunzipChunks(source: ByteSource, chunkBytes = 1 << 20): ByteChunks {
  const z = createGunzip({ chunkSize: Math.max(16 << 10, Math.min(chunkBytes, 1 << 20)) });
  const input = Readable.from(slices(source), { objectMode: false, highWaterMark: INPUT_SLICE });
  input.on('error', (e) => z.destroy(e));
  input.pipe(z);
  const it = z[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let completed = false;
  try {
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await it.next();
      } catch (e) {
        if (!(e instanceof Error) || !('code' in e) || !String((e as NodeJS.ErrnoException).code).startsWith('Z_')) throw e;
        const f = describeZlibError(source, z, e);
        if (f === undefined) {
          completed = true;
          return;
        }
        throw f;
      }
      if (r.done) {
        completed = true;
        return;
      }
      yield new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength);
    }
  } finally {
    if (!completed) await verifyTail(source, z, it);
    input.destroy();
    z.destroy();
  }
}

/** The reader stopped early: inflate a bounded tail to check the member's CRC-32 / ISIZE. */
async function verifyTail(source: ByteSource, z: Gunzip, it: AsyncIterator<Buffer>): Promise<void> {
  let extra = 0;
  try {
    while (extra <= VERIFY_TAIL_BYTES) {
      const r = await it.next();
      if (r.done) return;
      extra += r.value.length;
    }
  } catch (e) {
    const f = describeZlibError(source, z, e);
    if (f !== undefined) throw f;
  }
}

/** Decompresses a whole gzip file into memory, refusing outputs larger than `maxBytes`. */
export async function gunzipToMemory(source: ByteSource, maxBytes: number): Promise<MemorySource> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of gunzipChunks(source)) {
    total += chunk.length;
    if (total > maxBytes) {
      throw new FormatError(source.name, 0, `decompressed size exceeds ${maxBytes} bytes; decompress the file first`);
    }
    parts.push(chunk);
  }
  const all = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    all.set(p, off);
    off += p.length;
  }
  return new MemorySource(source.name, all);
}

/**
 * A gzip'd SLOG-2 file into memory (it needs random access), checked before anything large is
 * inflated: the first bytes must be an SLOG-2 header (else undefined: not SLOG-2, nothing more
 * read), and inflation stops at the extent the header declares (trailing data is never unpacked),
 * refusing extents above `maxBytes` with the header's offset.
 */
export async function gunzipSlog2ToMemory(source: ByteSource, maxBytes: number): Promise<MemorySource | undefined> {
  let parts: Uint8Array[] = [];
  let total = 0;
  let extent: number | undefined;
  for await (const chunk of gunzipChunks(source, 256 << 10)) {
    parts.push(chunk);
    total += chunk.length;
    if (extent === undefined) {
      if (total < HEADER_BYTES) continue;
      const head = concat(parts, total);
      parts = [head];
      if (!looksLikeSlog2(head)) return undefined;
      extent = slog2DeclaredExtent(head)!;
      if (extent > maxBytes) {
        throw new FormatError(
          source.name,
          24,
          `the SLOG-2 header declares ${extent} bytes of data, more than the ${maxBytes} bytes a gzip'd SLOG-2 file may unpack to in memory; decompress the file first`,
        );
      }
    }
    if (total >= extent) break;
  }
  if (extent === undefined) {
    const head = concat(parts, total);
    return looksLikeSlog2(head) ? new MemorySource(source.name, head) : undefined;
  }
  const all = concat(parts, total);
  return new MemorySource(source.name, all.length > extent ? all.subarray(0, extent) : all);
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const all = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    all.set(p, off);
    off += p.length;
  }
  return all;
}
