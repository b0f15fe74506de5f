/**
 * Where the writer's bytes go. The writer appends blocks in order and, at the very end, rewrites
 * the 108-byte header at offset 0 (SLOG2.md §11), so a sink needs sequential writes plus one
 * positional write. src/io/fileSink.ts adapts a file; MemorySink serves tests and small outputs.
 */
export interface OutputSink {
  /** Appends bytes at the current end. The writer never touches `bytes` after the promise settles. */
  write(bytes: Uint8Array): Promise<void>;
  /** Overwrites bytes at an offset already written (the final header). */
  writeAt(offset: number, bytes: Uint8Array): Promise<void>;
  /** Makes every byte written so far readable from the output (a snapshot reads them). */
  flush?(): Promise<void>;
  /**
   * Appends bytes at the current end before returning (the caller may reuse them at once), after
   * everything written before. For bursts the writer cannot wait in: a wide trace's high node is
   * encoded in one go, tens of MB that would otherwise queue in memory (outputBlocks.ts).
   */
  writeSync?(bytes: Uint8Array): void;
  /**
   * Appends `bytes` without copying them: the sink holds them until it calls `release` (they are
   * in the output then), and resolves once it can take more. For the writer's reusable output
   * chunks (outputBlocks.ts), which a copying sink would copy once more on the writer's thread.
   */
  writeOwned?(bytes: Uint8Array, release: () => void): Promise<void>;
}

/** An in-memory sink: the whole output as one growing buffer. */
export class MemorySink implements OutputSink {
  private buf = new Uint8Array(1 << 16);
  private length = 0;

  async write(bytes: Uint8Array): Promise<void> {
    if (this.length + bytes.length > this.buf.length) {
      let cap = this.buf.length * 2;
      while (cap < this.length + bytes.length) cap *= 2;
      const next = new Uint8Array(cap);
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  async writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    if (offset < 0 || offset + bytes.length > this.length) throw new RangeError(`writeAt(${offset}, ${bytes.length}) outside the ${this.length} bytes written`);
    this.buf.set(bytes, offset);
  }

  /** The bytes written so far (a copy). */
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
