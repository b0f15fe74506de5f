/**
 * The real drawables of one open tree node, as columns (the DrawableBatch layout, grown on
 * demand): each arriving drawable is copied in from its batch, so the writer keeps no drawable
 * object and no batch alive, and writing the node is sorting indices by typed keys and encoding
 * each entry once, straight into the output.
 */
import { appendEntry, newDrawableBatch, resetDrawableBatch, type DrawableBatch } from './drawableBatch';

export class NodeDrawables {
  readonly columns: DrawableBatch = newDrawableBatch(256, 8192);

  get count(): number {
    return this.columns.count;
  }

  /** Appends entry j of a batch. */
  addFrom(b: DrawableBatch, j: number): void {
    appendEntry(this.columns, b, j);
  }

  clear(): void {
    resetDrawableBatch(this.columns);
  }
}
