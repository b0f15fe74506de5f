/**
 * The real drawables of one open tree node, as columns (the DrawableBatch layout, grown on
 * demand): each arriving drawable is copied in from its batch, so the writer keeps no drawable
 * object and no batch alive, and writing the node is sorting indices by typed keys and encoding
 * each entry once, straight into the output.
 */
import { appendEntry, appendRange, batchBuffers, newDrawableBatch, resetDrawableBatch, type DrawableBatch } from './drawableBatch';

/** Runs shorter than this are copied entry by entry. */
const RANGE_COPY_MIN = 8;

/**
 * Columns grown past this are let go when their node is written, not kept for the next node at
 * that depth. On a wide trace a node of the trunk holds tens of thousands of long states now and
 * then (16 384 ranks: up to ~60 000, 7 MB of columns) and most of the time a few or none: kept,
 * every depth's largest node stayed allocated — at the trunk's peak of 64 MB, 37 MB were the
 * columns of empty nodes (36 MB in all since).
 * A leaf-sized node (64 KiB of entries: ~1 000 of them, ~150 KB of columns) stays below it.
 */
const KEEP_BYTES = 1 << 20;

const INITIAL_ENTRIES = 256;
const INITIAL_INFO_BYTES = 8192;

export class NodeDrawables {
  columns: DrawableBatch = newDrawableBatch(INITIAL_ENTRIES, INITIAL_INFO_BYTES);

  get count(): number {
    return this.columns.count;
  }

  /** Appends entries from .. to of a batch (in order). */
  addRange(b: DrawableBatch, from: number, to: number): void {
    // a few entries: one by one (a column copy's set-up costs more than it saves)
    if (to - from < RANGE_COPY_MIN) for (let j = from; j < to; j++) appendEntry(this.columns, b, j);
    else appendRange(this.columns, b, from, to);
  }

  /** Empties the node for the next one at its depth (see KEEP_BYTES). */
  clear(): void {
    if (columnBytes(this.columns) > KEEP_BYTES) this.columns = newDrawableBatch(INITIAL_ENTRIES, INITIAL_INFO_BYTES);
    else resetDrawableBatch(this.columns);
  }
}

function columnBytes(b: DrawableBatch): number {
  let n = 0;
  for (const buffer of batchBuffers(b)) n += buffer.byteLength;
  return n;
}
