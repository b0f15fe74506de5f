/**
 * `Math.floor(Math.log10(d) * perDecade)` for positive finite durations without the log on the
 * statistics' per-drawable path (23 M calls for 1 GB of SLOG-2, where the log was a sixth of the
 * counting). Within one binade [2^e, 2^(e+1)) the bucket takes at most three values; where it
 * changes is found once per binade by bisecting the doubles with the same formula, so the answer
 * is the formula's own wherever the formula does not decrease as d grows (`Math.log10` is
 * monotone to well under an ulp; the test checks the boundaries). Subnormals, which span many
 * decades in one binade, take the formula.
 */

const view = new DataView(new ArrayBuffer(8));
/** The same double's high word through typed arrays (faster than the view on the hot path). */
const f64 = new Float64Array(1);
const words = new Uint32Array(f64.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

export class LogBuckets {
  /** Per biased exponent (1…2046): 1 once its entry is filled. */
  private readonly filled = new Uint8Array(2048);
  /** The bucket of the binade's first double. */
  private readonly base = new Int32Array(2048);
  /** Where the bucket goes up by one and by two in the binade (+∞: it does not). */
  private readonly up1 = new Float64Array(2048);
  private readonly up2 = new Float64Array(2048);

  /** `perDecade` ≤ 6: a binade then spans under two buckets' width, so at most two steps up. */
  constructor(private readonly perDecade: number) {
    if (!(perDecade > 0 && perDecade * Math.log10(2) < 2)) throw new RangeError(`${perDecade} buckets per decade: at most 6`);
  }

  /** The formula itself. */
  exact(d: number): number {
    return Math.floor(Math.log10(d) * this.perDecade);
  }

  /** The bucket of `d` > 0, finite. */
  of(d: number): number {
    f64[0] = d;
    const e = words[HIGH]! >>> 20;
    if (e === 0 || e >= 2047) return this.exact(d);
    if (this.filled[e] === 0) this.fill(e);
    return this.base[e]! + (d >= this.up1[e]! ? 1 : 0) + (d >= this.up2[e]! ? 1 : 0);
  }

  private fill(e: number): void {
    const first = doubleOf(e, 0);
    const last = doubleOf(e, 2 ** 52 - 1);
    const b0 = this.exact(first);
    const b1 = this.exact(last);
    this.base[e] = b0;
    this.up1[e] = b1 > b0 ? this.firstReaching(e, b0 + 1) : Infinity;
    this.up2[e] = b1 > b0 + 1 ? this.firstReaching(e, b0 + 2) : Infinity;
    this.filled[e] = 1;
  }

  /** The smallest double of binade `e` whose bucket is at least `bucket` (one exists). */
  private firstReaching(e: number, bucket: number): number {
    let lo = 0;
    let hi = 2 ** 52 - 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.exact(doubleOf(e, mid)) >= bucket) hi = mid;
      else lo = mid + 1;
    }
    return doubleOf(e, lo);
  }
}

/** The positive double with biased exponent `e` and 52-bit fraction `fraction`. */
function doubleOf(e: number, fraction: number): number {
  view.setUint32(0, (e << 20) | Math.floor(fraction / 2 ** 32));
  view.setUint32(4, fraction % 2 ** 32);
  return view.getFloat64(0);
}
