/**
 * A search box's session (src/core/search/searchSession.ts) with the tree walks done by the
 * analysis worker: the query is compiled here too (errors at once, and `place` of a match), the
 * count and next/previous run in the worker, so a search over a multi-GB file never blocks the
 * extension host. Same interface, so the host can pick either by where the file lives.
 */
import type { Category, Drawable } from '../core/model/types';
import { drawableRows, type DrawableMatcher, type SearchQuery } from '../core/search/matcher';
import { SearchSessionBase, type SessionOptions } from '../core/search/searchSession';
import type { CountResult, SearchFrom, SearchMatch } from '../core/search/treeSearch';
import type { WireSearchQuery } from '../protocol/analysis';
import type { AnalysisClient } from './analysisClient';

/** The query as the worker protocol carries it (plain arrays). */
function wireQuery(query: SearchQuery): WireSearchQuery {
  const { rows, unsearchable, ...plain } = query;
  return {
    ...plain,
    ...(rows !== undefined ? { rows: [...rows] } : {}),
    ...(unsearchable !== undefined ? { unsearchable: [...unsearchable] } : {}),
  };
}

export class WorkerSearchSession extends SearchSessionBase {
  /** The wire form of the query in force (converted once per query, not per step). */
  private wire: { readonly query: SearchQuery; readonly wire: WireSearchQuery } | undefined;

  constructor(
    private readonly client: AnalysisClient,
    private readonly path: string,
    categories: ReadonlyMap<number, Category>,
    options: SessionOptions = {},
  ) {
    super(categories, options);
  }

  private wireOf(query: SearchQuery): WireSearchQuery {
    if (this.wire?.query !== query) this.wire = { query, wire: wireQuery(query) };
    return this.wire.wire;
  }

  protected async startCount(_matcher: DrawableMatcher, query: SearchQuery, signal: AbortSignal): Promise<CountResult> {
    const r = await this.client.count(this.path, this.wireOf(query), this.options.bins ?? 256, { signal });
    return { matches: r.matches, histogram: r.histogram, range: r.range };
  }

  protected async findFrom(
    matcher: DrawableMatcher,
    query: SearchQuery,
    from: SearchFrom,
    direction: 1 | -1,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly match: SearchMatch | undefined; readonly wrapped: boolean }> {
    const r = await this.client.find(this.path, this.wireOf(query), from, direction, true, signal !== undefined ? { signal } : {});
    if (r.match === undefined) return { match: undefined, wrapped: r.wrapped };
    const drawable = r.match.drawable;
    const match: SearchMatch = {
      drawable,
      category: this.categories.get(drawable.category),
      earliest: r.match.earliest,
      latest: r.match.latest,
      rows: drawableRows(drawable),
      place: matcher.test(drawable) ?? 'filter',
    };
    return { match, wrapped: r.wrapped };
  }

  protected ordinalOf(_matcher: DrawableMatcher, query: SearchQuery, drawable: Drawable, signal: AbortSignal | undefined): Promise<number> {
    return this.client.ordinal(this.path, this.wireOf(query), drawable, signal !== undefined ? { signal } : {});
  }
}
