/**
 * Values by a small integer key (a category index; the nesting's line IDs), on the statistics'
 * per-drawable path: an array for the keys in [0, dense limit) (every category of a real trace,
 * MPE's ranks 0…n−1), a map for the rest (previews' negative indices, huge ids from damaged files).
 * A map lookup per drawable cost more than the counting it served.
 */
const DENSE = 1 << 16;

export class CategoryTable<T> {
  private readonly dense: (T | undefined)[] = [];
  private readonly sparse = new Map<number, T>();

  /** `denseLimit`: keys below it go in the array (it grows to the largest one seen). */
  constructor(private readonly denseLimit = DENSE) {}

  private isDense(key: number): boolean {
    return key >= 0 && key < this.denseLimit && Number.isInteger(key);
  }

  get(key: number): T | undefined {
    return this.isDense(key) ? this.dense[key] : this.sparse.get(key);
  }

  set(key: number, value: T): void {
    if (this.isDense(key)) {
      // Holes filled so the array stays packed (indices are small and few).
      while (this.dense.length < key) this.dense.push(undefined);
      this.dense[key] = value;
    } else this.sparse.set(key, value);
  }

  /** Every entry, keys ascending. */
  entries(): [number, T][] {
    const out: [number, T][] = [...this.sparse];
    this.dense.forEach((v, key) => {
      if (v !== undefined) out.push([key, v]);
    });
    return out.sort((a, b) => a[0] - b[0]);
  }
}
