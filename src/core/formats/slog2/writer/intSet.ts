/**
 * A set of integers that is a flat bitmap for small non-negative values (category indices,
 * lineIDs: the common case, one array access per add) and a Set for the rest.
 */
export class IntSet {
  private bits = new Uint8Array(1024);
  private readonly others = new Set<number>();

  constructor(private readonly bitmapLimit = 1 << 24) {}

  add(v: number): void {
    if (v >= 0 && v < this.bitmapLimit) {
      if (v >= this.bits.length) this.grow(v);
      this.bits[v] = 1;
    } else this.others.add(v);
  }

  /** Adds v; true if the set did not hold it before (one array access for a small value). */
  addNew(v: number): boolean {
    const bits = this.bits;
    if (v >= 0 && v < bits.length) {
      if (bits[v] === 1) return false;
      bits[v] = 1;
      return true;
    }
    if (this.has(v)) return false;
    this.add(v);
    return true;
  }

  has(v: number): boolean {
    if (v >= 0 && v < this.bitmapLimit) return v < this.bits.length && this.bits[v] === 1;
    return this.others.has(v);
  }

  private grow(v: number): void {
    let n = this.bits.length * 2;
    while (n <= v) n *= 2;
    const next = new Uint8Array(Math.min(n, this.bitmapLimit));
    next.set(this.bits);
    this.bits = next;
  }

  /** All members, ascending. */
  values(): number[] {
    const out: number[] = [];
    for (const v of this.others) if (v < 0) out.push(v);
    for (let i = 0; i < this.bits.length; i++) if (this.bits[i] === 1) out.push(i);
    for (const v of this.others) if (v >= 0) out.push(v);
    return out.sort((a, b) => a - b);
  }
}
