/**
 * A small least-recently-used map (Map iteration order = recency order): the reader's node cache
 * and the host's payload cache. Keys are strings unless said otherwise. Bounded by entry count
 * and, when entries are given a weight, by their total weight (the newest entry always stays).
 */
export class LruCache<V, K = string> {
  private readonly map = new Map<K, V>();
  private readonly weights = new Map<K, number>();
  private weighed = 0;

  constructor(
    readonly capacity: number,
    /** Most total weight kept (e.g. bytes). */
    readonly budget = Infinity,
    /** Called with each entry dropped to keep the bounds (not for delete or clear). */
    private readonly onEvict?: (value: V, key: K) => void,
  ) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    this.map.set(key, value);
    if (weight > 0) {
      this.weights.set(key, weight);
      this.weighed += weight;
    }
    while (this.map.size > 1 && (this.map.size > Math.max(1, this.capacity) || this.weighed > this.budget)) {
      const oldest = this.map.keys().next().value as K;
      const evicted = this.map.get(oldest)!;
      this.delete(oldest);
      this.onEvict?.(evicted, oldest);
    }
  }

  delete(key: K): void {
    this.map.delete(key);
    const w = this.weights.get(key);
    if (w !== undefined) {
      this.weights.delete(key);
      this.weighed -= w;
    }
  }

  clear(): void {
    this.map.clear();
    this.weights.clear();
    this.weighed = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** Total weight of the entries kept. */
  get weight(): number {
    return this.weighed;
  }
}
