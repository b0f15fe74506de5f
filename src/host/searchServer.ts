/**
 * One editor's search over the whole file (through the tree, not only what is loaded): a
 * SearchSession per query (a new query cancels the old count), next/previous from the last match
 * or from a time, answers as `searchResult` / `searchCount` messages.
 */
import type { SearchCountMessage, SearchHit, SearchMessage, SearchRequestQuery, SearchResultMessage } from '../protocol/webview';
import { SearchSession, type SearchMatch, type SearchQuery } from '../core/search';
import type { Drawable } from '../core/model/types';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import type { TraceDocument } from './traceDocument';
import { FileSource } from '../io/fileSource';
import type { AnalysisClient } from '../worker/analysisClient';
import { WorkerSearchSession } from '../worker/workerSearchSession';

/** SearchSession (in this thread) or WorkerSearchSession (tree walks in the analysis worker). */
type Session = Pick<SearchSession, 'setQuery' | 'count' | 'find' | 'clear'>;

const HISTOGRAM_BINS = 512;

export class SearchServer {
  private session: { readonly file: Slog2File; readonly key: string; readonly session: Session } | undefined;
  private last: Drawable | undefined;
  private finding: AbortController | undefined;

  constructor(
    private readonly document: TraceDocument,
    private readonly post: (m: SearchResultMessage | SearchCountMessage) => void,
    /** When given, files on disk are searched in the analysis worker, off the host's event loop. */
    private readonly analysis?: AnalysisClient,
  ) {}

  async handle(m: SearchMessage): Promise<void> {
    const doc = this.document;
    const state = doc.state;
    const fail = (error: string): void => this.post({ kind: 'searchResult', searchId: m.searchId, wrapped: false, error });
    if (state.phase !== 'ready' || m.generation !== doc.generation) return fail('the trace was reloaded');
    const layout = state.layouts[m.query.mapIndex];
    if (layout === undefined) return fail('unknown Y map');
    const key = JSON.stringify(m.query);
    if (this.session?.key !== key || this.session.file !== state.file) {
      this.close();
      const source = state.file.source;
      const session: Session =
        this.analysis !== undefined && source instanceof FileSource
          ? new WorkerSearchSession(this.analysis, source.name, state.file.categories, { bins: HISTOGRAM_BINS })
          : new SearchSession(state.file, { bins: HISTOGRAM_BINS });
      const compiled = session.setQuery(toQuery(m.query, layout.rowOfLine));
      if (!compiled.ok) return fail(compiled.error);
      this.session = { file: state.file, key, session };
      const counted = session.count();
      void counted?.then(
        (c) => {
          if (this.session?.session === session)
            this.post({ kind: 'searchCount', searchId: m.searchId, matches: c.matches, histogram: [...c.histogram], range: [c.range[0], c.range[1]] });
        },
        () => undefined,
      );
    }
    if (m.direction === 0) return;
    this.finding?.abort(new Error('superseded'));
    const ac = new AbortController();
    this.finding = ac;
    const from = m.fromTime !== undefined || this.last === undefined ? { time: m.fromTime ?? state.file.timeRange[0] } : { drawable: this.last };
    try {
      const r = await this.session!.session.find(from, m.direction, ac.signal);
      if (ac.signal.aborted) return;
      if (r.match === undefined) return this.post({ kind: 'searchResult', searchId: m.searchId, wrapped: false });
      this.last = r.match.drawable;
      this.post({
        kind: 'searchResult',
        searchId: m.searchId,
        hit: hitOf(r.match, layout.rowOfLine),
        wrapped: r.wrapped,
        ...(r.ordinal !== undefined ? { ordinal: r.ordinal } : {}),
      });
    } catch (e) {
      if (!ac.signal.aborted) fail(e instanceof Error ? e.message : String(e));
    }
  }

  close(): void {
    this.finding?.abort(new Error('closed'));
    this.session?.session.clear();
    this.session = undefined;
    this.last = undefined;
  }
}

/** Rows of the box are rows of its map; the search filters by line IDs. */
function toQuery(q: SearchRequestQuery, rowOfLine: ReadonlyMap<number, number>): SearchQuery {
  let rows: number[] | undefined;
  if (q.rows !== undefined) {
    const wanted = new Set(q.rows);
    rows = [...rowOfLine].filter(([, row]) => wanted.has(row)).map(([line]) => line);
  }
  return {
    text: q.text,
    mode: q.mode,
    caseSensitive: q.caseSensitive,
    unsearchable: q.unsearchable,
    ...(rows !== undefined ? { rows } : {}),
    ...(q.minDuration !== undefined ? { minDuration: q.minDuration } : {}),
    ...(q.maxDuration !== undefined ? { maxDuration: q.maxDuration } : {}),
  };
}

function hitOf(m: SearchMatch, rowOfLine: ReadonlyMap<number, number>): SearchHit {
  const d = m.drawable;
  const p = d.kind === 'primitive' ? d : d.primitives[0];
  const kind = m.category?.topology ?? (p && p.vertices.length === 1 ? 'event' : 'state');
  const first = p?.vertices[0];
  const last = p?.vertices[p.vertices.length - 1];
  const start = kind === 'state' || !first ? m.earliest : first.time;
  const end = kind === 'state' || !last ? m.latest : last.time;
  return {
    drawable: kind,
    category: d.category,
    start,
    end,
    row: first ? rowOfLine.get(first.lineID) : undefined,
    toRow: last ? rowOfLine.get(last.lineID) : undefined,
  };
}
