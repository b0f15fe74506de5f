/**
 * The writer's output in file order: node blocks are encoded back to back into reusable 1 MiB
 * chunks (no allocation per node), other blocks queued as they are; `drain()` hands them to the
 * sink, the chunks without a copy where it takes them so (writeOwned). Keeps the end-of-file
 * offset and the largest block max_buffer_bytesize must cover.
 */
import { ByteWriter } from './byteWriter';
import type { BlockPointer } from './encode';
import type { OutputSink } from './sink';

/** Size of the reusable output chunks node blocks are encoded into. */
export const OUTPUT_CHUNK_BYTES = 1 << 20;
/**
 * Written chunks kept for reuse: as many as are out at once — queued between drains (the writer
 * drains past 8 MB, slog2Writer.ts PAUSE_BYTES) and held by a file sink until written (up to 4 MiB
 * gathered and two such writes in flight); a wide trace's high nodes go out in chunks too. With 8
 * kept, a 16-rank conversion (168 MB written) still made 50 chunks and a 2-rank one 58: every chunk
 * past the pool was dropped, its memory given back (glibc's mmap threshold, cliLauncher.mjs), and
 * the next one page-faulted in afresh while the writer's kernel copied a node into it (~13 000
 * faults, on the writer's thread). At most 19–22 are out at once on the bench's inputs (16, 2 and
 * 2048 ranks, counted with 32 kept), so 24 make no more than that; peak RSS 4–6 MB lower at 16
 * and 2 ranks, 16 384 ranks within its spread (bench inputs, alternating runs, medians).
 */
const CHUNK_POOL = 24;
/**
 * Queued bytes past which the sink takes them at once (its writeSync, if it has one) rather than
 * at the next drain: encoding a wide trace's high node queued its whole block (16 384 ranks: ~20
 * MB of chunks, 65 536 ranks: more) before the writer could wait for the sink.
 */
export const WRITE_NOW_BYTES = 4 << 20;

export class OutputBlocks {
  /** Blocks ready for the sink, in file order; `recycle` goes back to the pool once written. */
  private readonly queue: { bytes: Uint8Array; recycle?: Uint8Array }[] = [];
  private queuedBytes = 0;
  private chunk: Uint8Array = new Uint8Array(OUTPUT_CHUNK_BYTES);
  private chunkUsed = 0;
  private readonly pool: Uint8Array[] = [];
  /** File offset of the next block. */
  offset: number;
  /** The largest block that counts for the header's max_buffer_bytesize. */
  maxBufferBytes = 0;

  /** Starts with the file's placeholder header. */
  constructor(
    private readonly sink: OutputSink,
    header: Uint8Array,
    private readonly writeNowBytes = WRITE_NOW_BYTES,
  ) {
    this.enqueue(header);
    this.offset = header.length;
  }

  /** Bytes encoded but not yet handed to the sink. */
  get pendingBytes(): number {
    return this.queuedBytes + this.chunkUsed;
  }

  /** A writer over the next `size` bytes of the file (a node block), accounted like append(). */
  reserve(size: number, counts = true): ByteWriter {
    this.bound();
    let w: ByteWriter;
    if (size > OUTPUT_CHUNK_BYTES) {
      this.flushChunk();
      w = new ByteWriter(size);
      this.enqueue(w.bytes);
    } else {
      if (this.chunkUsed + size > OUTPUT_CHUNK_BYTES) this.flushChunk();
      w = new ByteWriter(this.chunk.subarray(this.chunkUsed, this.chunkUsed + size));
      this.chunkUsed += size;
    }
    this.offset += size;
    if (counts && size > this.maxBufferBytes) this.maxBufferBytes = size;
    return w;
  }

  /** A block written in parts (each reserved with `counts` false) that max_buffer_bytesize must cover. */
  countBlock(size: number): void {
    if (size > this.maxBufferBytes) this.maxBufferBytes = size;
  }

  /** Queues a block at the current end of file; `counts` = it is a block max_buffer_bytesize must cover. */
  append(block: Uint8Array, counts: boolean): BlockPointer {
    const p = { fptr: this.offset, size: block.length };
    this.bound();
    this.flushChunk();
    this.enqueue(block);
    this.offset += block.length;
    if (counts && block.length > this.maxBufferBytes) this.maxBufferBytes = block.length;
    return p;
  }

  /** Hands the queued blocks to the sink. */
  async drain(): Promise<void> {
    this.flushChunk();
    for (let i = 0; i < this.queue.length; i++) {
      const item = this.queue[i]!;
      this.queuedBytes -= item.bytes.length;
      // handed over, not copied (a block of its own is never written to again, a chunk when released)
      if (this.sink.writeOwned !== undefined) await this.sink.writeOwned(item.bytes, () => this.written(item));
      else {
        await this.sink.write(item.bytes);
        this.written(item);
      }
    }
    this.queue.length = 0;
  }

  /**
   * Hands the queue to the sink at once when it has grown past writeNowBytes. Called before a
   * block is reserved or appended: every queued block is complete then (a reserved one is filled
   * before the next is asked for).
   */
  private bound(): void {
    if (this.queuedBytes < this.writeNowBytes || this.sink.writeSync === undefined) return;
    for (const item of this.queue) {
      this.sink.writeSync(item.bytes);
      this.written(item);
    }
    this.queue.length = 0;
    this.queuedBytes = 0;
  }

  /** A queued block is in the sink: its chunk goes back to the pool. */
  private written(item: { readonly recycle?: Uint8Array }): void {
    if (item.recycle && this.pool.length < CHUNK_POOL) this.pool.push(item.recycle);
  }

  private enqueue(block: Uint8Array, recycle?: Uint8Array): void {
    this.queue.push({ bytes: block, recycle });
    this.queuedBytes += block.length;
  }

  private flushChunk(): void {
    if (this.chunkUsed === 0) return;
    this.enqueue(this.chunk.subarray(0, this.chunkUsed), this.chunk);
    this.chunk = this.pool.pop() ?? new Uint8Array(OUTPUT_CHUNK_BYTES);
    this.chunkUsed = 0;
  }
}
