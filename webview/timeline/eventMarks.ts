/**
 * The real events a frame draws (drawArrows.ts drawEvents fills them, in drawing order), as
 * columns that the stems' and the heads' pixel layers read in one call each (eventStems.ts,
 * headLayer.ts). A call per event took its x, its base and its colour as arguments, and V8 boxes
 * each one that is not a small integer (a double; a colour with alpha ≥ 64 is above 2³⁰): ~1 MB
 * of garbage a dense frame of the viewport bench, and the collections it set off fell in frames.
 */
export class EventMarks {
  count = 0;
  /** The head's x and the y of its base (CSS px). */
  xe = new Float64Array(0);
  top = new Float64Array(0);
  /** The stem's visible row (from the first visible one) and pixel column. */
  row = new Int32Array(0);
  col = new Int32Array(0);
  /** The colour (rgbaOf) and its colour run: within a run the marks are one shape, runs go over each other. */
  rgba = new Uint32Array(0);
  run = new Int32Array(0);

  /** Empties the marks, with room for `capacity` of them. */
  begin(capacity: number): void {
    this.count = 0;
    if (this.xe.length >= capacity) return;
    const n = Math.max(capacity, 2 * this.xe.length);
    this.xe = new Float64Array(n);
    this.top = new Float64Array(n);
    this.row = new Int32Array(n);
    this.col = new Int32Array(n);
    this.rgba = new Uint32Array(n);
    this.run = new Int32Array(n);
  }
}
