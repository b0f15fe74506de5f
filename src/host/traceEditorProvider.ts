/**
 * The trace editor: a CustomReadonlyEditorProvider for SLOG-2 (and CLOG/CLOG2 via conversion).
 * One TraceDocument per file, any number of editors on it, each with its own view state (kept by
 * its webview through getState/setState) and its own WindowServer. No retainContextWhenHidden:
 * a hidden webview is torn down and restores itself from its persisted state.
 */
import { parseSiteQuery } from '../core/search/siteQuery';
import { loadColourings } from './sourceLens/colourings';
import * as vscode from 'vscode';
import {
  assertUnreachable,
  isWebviewToHost,
  type CommandMessage,
  type DetailsMessage,
  type DrawableRef,
  type HostToWebview,
  type LinkMessage,
  type PeerCursorMessage,
  type SearchHit,
  type ViewState,
} from '../protocol/webview';
import { TraceDocument } from './traceDocument';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { WindowServer, type PayloadInfo } from './windowServer';
import { timelineHtml, webviewOptions } from './webviewHtml';
import { workerConversionJob } from './convertCommand';
import { workerRowIndexJob } from './rowIndexing';
import { answerDetails, type DetailsAnnotator } from './detailsServer';
import { SourceLinks } from './sourceLinks';
import { CategoryColours } from './categoryColours';
import { SearchServer } from './searchServer';
import { RowMemory } from './rowMemory';
import { defaultMapIndex, linesOfRows, rowsOfLines } from '../core/query/rows';
import type { AnalysisClient } from '../worker/analysisClient';

export const VIEW_TYPE = 'mpeTrace.timeline';

/** What one editor last reported (for tests and the bench). */
export interface EditorReport {
  readonly uri: string;
  readonly viewState: ViewState | undefined;
  readonly painted: { readonly drawables: number; readonly frameMs: number; readonly at: number } | undefined;
  readonly lastPayload: PayloadInfo | undefined;
  readonly active: boolean;
  /** What the last "Go to source" of this editor did: `uri:line`, or why nothing opened. */
  readonly lastSourceOpen: string | undefined;
}

export class TimelineEditor implements vscode.Disposable {
  private readonly server: WindowServer;
  private readonly search: SearchServer;
  private readonly disposables: vscode.Disposable[] = [];
  viewState: ViewState | undefined;
  painted: EditorReport['painted'];
  private ready = false;
  private pendingView: ViewState | undefined;
  /** Line IDs of the rows a pending bookmark or link shows (turned into rows once the file is read). */
  private pendingLines: readonly number[] | undefined;
  /** Categories hidden in this editor's legend (for bookmarks and links). */
  hiddenCategories: readonly number[] = [];
  /** The time range selected in this editor's timeline (the statistics panel follows it). */
  range: readonly [number, number] | undefined;
  /** What the last "Go to source" did (for tests): `uri:line` or the reason it did not open. */
  lastSourceOpen: string | undefined;
  private readonly viewChanged = new vscode.EventEmitter<ViewState>();
  /** The webview reported a new view (window, map, row scroll): a comparison mirrors it. */
  readonly onDidChangeView = this.viewChanged.event;
  private readonly cursorMoved = new vscode.EventEmitter<number | undefined>();
  /** While linked in a comparison: the time under the pointer (undefined: it left the timeline). */
  readonly onDidMoveCursor = this.cursorMoved.event;
  /** The comparison link last sent (sent again when the webview is ready). */
  private peer: PeerCursorMessage | undefined;

  constructor(
    readonly document: TraceDocument,
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly sourceLinks: SourceLinks,
    private readonly colours: CategoryColours,
    private readonly onColoursChanged: () => void,
    private readonly onRangeChanged: () => void,
    analysis: AnalysisClient | undefined,
    private readonly annotate: DetailsAnnotator | undefined,
    private readonly rowMemory: RowMemory,
  ) {
    const webview = panel.webview;
    webview.options = webviewOptions(extensionUri);
    webview.html = timelineHtml(webview, extensionUri, document.uri.path.slice(document.uri.path.lastIndexOf('/') + 1));
    this.server = new WindowServer(document, (m) => this.post(m));
    this.search = new SearchServer(document, (m) => this.post(m), analysis);
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)),
      document.onDidChange(() => {
        if (this.ready) this.sendInit();
      }),
      document.onDidChangeSiteMarks(() => {
        if (this.ready) this.sendSiteMarks();
      }),
    );
  }

  private sendSiteMarks(): void {
    const m = this.document.siteMarks;
    this.post({
      kind: 'siteMarks',
      ...(m.highlight !== undefined ? { highlight: m.highlight } : {}),
      colourings: m.colourings.map((c) => ({ sites: c.sites, rgb: [c.rgb[0], c.rgb[1], c.rgb[2]] })),
    });
  }

  /** A drawable to frame once this editor has its data (from the Problems panel). */
  private pendingReveal: { readonly hit: Omit<SearchHit, 'row' | 'toRow'>; readonly from: number; readonly to: number } | undefined;

  /** Selects and frames a drawable given by its line IDs (rows of the editor's current Y map). */
  revealLines(hit: Omit<SearchHit, 'row' | 'toRow'>, fromLine: number, toLine: number): void {
    const s = this.document.state;
    if (!this.ready || s.phase !== 'ready') {
      this.pendingReveal = { hit, from: fromLine, to: toLine };
      return;
    }
    const layout = s.layouts[this.viewState?.mapIndex ?? -1] ?? s.layouts[0];
    const row = layout?.rowOfLine.get(fromLine);
    const toRow = layout?.rowOfLine.get(toLine);
    this.post({ kind: 'link', reveal: { ...hit, row, toRow: toRow ?? row } });
  }

  private sendInit(): void {
    const reveal = this.pendingReveal;
    this.pendingReveal = undefined;
    if (reveal !== undefined) queueMicrotask(() => this.revealLines(reveal.hit, reveal.from, reveal.to));
    const m = this.document.initOrStatus();
    if (m.kind === 'init') this.post({ kind: 'categoryColours', colours: this.colours.all() });
    const rowChoice = m.kind === 'init' ? this.rowMemory.get(this.document.uri.toString()) : undefined;
    if (m.kind === 'init' && this.pendingView !== undefined) {
      const view = this.withRows(this.pendingView, this.pendingLines);
      this.post({ ...m, initialView: view, ...(rowChoice ? { rowChoice } : {}) });
      this.post({ kind: 'showView', view });
      this.pendingView = undefined;
      this.pendingLines = undefined;
    } else this.post(m.kind === 'init' && rowChoice ? { ...m, rowChoice } : m);
    if (m.kind === 'init') this.sendSiteMarks();
  }

  /** `view` showing the rows of `lines` (line IDs of a bookmark or link) in its map, when the file is read. */
  private withRows(view: ViewState, lines: readonly number[] | undefined): ViewState {
    const s = this.document.state;
    if (lines === undefined || s.phase !== 'ready') return view;
    const layout = s.layouts[view.mapIndex >= 0 ? view.mapIndex : defaultMapIndex(s.file.lineIDMaps)];
    const rows = layout ? rowsOfLines(layout, lines) : [];
    return rows.length > 0 ? { ...view, rows } : view;
  }

  /** Line IDs of the rows this editor shows, when some are hidden or moved (for bookmarks and links). */
  shownLines(): number[] | undefined {
    const s = this.document.state;
    const v = this.viewState;
    if (!v?.rows || s.phase !== 'ready') return undefined;
    const layout = s.layouts[v.mapIndex];
    return layout ? linesOfRows(layout, v.rows) : undefined;
  }

  get lastPayload(): PayloadInfo | undefined {
    return this.server.lastPayload;
  }

  post(m: HostToWebview): void {
    void this.panel.webview.postMessage(m);
  }

  /** Moves this editor to `view` (after its init when it is not ready yet). */
  showView(view: ViewState, lines?: readonly number[]): void {
    if (this.ready && this.document.state.phase === 'ready') this.post({ kind: 'showView', view: this.withRows(view, lines) });
    else {
      this.pendingView = view;
      this.pendingLines = lines;
    }
  }

  /** A link from a side panel: highlight, show the row of `lineID`, or select and frame a drawable. */
  link(message: LinkMessage, lineID?: number): void {
    this.panel.reveal(undefined, true);
    if (lineID === undefined) return this.post(message);
    const s = this.document.state;
    if (s.phase !== 'ready') return;
    const map = this.viewState?.mapIndex ?? -1;
    const layout = s.layouts[map] ?? s.layouts[0];
    const row = layout?.rowOfLine.get(lineID);
    if (row === undefined) return;
    const topology = message.reveal ? s.file.categories.get(message.reveal.category)?.topology : undefined;
    if (message.reveal) this.post({ ...message, reveal: { ...message.reveal, drawable: topology ?? 'state', row, toRow: row } });
    else this.post({ ...message, revealRow: row });
  }

  /** Mirrors the other editor of a comparison: not recorded in the zoom history. */
  syncView(view: ViewState): void {
    if (this.ready && this.document.state.phase === 'ready') this.post({ kind: 'showView', view, sync: true });
    else this.pendingView = view;
  }

  /** Links this editor with another one's cursor (a comparison), or unlinks it. */
  showPeerCursor(linked: boolean, time?: number, label?: string): void {
    this.peer = { kind: 'peerCursor', linked, ...(time !== undefined ? { time } : {}), ...(label !== undefined ? { label } : {}) };
    if (!this.ready) return;
    try {
      this.post(this.peer);
    } catch {
      // the panel closed (a comparison ends when either editor closes)
    }
  }

  /** Greys out what did not come from these sites (`file:line` list; undefined: none) without opening a search. */
  highlightSites(sites: string | undefined): void {
    const marks = this.document.siteMarks;
    if (marks.highlight !== sites) this.document.setSiteMarks({ colourings: marks.colourings, ...(sites !== undefined ? { highlight: sites } : {}) });
  }

  sendColours(): void {
    if (this.ready) this.post({ kind: 'categoryColours', colours: this.colours.all() });
  }

  /** The range selected in the timeline (Ctrl+drag) changed: side panels and source numbers follow. */
  selectRange(range: readonly [number, number] | undefined): void {
    this.range = range;
    this.onRangeChanged();
  }

  /** Opens the search with `text` and steps to the next match (source → timeline). */
  searchFor(text: string): void {
    this.panel.reveal(undefined, false);
    if (this.document.siteMarks.highlight !== text) this.document.setSiteMarks({ ...this.document.siteMarks, highlight: text });
    this.post({ kind: 'searchFor', text });
  }

  command(command: CommandMessage['command']): void {
    this.post({ kind: 'command', command });
  }

  private onMessage(m: unknown): void {
    if (!isWebviewToHost(m)) {
      this.log.warn(`ignored malformed message from the timeline webview: ${JSON.stringify(m)?.slice(0, 200)}`);
      return;
    }
    switch (m.kind) {
      case 'ready':
        this.ready = true;
        this.sendInit();
        if (this.peer !== undefined) this.post(this.peer);
        return;
      case 'cursor':
        this.cursorMoved.fire(m.time);
        return;
      case 'requestWindow':
        void this.server.serve(m);
        return;
      case 'cancelWindow':
        this.server.cancel(m.requestId);
        return;
      case 'viewState':
        this.viewState = m.state;
        this.rowMemory.set(this.document.uri.toString(), {
          mapIndex: m.state.mapIndex,
          ...(m.state.rows ? { rows: m.state.rows } : {}),
          ...(m.state.rowSizing !== undefined ? { rowSizing: m.state.rowSizing } : {}),
        });
        this.viewChanged.fire(m.state);
        return;
      case 'requestDetails':
        void answerDetails(this.document, m, this.annotate, (at, generation) => this.server.identitiesOf(at.requestId, at.final, generation)).then((answer) =>
          this.post(answer),
        );
        return;
      case 'legendState':
        this.hiddenCategories = [...m.hidden];
        return;
      case 'openOtherEditor':
        // "Open With…" acts on the active editor: this one.
        this.panel.reveal(undefined, false);
        if (m.how === 'text') void vscode.commands.executeCommand('vscode.openWith', this.document.uri, 'default');
        else void vscode.commands.executeCommand('workbench.action.reopenWithEditor');
        return;
      case 'runCommand':
        this.panel.reveal(undefined, false);
        void vscode.commands.executeCommand(`mpeTrace.${m.command}`);
        return;
      case 'selectRange':
        this.selectRange(m.range);
        return;
      case 'search': {
        // A `file:line` search also greys out what did not come from those sites (until it closes).
        const sites = m.query.mode !== 'regex' && parseSiteQuery(m.query.text) !== undefined ? m.query.text : undefined;
        if (sites !== this.document.siteMarks.highlight) {
          this.document.setSiteMarks({ colourings: this.document.siteMarks.colourings, ...(sites !== undefined ? { highlight: sites } : {}) });
        }
        void this.search.handle(m);
        return;
      }
      case 'searchClosed':
        this.search.close();
        if (this.document.siteMarks.highlight !== undefined) this.document.setSiteMarks({ colourings: this.document.siteMarks.colourings });
        return;
      case 'setCategoryColour':
        void this.colours.set(m.name, m.rgb).then(() => this.onColoursChanged());
        return;
      case 'openSource':
        void this.sourceLinks
          .open(m.siteId, (id) => this.document.sites.get(id), { beside: m.beside })
          .then((r) => {
            this.lastSourceOpen = r.opened ? `${r.uri.toString()}:${r.line}` : r.reason;
          });
        return;
      case 'painted':
        // the first paint of an editor is worth an info line; later ones only at debug level
        (this.painted === undefined ? this.log.info : this.log.debug).call(
          this.log,
          `${this.document.uri.path}: painted ${m.drawables} drawables (frame ${m.frameMs.toFixed(1)} ms)`,
        );
        this.painted = { drawables: m.drawables, frameMs: m.frameMs, at: Date.now() };
        return;
      default:
        assertUnreachable(m);
    }
  }

  dispose(): void {
    this.viewChanged.dispose();
    this.cursorMoved.dispose();
    this.server.cancel();
    this.search.close();
    for (const d of this.disposables) d.dispose();
  }
}

export class TraceEditorProvider implements vscode.CustomReadonlyEditorProvider<TraceDocument> {
  private readonly editors = new Set<TimelineEditor>();
  /** The timeline editor the user used last (the side panels follow it). */
  private lastActive: TimelineEditor | undefined;
  private readonly activeChanged = new vscode.EventEmitter<void>();
  /** Fires when the last-active timeline editor, or its document, changes. */
  readonly onDidChangeActiveTrace = this.activeChanged.event;
  private readonly editorCreated = new vscode.EventEmitter<TimelineEditor>();
  /** Fires for every new timeline editor (a comparison waits for the one it opened). */
  readonly onDidCreateEditor = this.editorCreated.event;
  /** Views requested by links for editors that are still opening. */
  private readonly pendingViews = new Map<string, { readonly view: ViewState; readonly lines?: readonly number[] }>();
  private readonly rowMemory: RowMemory;
  readonly sourceLinks: SourceLinks;
  private readonly colours: CategoryColours;

  static register(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, analysis?: AnalysisClient, annotate?: DetailsAnnotator): TraceEditorProvider {
    const provider = new TraceEditorProvider(context, log, analysis, annotate);
    context.subscriptions.push(
      provider.sourceLinks,
      provider.activeChanged,
      provider.editorCreated,
      vscode.window.registerCustomEditorProvider(VIEW_TYPE, provider, { supportsMultipleEditorsPerDocument: true }),
    );
    return provider;
  }

  private constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly analysis: AnalysisClient | undefined,
    private readonly annotate: DetailsAnnotator | undefined,
  ) {
    this.sourceLinks = new SourceLinks(log);
    this.colours = new CategoryColours(context.workspaceState);
    this.rowMemory = new RowMemory(context.workspaceState);
  }

  openCustomDocument(uri: vscode.Uri): TraceDocument {
    // Returns at once: the document opens the file in the background and editors show its status.
    return new TraceDocument(uri, this.context.globalStorageUri, workerConversionJob(this.context.extensionUri), workerRowIndexJob(this.context.extensionUri));
  }

  resolveCustomEditor(document: TraceDocument, panel: vscode.WebviewPanel): void {
    const editor = new TimelineEditor(
      document,
      panel,
      this.context.extensionUri,
      this.log,
      this.sourceLinks,
      this.colours,
      () => {
        for (const e of this.editors) e.sendColours();
      },
      () => {
        if (this.lastActive === editor) this.activeChanged.fire();
      },
      this.analysis,
      this.annotate,
      this.rowMemory,
    );
    this.editors.add(editor);
    this.editorCreated.fire(editor);
    void loadColourings(document, this.log);
    const pending = this.pendingViews.get(document.uri.toString());
    if (pending) {
      this.pendingViews.delete(document.uri.toString());
      editor.showView(pending.view, pending.lines);
    }
    const track = (): void => {
      if (panel.active && this.lastActive !== editor) {
        this.lastActive = editor;
        this.activeChanged.fire();
      }
    };
    track();
    const subs = [
      panel.onDidChangeViewState(track),
      document.onDidChange(() => {
        if (this.lastActive === editor) this.activeChanged.fire();
      }),
    ];
    panel.onDidDispose(() => {
      this.editors.delete(editor);
      for (const s of subs) s.dispose();
      editor.dispose();
      if (this.lastActive === editor) {
        this.lastActive = [...this.editors].find((e) => e.panel.active);
        this.activeChanged.fire();
      }
    });
  }

  /** The last-active timeline's document, when it is open and readable (for the side panels). */
  activeTrace(): { readonly uri: vscode.Uri; readonly file: Slog2File; readonly range?: readonly [number, number] } | undefined {
    const e = this.lastActive;
    if (e === undefined) return undefined;
    const s = e.document.state;
    if (s.phase !== 'ready') return undefined;
    return e.range ? { uri: e.document.uri, file: s.file, range: e.range } : { uri: e.document.uri, file: s.file };
  }

  /** The open, readable traces, the last-active one first (one entry per document). */
  openTraces(): { readonly uri: vscode.Uri; readonly file: Slog2File; readonly range?: readonly [number, number] }[] {
    const out: { uri: vscode.Uri; file: Slog2File; range?: readonly [number, number] }[] = [];
    const seen = new Set<string>();
    const ordered = this.lastActive ? [this.lastActive, ...[...this.editors].filter((e) => e !== this.lastActive)] : [...this.editors];
    for (const e of ordered) {
      const s = e.document.state;
      const key = e.document.uri.toString();
      if (s.phase !== 'ready' || seen.has(key)) continue;
      seen.add(key);
      out.push(e.range ? { uri: e.document.uri, file: s.file, range: e.range } : { uri: e.document.uri, file: s.file });
    }
    return out;
  }

  /** The open document of `uri` (for commands that change its site marks). */
  documentOf(uri: vscode.Uri): TraceDocument | undefined {
    return this.editorsOf(uri)[0]?.document;
  }

  /** Source → timeline: search the timeline of `uri` for `text` (false when it is not open). */
  searchInTimeline(uri: vscode.Uri, text: string): boolean {
    const e = this.editorsOf(uri)[0];
    e?.searchFor(text);
    return e !== undefined;
  }

  /** Links from the statistics panel into the last-active timeline of `uri`. */
  link(uri: vscode.Uri, message: LinkMessage, lineID?: number): void {
    const e =
      this.lastActive?.document.uri.toString() === uri.toString()
        ? this.lastActive
        : [...this.editors].find((x) => x.document.uri.toString() === uri.toString());
    e?.link(message, lineID);
  }

  /** Posts a message to every ready editor of `uri` whose document is at `generation` (analysis overlays). */
  broadcast(
    uri: vscode.Uri,
    make: (state: { readonly generation: number; readonly layouts: readonly { readonly rowOfLine: ReadonlyMap<number, number> }[] }) => HostToWebview,
  ): void {
    for (const e of this.editors) {
      if (e.document.uri.toString() !== uri.toString()) continue;
      const s = e.document.state;
      if (s.phase !== 'ready') continue;
      e.post(make({ generation: e.document.generation, layouts: s.layouts }));
    }
  }

  /** Opens (or reveals) the timeline of `uri` and selects and frames a drawable given by line IDs. */
  async revealLines(uri: vscode.Uri, hit: Omit<SearchHit, 'row' | 'toRow'>, fromLine: number, toLine: number): Promise<void> {
    const find = (): TimelineEditor | undefined =>
      this.lastActive?.document.uri.toString() === uri.toString()
        ? this.lastActive
        : [...this.editors].find((x) => x.document.uri.toString() === uri.toString());
    if (find() === undefined) await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    const e = find();
    if (e === undefined) return;
    e.panel.reveal(undefined, false);
    e.revealLines(hit, fromLine, toLine);
  }

  /** The timeline editor used last, even when focus is elsewhere (e.g. in a quick pick). */
  lastActiveEditor(): TimelineEditor | undefined {
    return this.lastActive;
  }

  /** The editor the user is looking at (for commands). */
  activeEditor(): TimelineEditor | undefined {
    for (const e of this.editors) if (e.panel.active) return e;
    return undefined;
  }

  /** The open timeline editors of `uri` (most recently active first when known). */
  editorsOf(uri: vscode.Uri): TimelineEditor[] {
    const all = [...this.editors].filter((e) => e.document.uri.toString() === uri.toString());
    return all.sort((a, b) => Number(b === this.lastActive) - Number(a === this.lastActive));
  }

  reports(): EditorReport[] {
    return [...this.editors].map((e) => ({
      uri: e.document.uri.toString(),
      viewState: e.viewState,
      painted: e.painted,
      lastPayload: e.lastPayload,
      active: e.panel.active,
      lastSourceOpen: e.lastSourceOpen,
    }));
  }

  /**
   * Opens `uri` in the timeline (or reveals it) at a time window and Y map — the target of
   * `vscode://` view links (src/host/uriHandler.ts).
   */
  async openAt(
    uri: vscode.Uri,
    view: { readonly t0: number; readonly t1: number; readonly yMap?: number; readonly hidden?: readonly number[]; readonly rows?: readonly number[] },
  ): Promise<void> {
    const state: ViewState = { t0: view.t0, t1: view.t1, mapIndex: view.yMap ?? -1, scrollRow: 0, ...(view.hidden ? { hidden: view.hidden } : {}) };
    const existing = [...this.editors].find((e) => e.document.uri.toString() === uri.toString());
    if (existing) {
      existing.panel.reveal();
      existing.showView(state, view.rows);
      return;
    }
    this.pendingViews.set(uri.toString(), view.rows ? { view: state, lines: view.rows } : { view: state });
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
  }

  /** The popup details of a drawable of an open document (the webview's `requestDetails`, for tests). */
  async details(uri: string, ref: DrawableRef): Promise<DetailsMessage> {
    const e = [...this.editors].find((x) => x.document.uri.toString() === uri);
    if (e === undefined) return { kind: 'details', detailsId: 0, message: 'not open' };
    return answerDetails(e.document, { kind: 'requestDetails', detailsId: 0, generation: e.document.generation, ref }, this.annotate);
  }

  /** "Go to source" for a site id an open document handed out (the webview's `openSource`, for tests). */
  async openSource(uri: string, siteId: number, beside: boolean): Promise<string> {
    const e = [...this.editors].find((x) => x.document.uri.toString() === uri);
    if (e === undefined) return 'not open';
    const r = await this.sourceLinks.open(siteId, (id) => e.document.sites.get(id), { beside });
    return r.opened ? `${r.uri.toString()}:${r.line}` : r.reason;
  }

  /** Re-read every open document of this URI (also done automatically on file change). */
  async reload(uri: string): Promise<void> {
    const docs = new Set([...this.editors].filter((e) => e.document.uri.toString() === uri).map((e) => e.document));
    for (const d of docs) await d.reload();
  }
}
