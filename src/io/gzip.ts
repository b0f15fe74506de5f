/**
 * Gzip support through fflate (runs in every target). Streaming decompression for the sequential
 * CLOG readers; whole-file decompression into memory for small gzip'd SLOG-2 files, which need
 * random access.
 */
import { Gunzip } from 'fflate';
import type { ByteChunks, ByteSource } from '../core/bytes/byteSource';
import { FormatError } from '../core/bytes/formatError';
import { MemorySource, chunksOf } from '../core/bytes/memorySource';

export function isGzipName(path: string): boolean {
  return /\.gz$/i.test(path);
}

/** True if the first bytes are the gzip magic (1f 8b). */
export async function hasGzipMagic(source: ByteSource): Promise<boolean> {
  if (source.size < 2) return false;
  const b = await source.read(0, 2);
  return b[0] === 0x1f && b[1] === 0x8b;
}

/** Decompresses a gzip ByteSource as a stream of chunks (bounded memory). */
export async function* gunzipChunks(source: ByteSource, chunkBytes = 1 << 20): ByteChunks {
  const pending: Uint8Array[] = [];
  let failed: unknown;
  const gunzip = new Gunzip((chunk) => {
    pending.push(chunk);
  });
  let consumed = 0;
  for await (const chunk of chunksOf(source, chunkBytes)) {
    const final = consumed + chunk.length >= source.size;
    try {
      consumed += chunk.length;
      gunzip.push(chunk, final);
    } catch (e) {
      failed = e;
    }
    while (pending.length > 0) yield pending.shift()!;
    // A .gz cut short (a copy interrupted by a quota, a crashed job) ends like a truncated file: the
    // data decompressed so far is the stream, and the reader reports the truncation (partial read).
    // fflate's code 0 is "unexpected EOF". Found by the fuzzer: the whole conversion used to fail.
    if (failed !== undefined && final && (failed as { code?: number }).code === 0) return;
    if (failed !== undefined) throw new FormatError(source.name, consumed, `corrupt gzip data: ${String((failed as Error).message ?? failed)}`);
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
