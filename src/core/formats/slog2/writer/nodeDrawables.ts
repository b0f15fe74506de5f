/**
 * The real drawables of one open tree node, as columns (the DrawableBatch layout, grown on
 * demand): each arriving drawable is copied in from its batch, so the writer keeps no drawable
 * object and no batch alive, and writing the node is sorting indices by typed keys and encoding
 * each entry once, straight into the output.
 */
import { appendEntry, appendRange, newDrawableBatch, resetDrawableBatch, type DrawableBatch } from './drawableBatch';

/** Runs shorter than this are copied entry by entry. */
const RANGE_COPY_MIN = 8;

export class NodeDrawables {
  readonly columns: DrawableBatch = newDrawableBatch(256, 8192);

  get count(): number {
    return this.columns.count;
  }

  /** Appends entries from .. to of a batch (in order). */
  addRange(b: DrawableBatch, from: number, to: number): void {
    // a few entries: one by one (a column copy's set-up costs more than it saves)
    if (to - from < RANGE_COPY_MIN) for (let j = from; j < to; j++) appendEntry(this.columns, b, j);
    else appendRange(this.columns, b, from, to);
  }

  clear(): void {
    resetDrawableBatch(this.columns);
  }
}
