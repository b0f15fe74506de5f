/**
 * ArrayBuffers handed back for reuse (decoded nodes' column arenas in a whole-file pass). Each new
 * buffer backs a node for a moment, then is garbage, and V8 answers the external memory
 * allocated (~1.5 GB per pass over a 1 GB file) with a full collection every few megabytes:
 * about a tenth of the decoding thread's time. Reused buffers are not zeroed.
 */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];

  constructor(
    /** Buffers kept for reuse at most. */
    readonly maxKept = 16,
    /** Bigger requests get a buffer of their own, never kept (a rare huge node). */
    readonly maxPooledBytes = 1 << 22,
  ) {}

  /** A buffer of at least `bytes` bytes: a kept one, or a new one rounded up to a power of two (so later requests fit). */
  take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const n = this.free[i]!.byteLength;
      if (n >= bytes && (best < 0 || n < this.free[best]!.byteLength)) best = i;
    }
    if (best >= 0) {
      const b = this.free[best]!;
      this.free[best] = this.free[this.free.length - 1]!;
      this.free.pop();
      return b;
    }
    if (bytes > this.maxPooledBytes) return new ArrayBuffer(bytes);
    return new ArrayBuffer(Math.max(1024, 2 ** Math.ceil(Math.log2(Math.max(1, bytes)))));
  }

  /** Hands `buffer` back: nothing may use it any more. */
  give(buffer: ArrayBufferLike): void {
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength > this.maxPooledBytes || buffer.byteLength < 1024) return;
    if (this.free.length < this.maxKept) this.free.push(buffer);
    else {
      // Keep the bigger buffers: they fit every request the smaller ones fit.
      let smallest = 0;
      for (let i = 1; i < this.free.length; i++) if (this.free[i]!.byteLength < this.free[smallest]!.byteLength) smallest = i;
      if (this.free[smallest]!.byteLength < buffer.byteLength) this.free[smallest] = buffer;
    }
  }

  get kept(): number {
    return this.free.length;
  }
}
