/**
 * The counted part of a statistics run that owned only some of the range's drawables (one half of
 * a range split by time, counted in another thread: columnStats.ts): every accumulator's sums as
 * plain typed columns, which cross a thread boundary by structured clone and are added into the
 * other half's accumulator (RangeStatsAccumulator.absorb). Nothing here is a result yet: the
 * nesting is settled, the cells and histograms are raw sums.
 */
/** Per (row, category) cell, column-wise; shortest/longest as (earliest, latest, lineID) triples, NaN for none. */
export interface CellsPart {
  readonly lineID: Float64Array;
  readonly category: Float64Array;
  readonly count: Float64Array;
  readonly bytes: Float64Array;
  readonly inclusive: Float64Array;
  readonly exclusive: Float64Array;
  readonly durations: Float64Array;
  readonly sum: Float64Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  readonly shortest: Float64Array;
  readonly longest: Float64Array;
}

/** One category's duration buckets from slot `first` on, and its count of durations ≤ 0. */
export interface HistogramPart {
  readonly category: number;
  readonly zero: number;
  readonly first: number;
  readonly counts: Float64Array;
}

/** Message sums; pairs as (from, to, count, bytes) quadruples, tags and comms as (key, count, bytes) triples. */
export interface MessagesPart {
  readonly count: number;
  readonly bytes: number;
  readonly withoutSize: number;
  readonly pairs: Float64Array;
  readonly tags: Float64Array;
  readonly comms: Float64Array;
  readonly sizeBuckets: Float64Array;
}

export interface StatsPart {
  readonly range: readonly [number, number];
  readonly cells: CellsPart;
  readonly histograms: readonly HistogramPart[];
  readonly messages: MessagesPart;
  readonly drawables: number;
  readonly clampedStates: number;
}
