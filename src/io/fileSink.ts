/**
 * An OutputSink over a Node file handle: sequential writes are coalesced into large chunks and
 * written behind (double buffering: one chunk fills while the previous one is being written), so
 * the encoder rarely waits for the disk; positional writes go straight to the handle after a flush.
 * Buffers handed over (writeOwned) are not copied: they are gathered until they make a chunk and
 * written together, in turn with the copied bytes. A queued chunk reaches the handle in calls of
 * at most WRITE_BYTES (writev where they span several buffers), issued together: one chunk's calls
 * overlap, each on its own range; chunks follow one another.
 */
import { writeSync, writevSync } from 'node:fs';
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

/**
 * The most one queued write call hands the kernel. Linux 6.18 on this VM gives a buffered write of
 * 2 MiB or more whole 2 MiB page-cache folios, and getting those (from the free blocks the VM's
 * balloon has handed back to the host, or by compaction) made writing 168 MB cost ~0.45 s of kernel
 * time in 2 and 4 MiB writes against ~0.03 s in 1 or 1.5 MiB ones (dd after 3 s idle; Node's
 * writev of 4 MiB gathered against 1 MiB: 470 against 50 ms). A 16-rank conversion's I/O threads
 * took ~280 ms instead of ~100 ms whenever memory had lain free a few seconds; chunks are still
 * gathered per `chunkBytes`, then written in calls of at most this.
 */
export const WRITE_BYTES = 1 << 20;

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
  /** Buffers handed over (writeOwned) and not yet queued, in file order after `position`; never beside buffered bytes. */
  private owned: Uint8Array[] = [];
  private ownedReleases: (() => void)[] = [];
  private ownedBytes = 0;

  constructor(
    private readonly handle: FileHandle,
    // 4 MiB gathered per queued write (written in WRITE_BYTES calls, issued together): a queue turn
    // per 4 MiB. (With 1 MiB chunks written one at a time a 1.1 GB row index once spent 2.0 s
    // writing, with 4–8 MiB 0.5–0.7 s; on Linux 6.18 here, `mpe-trace index` of a 1 GB SLOG-2 took
    // 6.2–6.4 s in 1 MiB calls issued together and 5.4–7.2 s in 4 MiB calls, the dirty-page
    // writeback of 1.1 GB setting the pace.)
    private readonly chunkBytes = 4 << 20,
    // Chunks in memory (one filling, the others queued): a writer that produces in bursts (the
    // row index writes ~27 MB per chunk at once) goes on while they are written.
    private readonly depth = 3,
  ) {
    this.buffer = new Uint8Array(chunkBytes);
  }

  /** Bytes accepted so far (= file size once flushed). */
  get size(): number {
    return this.position + this.ownedBytes + this.buffered;
  }

  /** Copies `bytes` (the caller may reuse them at once), writing full chunks behind. */
  async write(bytes: Uint8Array): Promise<void> {
    this.throwIfFailed();
    await this.queueOwned();
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
   * Appends `bytes` without copying them (OutputSink.writeOwned): what was copied in before goes
   * first; they are written once the buffers handed over make a chunk, then `release` is called
   * (also if the write failed or was discarded).
   */
  async writeOwned(bytes: Uint8Array, release: () => void): Promise<void> {
    try {
      this.throwIfFailed();
      await this.rotate();
    } catch (e) {
      release();
      throw e;
    }
    this.owned.push(bytes);
    this.ownedReleases.push(release);
    this.ownedBytes += bytes.length;
    if (this.ownedBytes >= this.chunkBytes) await this.queueOwned();
  }

  /**
   * Appends `bytes` before returning (OutputSink.writeSync): what is buffered and then `bytes` go
   * to the file here, blocking, at their offsets; chunks still in flight are for earlier offsets.
   */
  writeSync(bytes: Uint8Array): void {
    this.throwIfFailed();
    if (this.ownedBytes > 0) {
      // buffers handed over go first, written here too (the writes are positional)
      const bytesOwned = this.ownedBytes;
      const { parts, release } = this.takeOwned();
      this.writeFullySync(parts, this.position);
      this.position += bytesOwned;
      release();
    }
    if (this.buffered + bytes.length <= this.buffer.length) {
      this.buffer.set(bytes, this.buffered);
      this.buffered += bytes.length;
      return;
    }
    this.writeFullySync([this.buffer.subarray(0, this.buffered)], this.position);
    this.position += this.buffered;
    this.buffered = 0;
    this.writeFullySync([bytes], this.position);
    this.position += bytes.length;
  }

  async writeAt(offset: number, bytes: Uint8Array): Promise<void> {
    await this.flush();
    if (offset < 0 || offset + bytes.length > this.position)
      throw new RangeError(`writeAt(${offset}, ${bytes.length}) outside the ${this.position} bytes written`);
    await this.writeFully([bytes], offset);
  }

  /** Writes everything accepted so far and waits for it. */
  async flush(): Promise<void> {
    await this.queueOwned();
    await this.rotate();
    await this.settle();
  }

  /** Queues the filled chunk for writing (after those before it) and takes another buffer. */
  private async rotate(): Promise<void> {
    if (this.buffered === 0) return;
    await this.room();
    const full = this.buffer;
    const n = this.buffered;
    this.buffer = this.free.pop() ?? new Uint8Array(this.chunkBytes);
    this.buffered = 0;
    this.queue([full.subarray(0, n)], () => this.free.push(full));
  }

  /** Waits until fewer than depth − 1 writes are in flight (the oldest first). */
  private async room(): Promise<void> {
    while (this.inflight.length >= this.depth - 1) await this.inflight.shift();
    this.throwIfFailed();
  }

  /** Writes `parts` at the end of what is queued, after the writes before them, then calls `release`. */
  private queue(parts: readonly Uint8Array[], release: () => void): void {
    const at = this.position;
    const previous = this.inflight[this.inflight.length - 1] ?? Promise.resolve();
    for (const p of parts) this.position += p.length;
    this.inflight.push(
      previous
        .then(() => (this.failure === undefined ? this.writeFully(parts, at) : undefined))
        .catch((error: unknown) => {
          this.failure ??= { error };
        })
        .finally(release),
    );
  }

  /** Queues the buffers handed over (if any) as one write, once there is room. */
  private async queueOwned(): Promise<void> {
    if (this.ownedBytes === 0) return;
    await this.room();
    const { parts, release } = this.takeOwned();
    this.queue(parts, release);
  }

  /** The buffers handed over and not yet queued, and what releases them all; the sink holds none after. */
  private takeOwned(): { readonly parts: Uint8Array[]; readonly release: () => void } {
    const parts = this.owned;
    const releases = this.ownedReleases;
    this.owned = [];
    this.ownedReleases = [];
    this.ownedBytes = 0;
    return {
      parts,
      release: () => {
        for (const r of releases) r();
      },
    };
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
    this.takeOwned().release();
    while (this.inflight.length > 0) await this.inflight.shift();
  }

  /**
   * Writes `parts` one after another from `at`, blocking, resuming short writes. In whole calls: this
   * is a wide trace's burst path (a 16 384-rank conversion's high nodes), where WRITE_BYTES pieces
   * gained nothing measurable (3 alternating runs: 6.38–6.52 against 6.02–6.41 s, peaks alike).
   */
  private writeFullySync(parts: readonly Uint8Array[], at: number): void {
    try {
      let rest = parts;
      while (rest.length > 0) {
        const first = rest[0]!;
        const n = rest.length === 1 ? writeSync(this.handle.fd, first, 0, first.length, at) : writevSync(this.handle.fd, rest as Uint8Array[], at);
        at += n;
        rest = afterBytes(rest, n);
      }
    } catch (e) {
      throw new SinkWriteError(e);
    }
  }

  /**
   * Writes `parts` from `at` in calls of at most WRITE_BYTES (one writev for several parts), all
   * issued at once: positional writes of their own ranges, so the thread pool goes from one to the
   * next without waiting for this thread's event loop (awaited one by one, a 16 384-rank
   * conversion's writer thread, busy for tens of milliseconds at a time closing wide nodes, left
   * the pieces waiting and its queued chunks piling up: peak RSS 251–265 MB against 242–250).
   * Settles once every piece has (nothing is released while a piece may still read it).
   */
  private async writeFully(parts: readonly Uint8Array[], at: number): Promise<void> {
    const pieces: Promise<void>[] = [];
    for (let rest = parts; rest.length > 0;) {
      const piece = firstBytes(rest, WRITE_BYTES);
      const n = piece.reduce((sum, p) => sum + p.length, 0);
      pieces.push(this.writePiece(piece, at));
      at += n;
      rest = afterBytes(rest, n);
    }
    const failed = (await Promise.allSettled(pieces)).find((r) => r.status === 'rejected');
    if (failed !== undefined) throw new SinkWriteError(failed.reason);
  }

  /** Writes `parts` one after another from `at` (one writev for several), resuming short writes. */
  private async writePiece(parts: readonly Uint8Array[], at: number): Promise<void> {
    let rest = parts;
    while (rest.length > 0) {
      const first = rest[0]!;
      const n =
        rest.length === 1
          ? (await this.handle.write(first, 0, first.length, at)).bytesWritten
          : (await this.handle.writev(rest as Uint8Array[], at)).bytesWritten;
      at += n;
      rest = afterBytes(rest, n);
    }
  }
}

/** The first `max` bytes of `parts` (all of them when fewer), the last part cut if need be. */
function firstBytes(parts: readonly Uint8Array[], max: number): readonly Uint8Array[] {
  let n = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (n + p.length > max) return n < max ? [...parts.slice(0, i), p.subarray(0, max - n)] : parts.slice(0, i);
    n += p.length;
  }
  return parts;
}

/** What is left of `parts` once their first `n` bytes are written. */
function afterBytes(parts: readonly Uint8Array[], n: number): readonly Uint8Array[] {
  let i = 0;
  while (i < parts.length && n >= parts[i]!.length) n -= parts[i++]!.length;
  if (i === parts.length) return [];
  return n === 0 ? parts.slice(i) : [parts[i]!.subarray(n), ...parts.slice(i + 1)];
}
