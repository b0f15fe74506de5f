/**
 * One search box's state over one trace: the compiled query, a background count (with histogram)
 * that a new query cancels, and next/previous with the "n of m" position.
 */
import type { Category, Drawable } from '../model/types';
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

/**
 * The state of one search box — the compiled query, its background count (a new query cancels it),
 * the last match and its position — over some way of walking the trace (`SearchSession` walks the
 * tree in this thread, `WorkerSearchSession` asks the analysis worker).
 */
export abstract class SearchSessionBase {
  private matcher: DrawableMatcher | undefined;
  private counting: AbortController | undefined;
  private countResult: Promise<CountResult> | undefined;
  private last: { readonly drawable: Drawable; readonly ordinal: number } | undefined;

  constructor(
    protected readonly categories: ReadonlyMap<number, Category>,
    protected readonly options: SessionOptions = {},
  ) {}

  /** Counts the matches of a new query over the whole trace, with the histogram. */
  protected abstract startCount(matcher: DrawableMatcher, query: SearchQuery, signal: AbortSignal): Promise<CountResult>;
  /** The next (1) or previous (−1) match from a time or drawable, wrapping around the file. */
  protected abstract findFrom(
    matcher: DrawableMatcher,
    query: SearchQuery,
    from: SearchFrom,
    direction: 1 | -1,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly match: SearchMatch | undefined; readonly wrapped: boolean }>;
  /** The 0-based position of a match among all matches, counted from the start of the file. */
  protected abstract ordinalOf(matcher: DrawableMatcher, query: SearchQuery, drawable: Drawable, signal: AbortSignal | undefined): Promise<number>;

  private query: SearchQuery | undefined;

  /**
   * Sets a new query: cancels the previous count and starts counting the new one. A bad query
   * (e.g. regular expression syntax) is returned as an error and clears the search.
   */
  setQuery(query: SearchQuery): CompileResult {
    this.clear();
    const compiled = compileQuery(query, this.categories);
    if (!compiled.ok) return compiled;
    this.matcher = compiled.matcher;
    this.query = query;
    const controller = new AbortController();
    this.counting = controller;
    this.countResult = this.startCount(compiled.matcher, query, controller.signal);
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
    const query = this.query;
    if (matcher === undefined || query === undefined) return { match: undefined, wrapped: false, ordinal: undefined };
    const r = await this.findFrom(matcher, query, from, direction, signal);
    if (r.match === undefined || matcher !== this.matcher) return { match: undefined, wrapped: false, ordinal: undefined };
    // Stepping from the last match: the position moves by one (or restarts at 0 after wrapping
    // forward); otherwise it is counted from the start of the file.
    const ordinal = steppedOrdinal(this.last, from, direction, r.wrapped) ?? (await this.ordinalOf(matcher, query, r.match.drawable, signal));
    this.last = { drawable: r.match.drawable, ordinal };
    return { match: r.match, wrapped: r.wrapped, ordinal };
  }

  /** Stops counting and forgets the query. */
  clear(): void {
    this.counting?.abort(new Error('search replaced'));
    this.counting = undefined;
    this.countResult = undefined;
    this.matcher = undefined;
    this.query = undefined;
    this.last = undefined;
  }
}

/** A search over a tree read in this thread. */
export class SearchSession<N extends SearchNodeInfo = SearchNodeInfo> extends SearchSessionBase {
  constructor(
    private readonly tree: SearchableTree<N>,
    options: SessionOptions = {},
  ) {
    super(tree.categories, options);
  }

  protected startCount(matcher: DrawableMatcher, _query: SearchQuery, signal: AbortSignal): Promise<CountResult> {
    return countMatches(this.tree, matcher, {
      signal,
      ...(this.options.bins !== undefined ? { bins: this.options.bins } : {}),
      ...(this.options.onProgress !== undefined ? { onProgress: this.options.onProgress } : {}),
    });
  }

  protected findFrom(matcher: DrawableMatcher, _query: SearchQuery, from: SearchFrom, direction: 1 | -1, signal: AbortSignal | undefined) {
    return findNext(this.tree, matcher, from, direction, { wrap: true, ...(signal !== undefined ? { signal } : {}) });
  }

  protected ordinalOf(matcher: DrawableMatcher, _query: SearchQuery, drawable: Drawable, signal: AbortSignal | undefined): Promise<number> {
    return matchOrdinal(this.tree, matcher, drawable, signal !== undefined ? { signal } : {});
  }
}
