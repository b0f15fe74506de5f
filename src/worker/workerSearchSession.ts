/**
 * SearchSession's behaviour (src/core/search/searchSession.ts) with the tree walks done by the
 * analysis worker: the query is compiled here too (errors at once, and `place` of a match), the
 * count and next/previous run in the worker, so a search over a multi-GB file never blocks the
 * extension host. Same interface, so the host can pick either by where the file lives.
 */
import type { Category, Drawable } from '../core/model/types';
import { compileQuery, drawableRows, type CompileResult, type DrawableMatcher, type SearchQuery } from '../core/search/matcher';
import { steppedOrdinal, type SessionFindResult, type SessionOptions } from '../core/search/searchSession';
import type { CountResult, SearchFrom } from '../core/search/treeSearch';
import type { WireSearchQuery } from '../protocol/analysis';
import type { AnalysisClient } from './analysisClient';

export class WorkerSearchSession {
  private matcher: DrawableMatcher | undefined;
  private wire: WireSearchQuery | undefined;
  private counting: AbortController | undefined;
  private countResult: Promise<CountResult> | undefined;
  private last: { readonly drawable: Drawable; readonly ordinal: number } | undefined;

  constructor(
    private readonly client: AnalysisClient,
    private readonly path: string,
    private readonly categories: ReadonlyMap<number, Category>,
    private readonly options: SessionOptions = {},
  ) {}

  setQuery(query: SearchQuery): CompileResult {
    this.clear();
    const compiled = compileQuery(query, this.categories);
    if (!compiled.ok) return compiled;
    this.matcher = compiled.matcher;
    const { rows, unsearchable, ...plain } = query;
    const wire: WireSearchQuery = {
      ...plain,
      ...(rows !== undefined ? { rows: [...rows] } : {}),
      ...(unsearchable !== undefined ? { unsearchable: [...unsearchable] } : {}),
    };
    this.wire = wire;
    const controller = new AbortController();
    this.counting = controller;
    this.countResult = this.client
      .count(this.path, wire, this.options.bins ?? 256, { signal: controller.signal })
      .then((r) => ({ matches: r.matches, histogram: r.histogram, range: r.range }));
    this.countResult.catch(() => undefined); // a cancelled count is not an error anyone waits for
    return compiled;
  }

  count(): Promise<CountResult> | undefined {
    return this.countResult;
  }

  async find(from: SearchFrom, direction: 1 | -1, signal?: AbortSignal): Promise<SessionFindResult> {
    const matcher = this.matcher;
    const wire = this.wire;
    if (matcher === undefined || wire === undefined) return { match: undefined, wrapped: false, ordinal: undefined };
    const opts = signal !== undefined ? { signal } : {};
    const r = await this.client.find(this.path, wire, from, direction, true, opts);
    if (r.match === undefined || matcher !== this.matcher) return { match: undefined, wrapped: false, ordinal: undefined };
    const drawable = r.match.drawable;
    const ordinal = steppedOrdinal(this.last, from, direction, r.wrapped) ?? (await this.client.ordinal(this.path, wire, drawable, opts));
    this.last = { drawable, ordinal };
    return {
      match: {
        drawable,
        category: this.categories.get(drawable.category),
        earliest: r.match.earliest,
        latest: r.match.latest,
        rows: drawableRows(drawable),
        place: matcher.test(drawable) ?? 'filter',
      },
      wrapped: r.wrapped,
      ordinal,
    };
  }

  clear(): void {
    this.counting?.abort(new Error('search replaced'));
    this.counting = undefined;
    this.countResult = undefined;
    this.matcher = undefined;
    this.wire = undefined;
    this.last = undefined;
  }
}
