/** What `synthesizeClog2` (synthClog2.ts) is asked for, and what it reports having written. */
import type { ChunkSink } from './clog2Writer';

export interface SynthOptions {
  readonly ranks: number;
  /** Simulated seconds to generate (stops at the first iteration ending after this time). */
  readonly seconds?: number;
  /** Stop once about this many bytes were written (whichever of seconds/bytes comes first). */
  readonly bytes?: number;
  /** Threads per process (≥ 1); threads 1… run ThreadWork with MPI_Sendrecv. */
  readonly threads?: number;
  /** Write SRCLOC records before the user events. */
  readonly srcloc?: boolean;
  /** Split the ranks into two sub-communicators at init and run an MPI_Allreduce on them every 4th iteration. */
  readonly subComms?: boolean;
  readonly seed?: number;
  /**
   * Make one user state longer (or shorter) by a factor, on one rank or all: the random draws stay
   * the same, so two runs with the same seed differ by exactly that (for run-comparison tests).
   */
  readonly stretch?: SynthStretch;
  /** Stop after this many iterations (whichever of seconds/bytes/iterations comes first). */
  readonly iterations?: number;
  /** Idle seconds between MPI_Init and the first iteration (runs that start at different times). */
  readonly startDelay?: number;
  readonly blockSize?: number;
  /** Write little-endian binary data (is_big_endian=FALSE), as a local file on x86 would be. */
  readonly littleEndian?: boolean;
  /** Receives the file bytes in order. */
  readonly sink: ChunkSink;
  /**
   * Called at the end with the final preamble (it names the comm table's offset, known only then),
   * to be written over the first 1024 bytes. Without it the preamble says commtable_fptr = 0, which
   * readers treat like a run that died before writing the table.
   */
  readonly rewritePreamble?: (preamble: Uint8Array) => Promise<void>;
}

export interface SynthStretch {
  /** A user state whose own length is drawn: 'Kernel' or 'Compute'. */
  readonly category: 'Kernel' | 'Compute';
  /** Only this world rank; all ranks when undefined. */
  readonly rank?: number;
  readonly factor: number;
}

export interface SynthExpectation {
  readonly kind: 'state' | 'arrow' | 'event';
  count: number;
  /** Drawables whose start / end vertex carries a SRCLOC location. */
  sourcedStart: number;
  sourcedEnd: number;
}

export interface SynthReport {
  readonly bytes: number;
  readonly blocks: number;
  readonly iterations: number;
  /** Records written by record-type name (markers included). */
  readonly records: Record<string, number>;
  /** Drawables a correct reader must produce, per category name. */
  readonly drawables: ReadonlyMap<string, SynthExpectation>;
  readonly srclocRecords: number;
  readonly srclocSites: number;
  readonly commtableFptr: number;
}
