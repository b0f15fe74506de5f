/**
 * One search box's state over one trace: the compiled query, a background count (with histogram)
 * that a new query cancels, and next/previous with the "n of m" position.
 */
import type { Drawable } from '../model/types';
import type { CompileResult, DrawableMatcher, SearchQuery } from './matcher';
import { compileQuery } from './matcher';
import {
  countMatches,
  findNext,
  matchOrdinal,
  sameDrawable,
  type CountProgress,
  type CountResult,
  type SearchFrom,
  type SearchMatch,
  type SearchNodeInfo,
  type SearchableTree,
} from './treeSearch';

export interface SessionFindResult {
  readonly match: SearchMatch | undefined;
  readonly wrapped: boolean;
  /** 0-based position among all matches (for "3 of 24"). */
  readonly ordinal: number | undefined;
}

export interface SessionOptions {
  /** Histogram bins for the overview strip (default 256). */
  readonly bins?: number;
  /** Running totals while counting. */
  readonly onProgress?: (p: CountProgress) => void;
}

/**
 * The "n of m" position of the next match when stepping from the last match: one further (or back
 * to 0 after wrapping forward); undefined when it must be counted from the start of the file.
 */
export function steppedOrdinal(
  last: { readonly drawable: Drawable; readonly ordinal: number } | undefined,
  from: SearchFrom,
  direction: 1 | -1,
  wrapped: boolean,
): number | undefined {
  if (last === undefined || !('drawable' in from) || !sameDrawable(from.drawable, last.drawable) || (wrapped && direction === -1)) return undefined;
  return wrapped ? 0 : last.ordinal + direction;
}

export class SearchSession<N extends SearchNodeInfo = SearchNodeInfo> {
  private matcher: DrawableMatcher | undefined;
  private counting: AbortController | undefined;
  private countResult: Promise<CountResult> | undefined;
  private last: { readonly drawable: Drawable; readonly ordinal: number } | undefined;

  constructor(
    private readonly tree: SearchableTree<N>,
    private readonly options: SessionOptions = {},
  ) {}

  /**
   * Sets a new query: cancels the previous count and starts counting the new one. A bad query
   * (e.g. regular expression syntax) is returned as an error and clears the search.
   */
  setQuery(query: SearchQuery): CompileResult {
    this.clear();
    const compiled = compileQuery(query, this.tree.categories);
    if (!compiled.ok) return compiled;
    this.matcher = compiled.matcher;
    const controller = new AbortController();
    this.counting = controller;
    const opts = {
      signal: controller.signal,
      ...(this.options.bins !== undefined ? { bins: this.options.bins } : {}),
      ...(this.options.onProgress !== undefined ? { onProgress: this.options.onProgress } : {}),
    };
    this.countResult = countMatches(this.tree, compiled.matcher, opts);
    this.countResult.catch(() => undefined); // a cancelled count is not an error anyone waits for
    return compiled;
  }

  /** The count and histogram of the current query (rejects if the query was replaced meanwhile). */
  count(): Promise<CountResult> | undefined {
    return this.countResult;
  }

  /** Next (1) or previous (−1) match from a time or the last match, wrapping around the file. */
  async find(from: SearchFrom, direction: 1 | -1, signal?: AbortSignal): Promise<SessionFindResult> {
    const matcher = this.matcher;
    if (matcher === undefined) return { match: undefined, wrapped: false, ordinal: undefined };
    const r = await findNext(this.tree, matcher, from, direction, { wrap: true, ...(signal !== undefined ? { signal } : {}) });
    if (r.match === undefined || matcher !== this.matcher) return { match: undefined, wrapped: false, ordinal: undefined };
    // Stepping from the last match: the position moves by one (or restarts at 0 after wrapping
    // forward); otherwise it is counted from the start of the file.
    const ordinal =
      steppedOrdinal(this.last, from, direction, r.wrapped) ??
      (await matchOrdinal(this.tree, matcher, r.match.drawable, signal !== undefined ? { signal } : {}));
    this.last = { drawable: r.match.drawable, ordinal };
    return { match: r.match, wrapped: r.wrapped, ordinal };
  }

  /** Stops counting and forgets the query. */
  clear(): void {
    this.counting?.abort(new Error('search replaced'));
    this.counting = undefined;
    this.countResult = undefined;
    this.matcher = undefined;
    this.last = undefined;
  }
}
