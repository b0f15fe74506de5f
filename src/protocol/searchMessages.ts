/**
 * The search messages of the timeline webview channel (src/protocol/webview.ts, which re-exports
 * them): the search box asks `search` steps and counts (`searchClosed` stops counting); the host
 * answers each step with `searchResult` and the count over the whole file with `searchCount`;
 * `searchFor` opens the box with a text from elsewhere (a source line's "Show in timeline").
 */

/** A search match, placed on the rows of the map the search was asked for. */
export interface SearchHit {
  readonly drawable: 'state' | 'arrow' | 'event';
  readonly category: number;
  readonly start: number;
  readonly end: number;
  /** Undefined when the match has no row in that map. */
  readonly row: number | undefined;
  readonly toRow: number | undefined;
}

/** Answer to a `search` step: the match (framed by the webview) and its position "n of m". */
export interface SearchResultMessage {
  readonly kind: 'searchResult';
  readonly searchId: number;
  readonly hit?: SearchHit;
  readonly ordinal?: number;
  readonly wrapped: boolean;
  readonly error?: string;
}

/** The count of the current query over the whole file, with matches per bin of the time range. */
export interface SearchCountMessage {
  readonly kind: 'searchCount';
  readonly searchId: number;
  readonly matches: number;
  readonly histogram: readonly number[];
  readonly range: readonly [number, number];
}

/**
 * Search the timeline for `text` (e.g. `user_states.c:80`, from "Show in timeline" on a source
 * line): opens the search box with it and steps to the next match (the same text again: the next one).
 */
export interface SearchForMessage {
  readonly kind: 'searchFor';
  readonly text: string;
}

export type SearchModeName = 'plain' | 'word' | 'regex';

/** What the search box asks (rows are rows of `mapIndex`; durations in seconds). */
export interface SearchRequestQuery {
  readonly text: string;
  readonly mode: SearchModeName;
  readonly caseSensitive: boolean;
  readonly mapIndex: number;
  readonly rows?: readonly number[];
  readonly minDuration?: number;
  readonly maxDuration?: number;
  readonly unsearchable: readonly number[];
}

/**
 * A search step: a new query starts a count over the whole file; `direction` ±1 finds the next /
 * previous match after the last one found (`fromTime` restarts at that time), 0 only counts.
 */
export interface SearchMessage {
  readonly kind: 'search';
  readonly searchId: number;
  readonly generation: number;
  readonly query: SearchRequestQuery;
  readonly direction: 1 | -1 | 0;
  readonly fromTime?: number;
}

/** The search box closed: stop counting. */
export interface SearchClosedMessage {
  readonly kind: 'searchClosed';
}
