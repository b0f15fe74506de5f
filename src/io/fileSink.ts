/**
 * An OutputSink over a Node file handle: sequential writes are coalesced into large chunks and
 * written behind (double buffering: one chunk fills while the previous one is being written), so
 * the encoder rarely waits for the disk; positional writes go straight to the handle after a flush.
 */
import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { OutputSink } from '../core/formats/slog2/writer/sink';

/** A failed write to the file (ENOSPC, EDQUOT, EIO…): tells output errors from input errors. */
export class SinkWriteError extends Error {
  readonly code: string;
  constructor(readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'SinkWriteError';
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    this.code = typeof code === 'string' ? code : 'EIO';
  }
}

export class FileSink implements OutputSink {
  private buffer: Uint8Array;
  /** Written-out chunk buffers ready for reuse (at most `depth` buffers exist). */
  private readonly free: Uint8Array[] = [];
  private buffered = 0;
  /** File offset where `buffer` starts. */
  private position = 0;
  /**
   * The chunks being written, oldest first, one after another. A failure is caught at once (a
   * rejection nobody awaits yet would be an unhandled rejection that kills the process — e.g.
   * ENOSPC while the encoder fills the next chunk) and rethrown at the next write/flush.
   */
  private readonly inflight: Promise<void>[] = [];
  private failure: { readonly error: unknown } | undefined;

  constructor(
    private readonly handle: FileHandle,
    // 4 MiB: each write to the handle costs ~2 ms beside its bytes on this VM; with 1 MiB chunks
    // a 1.1 GB row index spent 2.0 s writing, with 4–8 MiB 0.5–0.7 s.
    private readonly chunkBytes = 4 << 20,
    // Chunks in memory (one filling, the others queued): a writer that produces in bursts (the
    // row index writes ~27 MB per chunk at once) goes on while they are written.
    private readonly depth = 3,
  ) {
    this.buffer = new Uint8Array(chunkBytes);
  }

  /** Bytes accepted so far (= file size once flushed). */
  get size(): number {
    return this.position + this.buffered;
  }

  /** Copies `bytes` (the caller may reuse them at once), writing full chunks behind. */
  async write(bytes: Uint8Array): Promise<void> {
    this.throwIfFailed();
    let from = 0;
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, this.buffer.length - this.buffered);
      this.buffer.set(n === bytes.length ? bytes : bytes.subarray(from, from + n), this.buffered);
      this.buffered += n;
      from += n;
      if (this.buffered === this.buffer.length) await this.rotate();
    }
  }

  /**
   * Appends `bytes` before returning (OutputSink.writeSync): what is buffered and then `bytes` go
   * to the file here, blocking, at their offsets; chunks still in flight are for earlier offsets.
   */
  writeSync(bytes: Uint8Array): void {
    this.throwIfFailed();
    if (this.buffered + bytes.length <= this.buffer.length) {
      this.buffer.set(bytes, this.buffered);
      this.buffered += bytes.length;
      return;
    }
    this.writeFullySync(this.buffer.subarray(0, this.buffered), this.position);
    this.position += this.buffered;
    this.buffered = 0;
    this.writeFullySync(bytes, this.position);
    this.position += bytes.length;
  }

  async writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    await this.flush();
    if (offset < 0 || offset + bytes.length > this.position)
      throw new RangeError(`writeAt(${offset}, ${bytes.length}) outside the ${this.position} bytes written`);
    await this.writeFully(bytes, offset);
  }

  /** Writes everything accepted so far and waits for it. */
  async flush(): Promise<void> {
    await this.rotate();
    await this.settle();
  }

  /** Queues the filled chunk for writing (after those before it) and takes another buffer. */
  private async rotate(): Promise<void> {
    if (this.buffered === 0) return;
    while (this.inflight.length >= this.depth - 1) await this.inflight.shift();
    this.throwIfFailed();
    const full = this.buffer;
    const n = this.buffered;
    const at = this.position;
    const previous = this.inflight[this.inflight.length - 1] ?? Promise.resolve();
    this.buffer = this.free.pop() ?? new Uint8Array(this.chunkBytes);
    this.buffered = 0;
    this.position += n;
    this.inflight.push(
      previous
        .then(() => (this.failure === undefined ? this.writeFully(full.subarray(0, n), at) : undefined))
        .catch((error: unknown) => {
          this.failure ??= { error };
        })
        .finally(() => this.free.push(full)),
    );
  }

  private async settle(): Promise<void> {
    while (this.inflight.length > 0) await this.inflight.shift();
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Waits for the writes in flight without reporting their failure (before closing an abandoned file). */
  async discard(): Promise<void> {
    this.buffered = 0;
    while (this.inflight.length > 0) await this.inflight.shift();
  }

  private writeFullySync(bytes: Uint8Array, at: number): void {
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.handle.fd, bytes, done, bytes.length - done, at + done);
    } catch (e) {
      throw new SinkWriteError(e);
    }
  }

  private async writeFully(bytes: Uint8Array, at: number): Promise<void> {
    let done = 0;
    try {
      while (done < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done, at + done);
        done += bytesWritten;
      }
    } catch (e) {
      throw new SinkWriteError(e);
    }
  }
}
