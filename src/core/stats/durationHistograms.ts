/**
 * Duration histograms per category: log buckets, BUCKETS_PER_DECADE per factor of 10, counted in
 * one dense array per category (one add per arrow and state: 23 M for 1 GB of SLOG-2, where a
 * map of maps cost more than the counting). Durations ≤ 0 are counted apart.
 */
import type { DurationBucket, DurationHistogram } from './types';

/** Duration histogram resolution: buckets per factor of 10. */
export const BUCKETS_PER_DECADE = 4;

/** Bucket of the smallest positive double (log10 ≈ −323.3) and one past that of the largest (≈ 308.3). */
const LOWEST_BUCKET = Math.floor(Math.log10(Number.MIN_VALUE) * BUCKETS_PER_DECADE);
const SLOTS = Math.floor(Math.log10(Number.MAX_VALUE) * BUCKETS_PER_DECADE) + 1 - LOWEST_BUCKET;
/** Categories in [0, DENSE) find their counts by index; others by a map. */
const DENSE = 4096;

export class DurationHistograms {
  private readonly dense: (Float64Array | undefined)[] = [];
  private readonly sparse = new Map<number, Float64Array>();
  /** Durations ≤ 0 per category: by index for the dense categories (0 = none), else by map. */
  private readonly zeroDense: number[] = [];
  private readonly zeroSparse = new Map<number, number>();

  add(category: number, duration: number): void {
    if (duration <= 0) {
      if (category >= 0 && category < DENSE && Number.isInteger(category)) {
        while (this.zeroDense.length <= category) this.zeroDense.push(0);
        this.zeroDense[category]++;
      } else this.zeroSparse.set(category, (this.zeroSparse.get(category) ?? 0) + 1);
      return;
    }
    const counts = this.countsOf(category);
    // A non-finite duration has no bucket (the category is still listed).
    if (duration < Infinity) counts[Math.floor(Math.log10(duration) * BUCKETS_PER_DECADE) - LOWEST_BUCKET]++;
  }

  private countsOf(category: number): Float64Array {
    const dense = category >= 0 && category < DENSE && Number.isInteger(category);
    let counts = dense ? this.dense[category] : this.sparse.get(category);
    if (counts === undefined) {
      counts = new Float64Array(SLOTS);
      if (dense) {
        // Fill holes so the array stays packed.
        while (this.dense.length < category) this.dense.push(undefined);
        this.dense[category] = counts;
      } else this.sparse.set(category, counts);
    }
    return counts;
  }

  /** Per category (ascending) with at least one duration: the dense run of buckets from the first to the last used. */
  result(): DurationHistogram[] {
    const withCounts = new Map<number, Float64Array>(this.sparse);
    this.dense.forEach((counts, category) => {
      if (counts !== undefined) withCounts.set(category, counts);
    });
    const zero = new Map<number, number>(this.zeroSparse);
    this.zeroDense.forEach((n, category) => {
      if (n > 0) zero.set(category, n);
    });
    const indices = new Set([...withCounts.keys(), ...zero.keys()]);
    const out: DurationHistogram[] = [];
    for (const index of [...indices].sort((a, b) => a - b)) {
      const counts = withCounts.get(index);
      const buckets: DurationBucket[] = [];
      if (counts !== undefined) {
        let first = 0;
        while (first < SLOTS && counts[first] === 0) first++;
        let last = SLOTS - 1;
        while (last >= first && counts[last] === 0) last--;
        // Dense from the first to the last bucket, so charts show the gaps.
        for (let slot = first; slot <= last; slot++) {
          const b = slot + LOWEST_BUCKET;
          buckets.push({ lower: 10 ** (b / BUCKETS_PER_DECADE), upper: 10 ** ((b + 1) / BUCKETS_PER_DECADE), count: counts[slot]! });
        }
      }
      out.push({ index, zero: zero.get(index) ?? 0, buckets });
    }
    return out;
  }
}
