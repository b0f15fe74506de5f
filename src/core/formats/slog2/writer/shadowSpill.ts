/**
 * Finished shadow buffers kept out of memory while they wait for their parent node (SLOG2.md §11:
 * a written node's buffer is merged into its parent and written in the parent's block only when
 * the parent is written). Every node of a time-sliced tree covers every timeline, so on a wide
 * trace each waiting buffer high in the trunk holds a row for nearly every timeline and each kind
 * of drawable on it: at 16 384 ranks, several MB each, most of the writer's memory. Spilled, such
 * a buffer is its columns' bytes in a file until the parent reads them back, once.
 *
 * The columns are stored as they are (not as the §7.4 bytes): the merge reads the rows in their
 * creation order and the weights in insertion order, which break the output's ties.
 */
import type { ShadowColumns } from './shadowColumns';

/** Where spilled bytes go; the writer is synchronous, so is this. */
export interface ShadowSpill {
  /** Stores the parts one after another; returns where the first starts (for read and free). */
  write(parts: readonly Uint8Array[]): number;
  /** Fills `into` with the bytes stored at `position`. */
  read(position: number, into: Uint8Array): void;
  /** The bytes stored at `position` (one write's) are not needed any more. */
  free(position: number): void;
}

/** A spilled column set: where, and what it takes to read it back. */
export interface SpilledColumns {
  readonly position: number;
  readonly rows: number;
  readonly arenaWords: number;
}

/**
 * Waiting buffers of at least this many bytes are spilled (when a spill is given): at 2048 ranks
 * a high node's buffer is 1–2 MB (spilled, the same peak and time); at 16 384 ranks, 5–10 MB, and
 * the 2–4 MB ones of the middle levels that stayed in memory with 4 MB cost ~11 MB of peak RSS.
 */
export const SPILL_MIN_BYTES = 2 << 20;

function bytesView(a: Float64Array | Uint32Array | Int32Array | Uint8Array, n: number): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, n * a.BYTES_PER_ELEMENT);
}

/** The spilled columns, in an order that keeps each aligned in one buffer: doubles, words, the arena, bytes. */
function columnParts(c: ShadowColumns, rows: number, arenaWords: number): Uint8Array[] {
  return [
    bytesView(c.key, rows),
    bytesView(c.earliest, rows),
    bytesView(c.latest, rows),
    bytesView(c.numRealObjs, rows),
    bytesView(c.time0, rows),
    bytesView(c.time1, rows),
    bytesView(c.vertices, rows),
    bytesView(c.line0, rows),
    bytesView(c.line1, rows),
    bytesView(c.weightStart, rows),
    bytesView(c.weightCount, rows),
    bytesView(c.weightRoom, rows),
    bytesView(c.arenaBits, arenaWords),
    bytesView(c.topology, rows),
    bytesView(c.hasWeights, rows),
  ];
}

/**
 * Whether `c` can be spilled: only plain rows (string keys and rows of more than two vertices live
 * in maps; no converter makes them, and such a buffer stays in memory).
 */
export function spillable(c: ShadowColumns): boolean {
  return c.stringKeys === undefined && c.wide === undefined;
}

/** Writes the finished rows of `c` (members folded in: memberCount and collectsChildren are 0). */
export function spillColumns(spill: ShadowSpill, c: ShadowColumns): SpilledColumns {
  const rows = c.count;
  const arenaWords = c.arenaUsed;
  return { position: spill.write(columnParts(c, rows, arenaWords)), rows, arenaWords };
}

/** Reads spilled rows back into `c` (empty, with room for them: ShadowColumns.ensure). */
export function restoreColumns(spill: ShadowSpill, s: SpilledColumns, c: ShadowColumns): void {
  c.ensure(s.rows, s.arenaWords);
  let at = s.position;
  for (const part of columnParts(c, s.rows, s.arenaWords)) {
    spill.read(at, part);
    at += part.length;
  }
  c.count = s.rows;
  c.arenaUsed = s.arenaWords;
  c.memberCount.fill(0, 0, s.rows);
  c.collectsChildren.fill(0, 0, s.rows);
}
