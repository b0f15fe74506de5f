/**
 * Node adaptor: a ByteSource over a file handle with positional reads and a small LRU block cache.
 * Reads that straddle block boundaries are assembled from the cached blocks; large reads bypass
 * the cache. Works for files far larger than 4 GiB (positions are plain numbers up to 2^53).
 */
import { constants, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { kindOf } from './outputGuard';
import type { ByteSource } from '../core/bytes/byteSource';
import { checkRange } from '../core/bytes/memorySource';

export interface FileSourceOptions {
  /** Bytes per cache block (default 64 KiB). */
  readonly blockBytes?: number;
  /** Number of blocks kept (default 64, i.e. 4 MiB). */
  readonly maxBlocks?: number;
  /**
   * Read on the calling thread (fs.readSync), giving the event loop a turn at least every
   * TURN_MS, instead of a round trip through libuv's thread pool per read: for the analysis and
   * decoder threads, where 1 GiB in 64 KiB reads took ~1.0 s of the thread's time that way against
   * ~0.3 s. Not on the extension host's main thread: a slow disk would stall it. Not in the CLI's
   * main thread either: its dump was no faster and its peak RSS varied from 186 to 763 MB (V8
   * sizes the heap differently when the event loop is seldom idle).
   */
  readonly onThread?: boolean;
}

/**
 * Longest run of reads on the thread without an event-loop turn: a cancel or a window request
 * waits no longer, and V8 runs part of its collection as tasks of the event loop. The 1 GB
 * analysis took as long with turns every 1 ms as every 10 ms.
 */
const TURN_MS = 1;

/** An input that is a directory, FIFO, device or socket (code ENOTREG; names the file). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`${path}: ${what}`);
    this.name = 'NotRegularFileError';
  }
}

export class FileSource implements ByteSource {
  private readonly blockBytes: number;
  private readonly maxBlocks: number;
  /** Insertion order = recency order (Map iteration order), for LRU eviction. */
  private readonly blocks = new Map<number, Uint8Array>();
  private readonly reading = new Map<number, Promise<Uint8Array>>();
  private closed = false;
  private readonly onThread: boolean;
  private lastTurn = performance.now();
  private bytesFromFile = 0;

  private constructor(
    readonly name: string,
    readonly size: number,
    private readonly handle: FileHandle,
    options: FileSourceOptions,
  ) {
    this.blockBytes = Math.max(1, options.blockBytes ?? 65536);
    this.maxBlocks = Math.max(1, options.maxBlocks ?? 64);
    this.onThread = options.onThread === true;
  }

  static async open(path: string, options: FileSourceOptions = {}): Promise<FileSource> {
    // O_NONBLOCK: opening a FIFO without a writer would otherwise block forever (it is refused
    // below); for regular files the flag changes nothing.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new NotRegularFileError(path, `is ${kindOf(st)}, not a trace file; only regular files are read`);
      return new FileSource(path, st.size, handle, options);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    if (this.closed) throw new Error(`${this.name}: read after close`);
    checkRange(this.name, this.size, offset, length);
    if (length === 0) return new Uint8Array(0);
    if (length >= this.blockBytes * 2) return this.readDirect(offset, length);
    const first = Math.floor(offset / this.blockBytes);
    const last = Math.floor((offset + length - 1) / this.blockBytes);
    if (first === last) {
      const block = await this.block(first);
      const start = offset - first * this.blockBytes;
      return block.subarray(start, start + length);
    }
    const out = new Uint8Array(length);
    for (let b = first; b <= last; b++) {
      const block = await this.block(b);
      const blockStart = b * this.blockBytes;
      const from = Math.max(offset, blockStart);
      const to = Math.min(offset + length, blockStart + block.length);
      out.set(block.subarray(from - blockStart, to - blockStart), from - offset);
    }
    return out;
  }

  private async block(index: number): Promise<Uint8Array> {
    const hit = this.blocks.get(index);
    if (hit) {
      this.blocks.delete(index);
      this.blocks.set(index, hit);
      return hit;
    }
    // Concurrent reads of one block share its read.
    let reading = this.reading.get(index);
    if (reading === undefined) {
      const start = index * this.blockBytes;
      reading = this.readDirect(start, Math.min(this.blockBytes, this.size - start)).then((data) => {
        this.blocks.set(index, data);
        if (this.blocks.size > this.maxBlocks) this.blocks.delete(this.blocks.keys().next().value!);
        return data;
      });
      this.reading.set(index, reading);
      const forget = () => this.reading.delete(index);
      reading.then(forget, forget);
    }
    return reading;
  }

  /** Bytes read from the file so far, the block cache's loads included (a pass's reads, in tests and benches). */
  get bytesRead(): number {
    return this.bytesFromFile;
  }

  async readInto(offset: number, target: Uint8Array): Promise<void> {
    if (this.closed) throw new Error(`${this.name}: read after close`);
    checkRange(this.name, this.size, offset, target.length);
    await this.fill(target, offset);
  }

  private async readDirect(offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    await this.fill(out, offset);
    return out;
  }

  private async fill(out: Uint8Array, offset: number): Promise<void> {
    const length = out.length;
    let done = 0;
    while (done < length) {
      let bytesRead: number;
      try {
        if (this.onThread) bytesRead = readSync(this.handle.fd, out, done, length - done, offset + done);
        else ({ bytesRead } = await this.handle.read(out, done, length - done, offset + done));
      } catch (e) {
        // An I/O error names the file and the offset (fs errors from a handle carry neither).
        const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
        throw Object.assign(new Error(`${this.name}: read error at byte ${offset + done}: ${code}`), { code, path: this.name });
      }
      if (bytesRead === 0) throw new Error(`${this.name}: unexpected end of file at ${offset + done} (file changed on disk?)`);
      done += bytesRead;
    }
    this.bytesFromFile += length;
    if (this.onThread && performance.now() - this.lastTurn > TURN_MS) {
      // A read that completes at once resolves as a microtask only: without this a whole pass
      // would run without receiving a message (cancel, stop, another request).
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.lastTurn = performance.now();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.blocks.clear();
    await this.handle.close();
  }
}
