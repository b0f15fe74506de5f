/**
 * An OutputSink over a Node file handle: sequential writes are coalesced into large chunks and
 * written behind (double buffering: one chunk fills while the previous one is being written), so
 * the encoder rarely waits for the disk; positional writes go straight to the handle after a flush.
 */
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
  private spare: Uint8Array;
  private buffered = 0;
  /** File offset where `buffer` starts. */
  private position = 0;
  /**
   * The chunk being written, if any. Its failure is caught at once (a rejection nobody awaits yet
   * would be an unhandled rejection that kills the process — e.g. ENOSPC while the encoder fills
   * the next chunk) and rethrown at the next write/flush.
   */
  private inflight: Promise<void> | undefined;
  private failure: { readonly error: unknown } | undefined;

  constructor(
    private readonly handle: FileHandle,
    chunkBytes = 1 << 20,
  ) {
    this.buffer = new Uint8Array(chunkBytes);
    this.spare = new Uint8Array(chunkBytes);
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

  /** Starts writing the filled chunk (after the previous one finished) and switches buffers. */
  private async rotate(): Promise<void> {
    if (this.buffered === 0) return;
    await this.settle();
    const full = this.buffer;
    const n = this.buffered;
    const at = this.position;
    this.buffer = this.spare;
    this.spare = full;
    this.buffered = 0;
    this.position += n;
    this.inflight = this.writeFully(full.subarray(0, n), at).catch((error: unknown) => {
      this.failure ??= { error };
    });
  }

  private async settle(): Promise<void> {
    const pending = this.inflight;
    this.inflight = undefined;
    if (pending) await pending;
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Waits for a write in flight without reporting its failure (before closing an abandoned file). */
  async discard(): Promise<void> {
    const pending = this.inflight;
    this.inflight = undefined;
    this.buffered = 0;
    if (pending) await pending;
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
