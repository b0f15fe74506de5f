/**
 * Positional read access to the bytes of one file. The format core reads only through this
 * interface, so the same readers run on a Node file handle (src/io), an in-memory buffer (tests,
 * small virtual files, gunzipped input) or anything else that can serve ranges.
 *
 * Offsets and sizes are plain numbers: exact up to 2^53, so files far larger than 4 GiB work.
 */
export interface ByteSource {
  /** Shown in error messages (usually the file path). */
  readonly name: string;
  /** Total size in bytes. */
  readonly size: number;
  /**
   * Reads exactly `length` bytes at `offset`. Implementations throw a FormatError if the range
   * is not inside [0, size). The returned array may be a view into a cache: callers must not
   * modify it and should copy what they keep beyond the next read.
   */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Reads exactly `target.length` bytes at `offset` into `target` (same checks as `read`). For
   * whole-file passes that reuse their buffers: fresh buffers per read cost page faults and let
   * dead ones pile up until a GC. Optional; callers fall back to `read`.
   */
  readInto?(offset: number, target: Uint8Array): Promise<void>;
  /** Releases the underlying handle; further reads fail. */
  close(): Promise<void>;
}

/** A sequential source of chunks (e.g. a gunzip stream): the input of the streaming CLOG readers. */
export type ByteChunks = AsyncIterable<Uint8Array>;
