/**
 * An OutputSink over a Node file handle: sequential writes are coalesced into large chunks (few
 * syscalls for many small blocks), positional writes go straight to the handle after a flush.
 */
import type { FileHandle } from 'node:fs/promises';
import type { OutputSink } from '../format/slog2/writer/sink';

export class FileSink implements OutputSink {
  private buffer: Uint8Array;
  private buffered = 0;
  /** File offset where `buffer` starts. */
  private position = 0;

  constructor(
    private readonly handle: FileHandle,
    chunkBytes = 1 << 20,
  ) {
    this.buffer = new Uint8Array(chunkBytes);
  }

  /** Bytes accepted so far (= file size once flushed). */
  get size(): number {
    return this.position + this.buffered;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.buffered + bytes.length > this.buffer.length) await this.flush();
    if (bytes.length >= this.buffer.length) {
      await this.writeFully(bytes, this.position);
      this.position += bytes.length;
      return;
    }
    this.buffer.set(bytes, this.buffered);
    this.buffered += bytes.length;
  }

  async writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    await this.flush();
    if (offset < 0 || offset + bytes.length > this.position) throw new RangeError(`writeAt(${offset}, ${bytes.length}) outside the ${this.position} bytes written`);
    await this.writeFully(bytes, offset);
  }

  async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const n = this.buffered;
    this.buffered = 0;
    await this.writeFully(this.buffer.subarray(0, n), this.position);
    this.position += n;
  }

  private async writeFully(bytes: Uint8Array, at: number): Promise<void> {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done, at + done);
      done += bytesWritten;
    }
  }
}
