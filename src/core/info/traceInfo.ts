/**
 * The summary `mpe-trace info --json` prints, for every format (issue 2 / issue 3). For CLOG
 * inputs the numbers are those of the drawables the conversion makes, so they equal the facts of
 * the reference-converted `.slog2`.
 */
import type { Rgba, Topology } from '../model/types';
import type { AlogFacts } from '../formats/alog/convertAlog';
import type { Slog1Facts } from '../formats/slog1/facts';

export interface TraceInfoCategory {
  readonly index: number;
  readonly name: string;
  readonly kind: Topology;
  readonly rgba: Rgba;
  /** The printf-like info format rebuilt from the category's keys/types, or null. */
  readonly infoFormat: string | null;
  /** Real drawables of this category in the file. */
  readonly drawables: number;
}

export interface TraceInfo {
  readonly format: 'slog2' | 'clog2' | 'clog' | 'alog' | 'slog1';
  /** e.g. "SLOG 2.0.6", "CLOG-02.44", "CLOG", "ALOG", "SLOG 0.7". */
  readonly version: string;
  /** Tree root bounds (SLOG-2) or the drawable time range (CLOG), seconds. */
  readonly timeRange: readonly [number, number];
  /** Number of distinct line IDs used by drawables. */
  readonly lineIDs: number;
  readonly drawables: {
    readonly total: number;
    readonly state: number;
    readonly arrow: number;
    readonly event: number;
    readonly composite: number;
  };
  /** Real (non-preview) categories, by index. */
  readonly categories: readonly TraceInfoCategory[];
  readonly sourceLocations: { readonly records: number; readonly sites: number };
  /** CLOG inputs only: events left unmatched by the conversion (reference count, CLOG2.md §11.10). */
  readonly unmatchedEvents?: number;
  /**
   * CLOG inputs only: records left out of the drawables, by reason (never silently): NaN/±∞ times,
   * records whose etype does not fit, final events with no open state.
   */
  readonly dropped?: { readonly badTimes: number; readonly records: number; readonly finals: number };
  /** ALOG inputs only: the header values and event-line counts. */
  readonly alog?: AlogFacts;
  /** SLOG-1 inputs only: header, tables, frames, sector counts and the preview statistics. */
  readonly slog1?: Slog1Facts;
}
