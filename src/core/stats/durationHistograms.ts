/**
 * Duration histograms per category: log buckets, BUCKETS_PER_DECADE per factor of 10, counted in
 * one dense array per category (one add per arrow and state: 23 M for 1 GB of SLOG-2, where a
 * map of maps cost more than the counting). Durations ≤ 0 are counted apart.
 */
import { CategoryTable } from './categoryTable';
import { LogBuckets } from './logBuckets';
import type { HistogramPart } from './statsPart';
import type { DurationBucket, DurationHistogram } from './types';

/** Duration histogram resolution: buckets per factor of 10. */
export const BUCKETS_PER_DECADE = 4;

/** Bucket of the smallest positive double (log10 ≈ −323.3) and one past that of the largest (≈ 308.3). */
const LOWEST_BUCKET = Math.floor(Math.log10(Number.MIN_VALUE) * BUCKETS_PER_DECADE);
const SLOTS = Math.floor(Math.log10(Number.MAX_VALUE) * BUCKETS_PER_DECADE) + 1 - LOWEST_BUCKET;
const BUCKETS = new LogBuckets(BUCKETS_PER_DECADE);

export class DurationHistograms {
  private readonly counts = new CategoryTable<Float64Array>();
  /** Durations ≤ 0 per category. */
  private readonly zero = new CategoryTable<number>();
  /** The last category asked and its counts: a repeat skips the table. */
  private lastCategory = NaN;
  private lastCounts: Float64Array | undefined;

  add(category: number, duration: number): void {
    if (duration <= 0) {
      this.zero.set(category, (this.zero.get(category) ?? 0) + 1);
      return;
    }
    const counts = category === this.lastCategory ? this.lastCounts! : this.countsOf(category);
    // A non-finite duration has no bucket (the category is still listed).
    if (duration < Infinity) counts[BUCKETS.of(duration) - LOWEST_BUCKET]++;
  }

  private countsOf(category: number): Float64Array {
    let counts = this.counts.get(category);
    this.lastCategory = category;
    if (counts === undefined) this.counts.set(category, (counts = new Float64Array(SLOTS)));
    this.lastCounts = counts;
    return counts;
  }

  /** The counts of each category, from its first used bucket to its last. */
  part(): HistogramPart[] {
    const zero = new Map(this.zero.entries());
    const out: HistogramPart[] = [];
    for (const [category, counts] of this.counts.entries()) {
      const [first, last] = usedSlots(counts);
      out.push({ category, zero: zero.get(category) ?? 0, first, counts: counts.slice(first, last + 1) });
      zero.delete(category);
    }
    for (const [category, n] of zero) out.push({ category, zero: n, first: 0, counts: new Float64Array(0) });
    return out;
  }

  /** Adds another set of histograms into these (its slots past the end are ignored: they cannot be filled). */
  absorb(parts: readonly HistogramPart[]): void {
    for (const h of parts) {
      if (h.zero > 0) this.zero.set(h.category, (this.zero.get(h.category) ?? 0) + h.zero);
      if (h.counts.length === 0) continue;
      const counts = this.countsOf(h.category);
      const n = Math.min(h.counts.length, SLOTS - h.first);
      for (let i = 0; i < n; i++) counts[h.first + i] += h.counts[i]!;
    }
  }

  /** Per category (ascending) with at least one duration: the dense run of buckets from the first to the last used. */
  result(): DurationHistogram[] {
    const withCounts = new Map(this.counts.entries());
    const zero = new Map(this.zero.entries());
    const indices = new Set([...withCounts.keys(), ...zero.keys()]);
    const out: DurationHistogram[] = [];
    for (const index of [...indices].sort((a, b) => a - b)) {
      const counts = withCounts.get(index);
      const buckets: DurationBucket[] = [];
      if (counts !== undefined) {
        const [first, last] = usedSlots(counts);
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

/** The first and last slot with a count (last < first when none). */
function usedSlots(counts: Float64Array): [number, number] {
  let first = 0;
  while (first < SLOTS && counts[first] === 0) first++;
  let last = SLOTS - 1;
  while (last >= first && counts[last] === 0) last--;
  return [first, last];
}
