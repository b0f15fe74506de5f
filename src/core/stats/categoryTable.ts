/**
 * Values by category index, on the statistics' per-drawable path: an array for the indices in
 * [0, DENSE) (every category of a real trace), a map for the rest (previews' negative indices,
 * huge ids from damaged files). A map lookup per drawable cost more than the counting it served.
 */
const DENSE = 1 << 16;

const isDense = (key: number): boolean => key >= 0 && key < DENSE && Number.isInteger(key);

export class CategoryTable<T> {
  private readonly dense: (T | undefined)[] = [];
  private readonly sparse = new Map<number, T>();

  get(key: number): T | undefined {
    return isDense(key) ? this.dense[key] : this.sparse.get(key);
  }

  set(key: number, value: T): void {
    if (isDense(key)) {
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
