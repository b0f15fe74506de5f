/**
 * The SLOG-2 writer's shadow spill (core/formats/slog2/writer/shadowSpill.ts) as a temporary file
 * next to the output: made at the first spill and unlinked at once where the system allows it
 * (the open descriptor keeps it; nothing is left behind even if the process is killed), else
 * removed when closed. Synchronous, as the writer is: the writer runs in a worker thread (the
 * CLI's job thread, the editor's conversion worker), never on the extension host's own thread.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import type { ShadowSpill } from '../core/formats/slog2/writer/shadowSpill';
import { SinkWriteError } from './fileSink';
import { tempPathFor } from './tempFiles';

interface Region {
  readonly position: number;
  readonly end: number;
  live: boolean;
}

export class ShadowSpillFile implements ShadowSpill {
  readonly path: string;
  private fd: number | undefined;
  private unlinked = false;
  /**
   * Stored regions in file order. Spills nest (a child's buffer comes and goes while its parent's
   * subtree is written), so freeing from the end reuses the space: the file stays as big as the
   * bytes waiting at once.
   */
  private readonly regions: Region[] = [];
  private end = 0;
  /** The most bytes stored at once (the file's size). */
  highWater = 0;
  /** Bytes written in all (each spill once). */
  bytesWritten = 0;

  /** A spill for the conversion writing `output` (the file is made only if something is spilled). */
  constructor(output: string) {
    this.path = tempPathFor(`${output}.shadows`);
  }

  write(parts: readonly Uint8Array[]): number {
    const position = this.end;
    let at = position;
    try {
      const fd = this.open();
      for (const part of parts) {
        let done = 0;
        while (done < part.length) done += writeSync(fd, part, done, part.length - done, at + done);
        at += part.length;
      }
    } catch (e) {
      // The output's own failure (ENOSPC…): the conversion reports it as a write error of the output.
      throw new SinkWriteError(e);
    }
    this.regions.push({ position, end: at, live: true });
    this.end = at;
    this.bytesWritten += at - position;
    if (at > this.highWater) this.highWater = at;
    return position;
  }

  read(position: number, into: Uint8Array): void {
    if (this.fd === undefined) throw new Error(`${this.path}: read of spilled shadows before any were written`);
    let done = 0;
    while (done < into.length) {
      let n: number;
      try {
        n = readSync(this.fd, into, done, into.length - done, position + done);
      } catch (e) {
        throw new SinkWriteError(e);
      }
      if (n === 0) throw new Error(`${this.path}: spilled shadows end at byte ${position + done}, ${into.length - done} bytes short`);
      done += n;
    }
  }

  free(position: number): void {
    const regions = this.regions;
    for (let i = regions.length - 1; i >= 0; i--) {
      if (regions[i]!.position === position && regions[i]!.live) {
        regions[i]!.live = false;
        break;
      }
    }
    while (regions.length > 0 && !regions[regions.length - 1]!.live) regions.pop();
    this.end = regions.length > 0 ? regions[regions.length - 1]!.end : 0;
  }

  /** Closes (and removes) the file; idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    if (!this.unlinked) {
      try {
        unlinkSync(this.path);
      } catch {
        // gone already
      }
      this.unlinked = true;
    }
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    this.fd = openSync(this.path, 'wx+', 0o600);
    try {
      unlinkSync(this.path);
      this.unlinked = true;
    } catch {
      // Windows: an open file cannot be removed; close() does
    }
    return this.fd;
  }
}
