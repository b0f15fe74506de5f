/**
 * Result types of the statistics core (SLOG2.md §16 "Recommendation for this project").
 * Times are seconds. These plain objects cross the worker and webview boundaries unchanged.
 */
import type { Rgba, Topology } from '../model/types';

/** How the numbers were obtained: exact = from every real drawable overlapping the range;
 * approximate = Jumpshot's way from the shadows of a coarser tree level (§16);
 * summary = the whole-file CategoryMap summaries, without reading any node (§12.3). */
export type StatsKind = 'exact' | 'approximate' | 'summary';

/** One drawable instance, enough for the timeline to jump to it. */
export interface InstanceRef {
  readonly earliest: number;
  readonly latest: number;
  readonly lineID: number;
}

export interface CategoryStat {
  readonly index: number;
  readonly name: string;
  readonly kind: Topology;
  readonly rgba: Rgba;
  /** Drawables overlapping the range (fractional for approximate results). */
  readonly count: number;
  /** Σ durations clipped to the range, over all timelines (nested states count in each enclosing one too). */
  readonly inclusive: number;
  /** Inclusive minus the clipped time of directly nested states on the same timeline (states only; 0 otherwise). */
  readonly exclusive: number;
  /** Full (unclipped) durations; undefined when unknown (summary / shadow-only results). */
  readonly min?: number;
  readonly mean?: number;
  readonly max?: number;
  /**
   * States only: exclusive ÷ (range length × timelines in scope), the fraction of all timelines'
   * time spent in this state itself; the states' shares sum to at most 1. Undefined for arrows and
   * events (they get a count, and arrows bytes, not a time share).
   */
  readonly share?: number;
  /** Arrows only: Σ message sizes (bytes) of the arrows counted; undefined when unknown (summary). */
  readonly bytes?: number;
  readonly shortest?: InstanceRef;
  readonly longest?: InstanceRef;
}

export interface RowCategoryStat {
  readonly index: number;
  readonly name: string;
  readonly count: number;
  readonly inclusive: number;
  readonly exclusive: number;
}

export interface RowStat {
  readonly lineID: number;
  /** The path of this line ID in the first LineIDMap, joined by spaces (e.g. world rank "3"). */
  readonly label: string;
  /** Communicator of this line ID when a map has a commID column. */
  readonly comm?: number;
  /** Per category on this timeline; arrows count on their sender's row. Sorted by inclusive, descending. */
  readonly categories: readonly RowCategoryStat[];
}

export interface MessagePairStat {
  /** Sender / receiver line IDs (first / last vertex of the arrow). */
  readonly from: number;
  readonly to: number;
  readonly count: number;
  readonly bytes: number;
}

export interface MessageKeyStat {
  readonly key: number;
  readonly count: number;
  readonly bytes: number;
}

export interface SizeBucket {
  /** Sizes in [lower, upper) bytes; the first bucket is [0, 1). */
  readonly lower: number;
  readonly upper: number;
  readonly count: number;
}

export interface MessageStats {
  readonly count: number;
  readonly bytes: number;
  /** Arrows whose info did not yield a size (counted, no bytes). */
  readonly withoutSize: number;
  readonly pairs: readonly MessagePairStat[];
  readonly tags: readonly MessageKeyStat[];
  /** By the sender's communicator, when derivable from a LineIDMap with a commID column. */
  readonly comms: readonly MessageKeyStat[];
  readonly sizes: readonly SizeBucket[];
}

export interface DurationBucket {
  /** Durations in [lower, upper) seconds. */
  readonly lower: number;
  readonly upper: number;
  readonly count: number;
}

export interface DurationHistogram {
  readonly index: number;
  /** Drawables of duration 0. */
  readonly zero: number;
  readonly buckets: readonly DurationBucket[];
}

export interface RangeStats {
  readonly kind: StatsKind;
  readonly range: readonly [number, number];
  /** Sorted by inclusive time, descending. */
  readonly categories: readonly CategoryStat[];
  /** Sorted by line ID. Empty for summary results. */
  readonly rows: readonly RowStat[];
  readonly messages: MessageStats;
  /** Per state/arrow category with at least one drawable (log buckets, BUCKETS_PER_DECADE per ×10). */
  readonly durations: readonly DurationHistogram[];
  /** Real drawables (primitives) that overlapped the range. */
  readonly drawables: number;
  /** Timelines in scope: the line IDs of the trace's first LineIDMap plus any others with data (≥ 1). */
  readonly timelines: number;
  /** States that end before they start (CLOG2.md: duration counted as 0, drawn at the start time). */
  readonly clampedStates: number;
}

export interface StatsProgress {
  readonly drawables: number;
  readonly batches: number;
  /** 0–1, from the time reached so far (when batches carry bounds). */
  readonly fraction?: number;
}
