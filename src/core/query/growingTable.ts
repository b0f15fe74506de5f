/** The tables of a window as buildWindow reads them (buildWindow.ts). */
import { grown } from '../bytes/grown';

/**
 * A table as it is read, one float64 column per field (any number as a JS array held it), grown by
 * doubling: off the JS heap, so that the collector does not copy them. As arrays of numbers grown
 * by push, a dense window's columns were most of what each scavenge copied (a whole-trace window
 * of the viewport bench's trace: ~500 MB of heap, ~2.2 s of GC in ~8.5 s of building).
 */
export class Growing {
  length = 0;
  t0 = new Float64Array(0);
  t1 = new Float64Array(0);
  row = new Float64Array(0);
  row2 = new Float64Array(0);
  category = new Float64Array(0);
  flags = new Float64Array(0);
  count = new Float64Array(0);
  time = new Float64Array(0);
  /** Identity of each entry (real drawables; −1 / NaN for shadows), when asked for. */
  nodeDepth = new Float64Array(0);
  nodeXpos = new Float64Array(0);
  earliest = new Float64Array(0);

  /** The index of a new entry (its fields to be set), the columns grown if full. */
  add(identities: boolean): number {
    const i = this.length;
    if (i === this.t0.length) {
      const need = i + 1;
      this.t0 = grown(this.t0, need);
      this.t1 = grown(this.t1, need);
      this.row = grown(this.row, need);
      this.row2 = grown(this.row2, need);
      this.category = grown(this.category, need);
      this.flags = grown(this.flags, need);
      this.count = grown(this.count, need);
      this.time = grown(this.time, need);
      if (identities) {
        this.nodeDepth = grown(this.nodeDepth, need);
        this.nodeXpos = grown(this.nodeXpos, need);
        this.earliest = grown(this.earliest, need);
      }
    }
    this.length = i + 1;
    return i;
  }
}

/** a[0 .. na) then b[0 .. nb), as one array. */
export function joined(a: Float64Array, na: number, b: Float64Array, nb: number): Float64Array {
  const out = new Float64Array(na + nb);
  out.set(a.subarray(0, na));
  out.set(b.subarray(0, nb), na);
  return out;
}
