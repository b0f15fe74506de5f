/**
 * The host ↔ analysis-worker protocol: range statistics and whole-file search over a SLOG-2 file,
 * computed in a worker thread (src/worker/analysis.ts) so the extension host's event loop never
 * waits for a tree walk. The worker opens files by path and keeps a few open between requests.
 * Every message has a string `kind` and the `id` of its request; results are plain objects
 * (structured clone), no `any`.
 */
import type { AnalysisResult } from '../core/analysis/types';
import type { Drawable } from '../core/model/types';
import type { SearchQuery } from '../core/search/matcher';
import type { RangeStats } from '../core/stats/types';
import type { FullRunProfile } from '../core/compare/profile';
import type { SiteProfile } from '../core/stats/siteIndex';
import type { WindowRequest } from '../core/query/windowRequest';
import type { WireWindow } from '../core/query/windowColumns';
import type { WindowIdentities } from '../core/query/buildWindow';
import type { SiteMarks } from '../core/search/siteMarks';

/** A search query as it crosses the boundary (sets become arrays). */
export type WireSearchQuery = Omit<SearchQuery, 'rows' | 'unsearchable'> & {
  readonly rows?: readonly number[];
  readonly unsearchable?: readonly number[];
};

//#region host → worker

/** Exact (lowestDepth 0) or approximate (shadows of `lowestDepth`) statistics of [t0, t1]. */
export interface StatsRequest {
  readonly kind: 'stats';
  readonly id: number;
  readonly path: string;
  readonly range: readonly [number, number];
  readonly lowestDepth: number;
  readonly approximate: boolean;
}

/** Number of matches over the whole file (or `range`), with a histogram of their start times. */
export interface CountRequest {
  readonly kind: 'count';
  readonly id: number;
  readonly path: string;
  readonly query: WireSearchQuery;
  readonly bins: number;
  readonly range?: readonly [number, number];
}

/** The next (direction 1) or previous (−1) match from a time or from a drawable. */
export interface FindRequest {
  readonly kind: 'find';
  readonly id: number;
  readonly path: string;
  readonly query: WireSearchQuery;
  readonly from: { readonly time: number } | { readonly drawable: Drawable };
  readonly direction: 1 | -1;
  readonly wrap: boolean;
}

/** 0-based position of `drawable` among all matches in drawing order (for "3 of 24"). */
export interface OrdinalRequest {
  readonly kind: 'ordinal';
  readonly id: number;
  readonly path: string;
  readonly query: WireSearchQuery;
  readonly drawable: Drawable;
}

/** Wait states, critical path and trace problems of [t0, t1] (src/core/analysis). */
export interface WaitsRequest {
  readonly kind: 'waits';
  readonly id: number;
  readonly path: string;
  readonly range?: readonly [number, number];
  /** Wait instances returned as objects (the rest are only counted). */
  readonly maxInstances: number;
}

/** What a run comparison needs of one run: statistics, per-site numbers and iterations of [t0, t1]. */
export interface ProfileRequest {
  readonly kind: 'profile';
  readonly id: number;
  readonly path: string;
  readonly range: readonly [number, number];
  readonly marker?: string;
}

/** Per source site numbers of [t0, t1] (the editor's CodeLenses and hovers), of the timelines `lines` when given. */
export interface SitesRequest {
  readonly kind: 'sites';
  readonly id: number;
  readonly path: string;
  readonly range: readonly [number, number];
  readonly lines?: readonly number[];
}

/**
 * A timeline payload built off the host's thread: a window of most rows of a wide trace (the
 * overview strip, "fit all rows") parses every row's drawables of the nodes it reads, seconds of
 * synchronous work at 10^4 ranks. `depth` is the level of detail the host chose; `marks` the
 * document's site marks (their flags are in the payload).
 */
export interface WindowWorkRequest {
  readonly kind: 'window';
  readonly id: number;
  readonly path: string;
  readonly request: WindowRequest;
  readonly depth: number;
  readonly marks?: SiteMarks;
}

/** Stop request `id` (its answer is an `error` with reason `cancelled`). */
export interface CancelRequest {
  readonly kind: 'cancel';
  readonly id: number;
}

/** Forget the open file (it changed on disk or its last editor closed). */
export interface ForgetRequest {
  readonly kind: 'forget';
  readonly id: number;
  readonly path: string;
}

export type HostToAnalysis =
  StatsRequest | CountRequest | FindRequest | OrdinalRequest | WaitsRequest | ProfileRequest | SitesRequest | WindowWorkRequest | CancelRequest | ForgetRequest;

//#endregion

//#region worker → host

export interface AnalysisProgress {
  readonly kind: 'progress';
  readonly id: number;
  /** 0..1 when known. */
  readonly fraction?: number;
  readonly drawables?: number;
}

export interface StatsDone {
  readonly kind: 'stats';
  readonly id: number;
  readonly stats: RangeStats;
}

export interface CountDone {
  readonly kind: 'count';
  readonly id: number;
  readonly matches: number;
  readonly histogram: Uint32Array;
  readonly range: readonly [number, number];
}

export interface FindDone {
  readonly kind: 'find';
  readonly id: number;
  readonly match?: { readonly drawable: Drawable; readonly earliest: number; readonly latest: number };
  readonly wrapped: boolean;
}

export interface OrdinalDone {
  readonly kind: 'ordinal';
  readonly id: number;
  readonly ordinal: number;
}

export interface WaitsDone {
  readonly kind: 'waits';
  readonly id: number;
  readonly result: AnalysisResult;
}

export interface ProfileDone {
  readonly kind: 'profile';
  readonly id: number;
  readonly profile: FullRunProfile;
}

export interface SitesDone {
  readonly kind: 'sites';
  readonly id: number;
  readonly profile: SiteProfile;
}

/** The payload (its buffers transferred) and, for the host to keep, where its drawables came from. */
export interface WindowWorkDone {
  readonly kind: 'window';
  readonly id: number;
  readonly window: WireWindow;
  readonly ids?: WindowIdentities;
}

/** `format`: the file is damaged (message names file and offset); `query`: a bad search query. */
export interface AnalysisError {
  readonly kind: 'error';
  readonly id: number;
  readonly reason: 'cancelled' | 'format' | 'query' | 'failed';
  readonly message: string;
}

export type AnalysisToHost =
  AnalysisProgress | StatsDone | CountDone | FindDone | OrdinalDone | WaitsDone | ProfileDone | SitesDone | WindowWorkDone | AnalysisError;

//#endregion

const HOST_KINDS = new Set(['stats', 'count', 'find', 'ordinal', 'waits', 'profile', 'sites', 'window', 'cancel', 'forget']);
const WORKER_KINDS = new Set(['progress', 'stats', 'count', 'find', 'ordinal', 'waits', 'profile', 'sites', 'window', 'error']);

export function isHostToAnalysis(m: unknown): m is HostToAnalysis {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as { kind?: unknown; id?: unknown; path?: unknown };
  if (typeof r.id !== 'number' || !HOST_KINDS.has(r.kind as string)) return false;
  return r.kind === 'cancel' || typeof r.path === 'string';
}

export function isAnalysisToHost(m: unknown): m is AnalysisToHost {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as { kind?: unknown; id?: unknown };
  return typeof r.id === 'number' && WORKER_KINDS.has(r.kind as string);
}
