/**
 * The waits the critical path can follow, as columns in fixed-size chunks: millions of waits stay
 * small (24 bytes each), and growing never copies (doubling flat columns held the old and the new
 * arrays at once: ~100 MB more at the peak of a 1 GB analysis).
 */

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

interface HopChunk {
  readonly waiter: Int32Array;
  readonly causer: Int32Array;
  readonly resume: Float64Array;
  readonly causerTime: Float64Array;
}

export class HopColumns {
  private count = 0;
  private chunks: HopChunk[] = [];

  get length(): number {
    return this.count;
  }

  /** A new slot (its fields are set with `set`). */
  push(): number {
    if (this.count === this.chunks.length * CHUNK)
      this.chunks.push({
        waiter: new Int32Array(CHUNK),
        causer: new Int32Array(CHUNK),
        resume: new Float64Array(CHUNK),
        causerTime: new Float64Array(CHUNK),
      });
    return this.count++;
  }

  /**
   * Slot `i`: `waiter` resumed at `resume` (the end of its wait); the path continues on `causer`
   * at `causerTime` (the moment it released the waiter).
   */
  set(i: number, waiter: number, causer: number, resume: number, causerTime: number): void {
    const c = this.chunks[i >>> CHUNK_BITS]!;
    const k = i & MASK;
    c.waiter[k] = waiter;
    c.causer[k] = causer;
    c.resume[k] = resume;
    c.causerTime[k] = causerTime;
  }

  waiter(i: number): number {
    return this.chunks[i >>> CHUNK_BITS]!.waiter[i & MASK]!;
  }

  causer(i: number): number {
    return this.chunks[i >>> CHUNK_BITS]!.causer[i & MASK]!;
  }

  resume(i: number): number {
    return this.chunks[i >>> CHUNK_BITS]!.resume[i & MASK]!;
  }

  causerTime(i: number): number {
    return this.chunks[i >>> CHUNK_BITS]!.causerTime[i & MASK]!;
  }

  /** Drops every hop (the walk is done: the second pass needs the memory more). */
  clear(): void {
    this.chunks = [];
    this.count = 0;
  }
}
