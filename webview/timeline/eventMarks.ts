/**
 * The real events a frame draws (drawArrows.ts drawEvents fills them, in drawing order), as
 * columns that the stems' and the heads' pixel layers read in one call each (eventStems.ts,
 * headLayer.ts). A call per event took its x, its base and its colour as arguments, and V8 boxes
 * each one that is not a small integer (a double; a colour with alpha ≥ 64 is above 2³⁰): ~1 MB
 * of garbage a dense frame of the viewport bench, and the collections it set off fell in frames.
 */
import { grown } from './grown';

export class EventMarks {
  count = 0;
  /** The head's x and the y of its base (CSS px). */
  xe: Float64Array = new Float64Array(0);
  top: Float64Array = new Float64Array(0);
  /** The stem's visible row (from the first visible one) and pixel column. */
  row: Int32Array = new Int32Array(0);
  col: Int32Array = new Int32Array(0);
  /** The colour (rgbaOf) and its colour run: within a run the marks are one shape, runs go over each other. */
  rgba: Uint32Array = new Uint32Array(0);
  run: Int32Array = new Int32Array(0);

  /** Empties the marks (their room stays: what the densest frame so far drew). */
  begin(): void {
    this.count = 0;
  }

  /** Twice the room (at least 1024), the marks kept. */
  grow(): void {
    const need = Math.max(1024, 2 * this.xe.length);
    this.xe = grown(this.xe, need);
    this.top = grown(this.top, need);
    this.row = grown(this.row, need);
    this.col = grown(this.col, need);
    this.rgba = grown(this.rgba, need);
    this.run = grown(this.run, need);
  }
}
