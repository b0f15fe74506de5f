import type { ByteSource } from './byteSource';
import { FormatError } from './formatError';

/** A ByteSource over bytes already in memory (tests, gunzipped input, small virtual files). */
export class MemorySource implements ByteSource {
  readonly size: number;
  private closed = false;

  constructor(
    readonly name: string,
    private readonly bytes: Uint8Array,
  ) {
    this.size = bytes.length;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    return this.readSync(offset, length);
  }

  async readInto(offset: number, target: Uint8Array): Promise<void> {
    target.set(this.readSync(offset, target.length));
  }

  readSync(offset: number, length: number): Uint8Array {
    if (this.closed) throw new Error(`${this.name}: read after close`);
    checkRange(this.name, this.size, offset, length);
    return this.bytes.subarray(offset, offset + length);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Throws a FormatError unless [offset, offset+length) lies inside a file of `size` bytes. */
export function checkRange(name: string, size: number, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new FormatError(name, Math.max(0, offset || 0), `invalid read of ${length} bytes at offset ${offset}`);
  }
  if (offset + length > size) {
    throw new FormatError(name, offset, `expected ${length} bytes but the file ends at ${size} (truncated file?)`);
  }
}

/**
 * How chunksOf may recycle its buffers: with `ring` > 0, chunk k is read into the buffer of chunk
 * k − `ring` (read straight into by the source). May be set after the stream has started, once its
 * consumer is known to keep no view of a chunk that long.
 */
export interface ChunkRecycling {
  ring: number;
}

/**
 * Reads a whole ByteSource as a sequence of chunks (for the streaming readers), each a buffer of
 * its own that the reader may keep, unless `recycling` says otherwise. Read straight into it
 * where the source can (a file: one buffer and no copy per chunk, where read() and a copy made
 * two buffers and a memcpy per MiB).
 */
export async function* chunksOf(source: ByteSource, chunkBytes = 1 << 20, start = 0, recycling?: ChunkRecycling): AsyncGenerator<Uint8Array> {
  const ring: Uint8Array[] = [];
  for (let off = start, k = 0; off < source.size; off += chunkBytes, k++) {
    const n = Math.min(chunkBytes, source.size - off);
    if (source.readInto) {
      // a fresh MiB per chunk cost the CLOG2 converter thread ~50 ms of zeroing per 300 MB and
      // the garbage collections its external memory set off
      const r = recycling?.ring ?? 0;
      let chunk = r > 0 ? ring[k % r] : undefined;
      if (chunk === undefined || chunk.length !== n) {
        chunk = new Uint8Array(n);
        if (r > 0) ring[k % r] = chunk;
      }
      await source.readInto(off, chunk);
      yield chunk;
    } else {
      // Copy: a cached view may be recycled by the next read.
      yield (await source.read(off, n)).slice();
    }
  }
}
