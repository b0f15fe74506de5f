/**
 * The analysis's span spill (core/analysis/spanLog.ts) as a temporary file: made at the first
 * chunk, unlinked at once where the system allows it (the open handle keeps it; nothing is left
 * behind even if the process is killed), else removed when closed. Writes go through libuv's
 * thread pool, so the analysis thread goes on while a chunk is written; reads prefetch the next
 * chunk while the last one is replayed.
 */
import { open, statfs, unlink, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SpanSpill } from '../core/analysis/spanLog';
import { tempPathFor } from './tempFiles';

export interface SpanSpillFileOptions {
  /** Directory of the file (default: the system's temporary directory). */
  readonly dir?: string;
  /** Bytes it may hold at most; a write past it rejects (the analysis then reads its input again). */
  readonly maxBytes: number;
  /** Free space it leaves on the file system (default 1 GiB). */
  readonly reserveBytes?: number;
}

const DEFAULT_RESERVE = 1 << 30;

export class SpanSpillFile implements SpanSpill {
  readonly path: string;
  private handle: Promise<FileHandle> | undefined;
  private unlinked = false;
  /** Each chunk's length, in file order (chunks are written back to back). */
  private readonly lengths: number[] = [];
  private end = 0;
  private closed = false;

  constructor(private readonly options: SpanSpillFileOptions) {
    this.path = tempPathFor(path.join(options.dir ?? os.tmpdir(), 'mpe-analysis-spans'));
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.end;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.closed) throw new Error(`${this.path}: written after it was closed`);
    if (this.end + bytes.length > this.options.maxBytes) throw new Error(`more than ${this.options.maxBytes} bytes of spans`);
    const position = this.end;
    this.end += bytes.length;
    this.lengths.push(bytes.length);
    const fh = await this.open();
    let done = 0;
    while (done < bytes.length) done += (await fh.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
  }

  async *read(): AsyncGenerator<Uint8Array> {
    if (this.handle === undefined) return;
    const fh = await this.handle;
    let largest = 0;
    for (const n of this.lengths) largest = Math.max(largest, n);
    // Two buffers: the next chunk is read while the caller works on the last one.
    const buffers = [new Uint8Array(largest), new Uint8Array(largest)];
    let position = 0;
    const readAt = async (i: number, into: Uint8Array, at: number): Promise<Uint8Array> => {
      const n = this.lengths[i]!;
      let done = 0;
      while (done < n) {
        const { bytesRead } = await fh.read(into, done, n - done, at + done);
        if (bytesRead === 0) throw new Error(`${this.path}: the spans end at byte ${at + done}, ${n - done} bytes short`);
        done += bytesRead;
      }
      return into.subarray(0, n);
    };
    let next = this.lengths.length > 0 ? readAt(0, buffers[0]!, 0) : undefined;
    for (let i = 0; i < this.lengths.length; i++) {
      const chunk = await next!;
      position += this.lengths[i]!;
      next = i + 1 < this.lengths.length ? readAt(i + 1, buffers[(i + 1) % 2]!, position) : undefined;
      yield chunk;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const handle = this.handle;
    if (handle === undefined) return;
    await handle.then((fh) => fh.close()).catch(() => undefined);
    if (!this.unlinked) await unlink(this.path).catch(() => undefined);
  }

  private open(): Promise<FileHandle> {
    return (this.handle ??= (async () => {
      const dir = path.dirname(this.path);
      const fs = await statfs(dir);
      const free = fs.bavail * fs.bsize;
      const reserve = this.options.reserveBytes ?? DEFAULT_RESERVE;
      if (free - reserve < this.options.maxBytes)
        throw new Error(`${dir} has ${free} bytes free: too few to keep up to ${this.options.maxBytes} bytes of spans and leave ${reserve}`);
      const fh = await open(this.path, 'wx+', 0o600);
      try {
        await unlink(this.path);
        this.unlinked = true;
      } catch {
        // Windows: an open file cannot be removed; close() does
      }
      return fh;
    })());
  }
}

/** Spans of a pass over a file of this many bytes fit in its size (a state is ≥ 33 bytes, ≤ 2 spans of 16): plus slack. */
const SPILL_SLACK = 64 << 20;

/** The spill of an analysis of a trace of `traceBytes` bytes (each analysis its own file). */
export function spanSpillFor(traceBytes: number): () => SpanSpill {
  return () => new SpanSpillFile({ maxBytes: traceBytes + SPILL_SLACK });
}
