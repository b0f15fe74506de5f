/**
 * How one timeline page gets from nothing to the right view: the boot messages it is created with
 * (pageBoot.ts), its `ready`, the init it is sent (again after every reload) with the first window
 * pushed right behind it, and what was asked of it before it could show anything — a view (a link,
 * a bookmark, a comparison's sync) or a drawable to reveal (the Problems panel).
 */
import type {
  BootMessage,
  CategoryColoursMessage,
  HostToWebview,
  InitMessage,
  ReadyMessage,
  SearchHit,
  SiteMarksMessage,
  ViewState,
} from '../protocol/webview';
import type { TraceDocument } from './traceDocument';
import type { WindowServer } from './windowServer';
import type { CategoryColours } from './categoryColours';
import type { RowMemory } from './rowMemory';
import { bootMessages, rememberFirstView } from './pageBoot';
import { ROW_INDEX_MIN_ROWS } from './rowIndexPath';
import { defaultMapIndex, rowsOfLines } from '../core/query/rows';
import { keyId, predictFirstWindow, requestOf, type FirstViewHint } from '../core/query/windowKey';

export interface PageStartDeps {
  readonly document: TraceDocument;
  readonly server: WindowServer;
  readonly colours: CategoryColours;
  readonly rowMemory: RowMemory;
  readonly post: (m: HostToWebview) => void;
  /** The document's site marks as the page is sent them. */
  readonly siteMarks: () => SiteMarksMessage;
  /** The Y map the page last reported showing. */
  readonly mapIndex: () => number | undefined;
}

type Reveal = { readonly hit: Omit<SearchHit, 'row' | 'toRow'>; readonly from: number; readonly to: number };

export class PageStart {
  /** The page said `ready`: it takes messages. */
  ready = false;
  /** What the page was created with (its JSON, to tell on `ready` whether it is still current). */
  private booted: { readonly generation: number; readonly colours: string; readonly marks: string } | undefined;
  /** The fresh page's plot size, for the first window pushed with its first init. */
  private firstView: FirstViewHint | undefined;
  private pendingView: ViewState | undefined;
  /** The pending view is a comparison's sync with this number (see syncView). */
  private pendingSyncSeq: number | undefined;
  /** Syncs sent to this page so far (the number of the last one). */
  private syncCount = 0;
  /** Line IDs of the rows a pending bookmark or link shows (turned into rows once the file is read). */
  private pendingLines: readonly number[] | undefined;
  /** A drawable to frame once this page has its data (from the Problems panel). */
  private pendingReveal: Reveal | undefined;

  constructor(private readonly d: PageStartDeps) {}

  /** The page's boot messages (see pageBoot.ts), when the document is ready. */
  async bootMessages(): Promise<BootMessage[] | undefined> {
    const { document } = this.d;
    const m = document.initOrStatus();
    if (m.kind !== 'init') return undefined;
    const rowChoice = this.d.rowMemory.get(document.uri.toString());
    const colours: CategoryColoursMessage = { kind: 'categoryColours', colours: this.d.colours.all() };
    const marks = this.d.siteMarks();
    this.booted = { generation: m.generation, colours: JSON.stringify(colours), marks: JSON.stringify(marks) };
    // A view waiting to be shown (a link, a comparison's alignment) starts the page, as with sendInit.
    const initialView = this.pendingView !== undefined ? this.withRows(this.pendingView, this.pendingLines) : undefined;
    return await bootMessages({
      init: { ...m, ...(rowChoice ? { rowChoice } : {}), ...(initialView ? { initialView } : {}) },
      colours,
      marks,
      defaultView: rowChoice === undefined && this.pendingView === undefined,
      // Without its row index the first window of a wide trace takes seconds of this thread (its
      // upper nodes hold every row's previews): the page does not wait for that one.
      quick: document.rowIndex !== undefined || (m.yMaps[m.defaultMap]?.rows.length ?? 0) < ROW_INDEX_MIN_ROWS,
      build: (request) => this.d.server.push(m.generation, request),
      buildCoarse: (request) => this.d.server.prebuildCoarse(m.generation, request),
      generation: () => document.generation,
    });
  }

  /** The page is ready: what changed since it was created, or its init. */
  onReady(m: ReadyMessage): void {
    this.ready = true;
    this.firstView = m.firstView;
    if (m.firstView !== undefined) rememberFirstView(m.firstView);
    if (m.booted !== undefined && m.booted === this.booted?.generation && m.booted === this.d.document.generation) this.finishBoot();
    else this.sendInit();
  }

  /** The document changed (reloaded, converted, a preview's next part): a new init. */
  documentChanged(): void {
    if (this.ready) this.sendInit();
  }

  /** Moves the page to `view` (after its init when it is not ready yet). */
  showView(view: ViewState, lines?: readonly number[]): void {
    if (this.ready && this.d.document.state.phase === 'ready') this.d.post({ kind: 'showView', view: this.withRows(view, lines) });
    else {
      this.pendingView = view;
      this.pendingSyncSeq = undefined;
      this.pendingLines = lines;
    }
  }

  /**
   * Mirrors the other editor of a comparison: not recorded in the zoom history. Returns the sync's
   * number; the webview's reports say the last one it applied.
   */
  syncView(view: ViewState): number {
    const syncSeq = ++this.syncCount;
    if (this.ready && this.d.document.state.phase === 'ready') this.d.post({ kind: 'showView', view, syncSeq });
    else {
      this.pendingView = view;
      this.pendingSyncSeq = syncSeq;
    }
    return syncSeq;
  }

  /** Selects and frames a drawable given by its line IDs (rows of the page's current Y map). */
  revealLines(hit: Omit<SearchHit, 'row' | 'toRow'>, fromLine: number, toLine: number): void {
    const s = this.d.document.state;
    if (!this.ready || s.phase !== 'ready') {
      this.pendingReveal = { hit, from: fromLine, to: toLine };
      return;
    }
    const layout = s.layouts[this.d.mapIndex() ?? -1] ?? s.layouts[0];
    const row = layout?.rowOfLine.get(fromLine);
    const toRow = layout?.rowOfLine.get(toLine);
    this.d.post({ kind: 'link', reveal: { ...hit, row, toRow: toRow ?? row } });
  }

  /** `ready` from a page that started with the current init: only what changed since, and what waited. */
  private finishBoot(): void {
    const booted = this.booted!;
    const colours: HostToWebview = { kind: 'categoryColours', colours: this.d.colours.all() };
    if (JSON.stringify(colours) !== booted.colours) this.d.post(colours);
    const marks = this.d.siteMarks();
    if (JSON.stringify(marks) !== booted.marks) this.d.post(marks);
    this.postPendingView();
    const reveal = this.pendingReveal;
    this.pendingReveal = undefined;
    if (reveal !== undefined) this.revealLines(reveal.hit, reveal.from, reveal.to);
    this.firstView = undefined;
  }

  private sendInit(): void {
    const { document, post } = this.d;
    const reveal = this.pendingReveal;
    this.pendingReveal = undefined;
    if (reveal !== undefined) queueMicrotask(() => this.revealLines(reveal.hit, reveal.from, reveal.to));
    const m = document.initOrStatus();
    if (m.kind === 'init') post({ kind: 'categoryColours', colours: this.d.colours.all() });
    const rowChoice = m.kind === 'init' ? this.d.rowMemory.get(document.uri.toString()) : undefined;
    if (m.kind === 'init' && this.pendingView !== undefined) {
      post({ ...m, initialView: this.withRows(this.pendingView, this.pendingLines), ...(rowChoice ? { rowChoice } : {}) });
      this.postPendingView();
    } else {
      post(m.kind === 'init' && rowChoice ? { ...m, rowChoice } : m);
      if (m.kind === 'init' && rowChoice === undefined) this.pushFirstWindow(m);
    }
    if (m.kind === 'init') post(this.d.siteMarks());
    if (m.kind === 'init') this.firstView = undefined;
  }

  /** The view that waited (with its sync number), shown now; nothing waits after. */
  private postPendingView(): void {
    if (this.pendingView === undefined) return;
    const syncSeq = this.pendingSyncSeq;
    this.d.post({ kind: 'showView', view: this.withRows(this.pendingView, this.pendingLines), ...(syncSeq !== undefined ? { syncSeq } : {}) });
    this.pendingView = undefined;
    this.pendingSyncSeq = undefined;
    this.pendingLines = undefined;
  }

  /**
   * The first timeline window of a fresh page, built and sent right after its init (the page
   * would ask for it one message round later; on a loaded machine that round took 100–300 ms of
   * a 1 s first paint). Only for the default view: whole time range, rows from the top.
   */
  private pushFirstWindow(m: InitMessage): void {
    const hint = this.firstView;
    if (hint === undefined) return;
    const rows = m.yMaps[m.defaultMap]?.rows.length ?? 0;
    if (rows === 0) return;
    const { key, request } = requestOf(predictFirstWindow(hint, m.timeRange, rows, m.defaultMap));
    void this.d.server.push(m.generation, request, keyId(key));
  }

  /** `view` showing the rows of `lines` (line IDs of a bookmark or link) in its map, when the file is read. */
  private withRows(view: ViewState, lines: readonly number[] | undefined): ViewState {
    const s = this.d.document.state;
    if (lines === undefined || s.phase !== 'ready') return view;
    const layout = s.layouts[view.mapIndex >= 0 ? view.mapIndex : defaultMapIndex(s.file.lineIDMaps)];
    const rows = layout ? rowsOfLines(layout, lines) : [];
    return rows.length > 0 ? { ...view, rows } : view;
  }
}
