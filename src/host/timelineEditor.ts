/**
 * One trace editor (a webview panel on a TraceDocument): its window server, search, details and
 * source links, the view it last reported, and the messages it exchanges with its webview. How
 * its page starts (boot, init, views asked for before it was ready) is PageStart's.
 */
import { parseSiteQuery } from '../core/search/siteQuery';
import * as vscode from 'vscode';
import {
  assertUnreachable,
  isWebviewToHost,
  type CommandMessage,
  type HostToWebview,
  type LinkMessage,
  type PeerCursorMessage,
  type SearchHit,
  type SiteMarksMessage,
  type ViewState,
  type ViewStateMessage,
} from '../protocol/webview';
import { TraceDocument } from './traceDocument';
import { WindowServer, type PayloadInfo } from './windowServer';
import { timelineHtml, webviewOptions } from './webviewHtml';
import { BOOT_WAIT_MS } from './pageBoot';
import { PageStart } from './pageStart';
import { answerDetails } from './detailsServer';
import { answerChain, type TraceInsights } from './chainServer';
import { editorSettings } from './config';
import { SourceLinks } from './sourceLinks';
import { CategoryColours } from './categoryColours';
import { SearchServer } from './searchServer';
import { RowMemory } from './rowMemory';
import { linesOfRows } from '../core/query/rows';
import type { AnalysisClient } from '../worker/analysisClient';
import { offThreadWindows } from './windowWorker';

/** A view the webview reported, with whether it moved on its own (see ViewStateMessage). */
export type ViewReport = Omit<ViewStateMessage, 'kind'>;

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
  private readonly start: PageStart;
  private disposed = false;
  /** Categories hidden in this editor's legend (for bookmarks and links). */
  hiddenCategories: readonly number[] = [];
  /** The time range selected in this editor's timeline (the statistics panel follows it). */
  range: readonly [number, number] | undefined;
  /** The timelines (line IDs) of a region selection (rows × time); undefined: all rows. */
  rangeLines: readonly number[] | undefined;
  /** What the last "Go to source" did (for tests): `uri:line` or the reason it did not open. */
  lastSourceOpen: string | undefined;
  private readonly viewChanged = new vscode.EventEmitter<ViewReport>();
  /** The webview reported a new view (window, map, row scroll): a comparison mirrors its moves. */
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
    private readonly insights: TraceInsights | undefined,
    private readonly rowMemory: RowMemory,
    windows: AnalysisClient | undefined,
  ) {
    const webview = panel.webview;
    webview.options = webviewOptions(extensionUri);
    // The page waits for the file to open (tens of ms for a SLOG-2) so it can start with its init;
    // a longer open (a conversion, a slow disk) shows its status instead.
    const title = document.uri.path.slice(document.uri.path.lastIndexOf('/') + 1);
    void document
      .settled(BOOT_WAIT_MS)
      .then(() => this.start.bootMessages())
      .then((boot) => {
        if (!this.disposed) webview.html = timelineHtml(webview, extensionUri, title, boot, editorSettings().renderer);
      });
    this.server = new WindowServer(document, (m) => this.post(m), windows !== undefined ? { offThread: offThreadWindows(windows, document) } : {});
    this.search = new SearchServer(document, (m) => this.post(m), analysis);
    this.start = new PageStart({
      document,
      server: this.server,
      colours,
      rowMemory,
      post: (m) => this.post(m),
      siteMarks: () => this.siteMarksMessage(),
      mapIndex: () => this.viewState?.mapIndex,
    });
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)),
      document.onDidChange(() => this.start.documentChanged()),
      document.onDidChangeSiteMarks(() => {
        if (this.start.ready) this.post(this.siteMarksMessage());
      }),
      document.onDidPreviewProgress((progress) => {
        if (this.start.ready) this.post({ kind: 'previewProgress', generation: document.generation, progress });
      }),
    );
  }

  private siteMarksMessage(): SiteMarksMessage {
    const m = this.document.siteMarks;
    return {
      kind: 'siteMarks',
      ...(m.highlight !== undefined ? { highlight: m.highlight } : {}),
      colourings: m.colourings.map((c) => ({ sites: c.sites, rgb: [c.rgb[0], c.rgb[1], c.rgb[2]] })),
    };
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
    // A window or search answer can come back after the panel closed (its webview then throws).
    if (!this.disposed) void this.panel.webview.postMessage(m);
  }

  /** Moves this editor to `view` (after its init when it is not ready yet). */
  showView(view: ViewState, lines?: readonly number[]): void {
    this.start.showView(view, lines);
  }

  /** Selects and frames a drawable given by its line IDs (rows of the editor's current Y map). */
  revealLines(hit: Omit<SearchHit, 'row' | 'toRow'>, fromLine: number, toLine: number): void {
    this.start.revealLines(hit, fromLine, toLine);
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

  /** Mirrors the other editor of a comparison (see PageStart.syncView); returns the sync's number. */
  syncView(view: ViewState): number {
    return this.start.syncView(view);
  }

  /** Links this editor with another one's cursor (a comparison), or unlinks it. */
  showPeerCursor(linked: boolean, time?: number, label?: string): void {
    this.peer = { kind: 'peerCursor', linked, ...(time !== undefined ? { time } : {}), ...(label !== undefined ? { label } : {}) };
    if (!this.start.ready) return;
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
    if (this.start.ready) this.post({ kind: 'categoryColours', colours: this.colours.all() });
  }

  /** The range selected in the timeline (Ctrl+drag) changed: side panels and source numbers follow. */
  /** A Ctrl/Cmd+drag range, or with `rows` (of the Y map shown) a region of rows × time (Ctrl/Cmd+Shift+drag). */
  selectRange(range: readonly [number, number] | undefined, rows?: readonly number[], mapIndex?: number): void {
    this.range = range;
    const state = this.document.state;
    const layout = state.phase === 'ready' ? state.layouts[mapIndex ?? this.viewState?.mapIndex ?? 0] : undefined;
    this.rangeLines = range !== undefined && rows !== undefined && layout !== undefined ? linesOfRows(layout, rows) : undefined;
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
        this.start.onReady(m);
        if (this.peer !== undefined) this.post(this.peer);
        return;
      case 'cursor':
        this.cursorMoved.fire(m.time);
        return;
      case 'requestWindow':
        void this.server.serveRequest(m);
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
        this.viewChanged.fire({ state: m.state, moved: m.moved, syncSeq: m.syncSeq });
        return;
      case 'requestDetails':
        void answerDetails(this.document, m, this.insights?.annotate, (at, generation) => this.server.identitiesOf(at.requestId, at.final, generation)).then(
          (answer) => this.post(answer),
        );
        return;
      case 'requestChain': {
        const insights = this.insights;
        if (insights === undefined) return this.post({ kind: 'chain', chainId: m.chainId, message: 'no wait-state analysis here' });
        void answerChain(this.document, m, {
          source: insights.chainSource,
          identities: (at, generation) => this.server.identitiesOf(at.requestId, at.final, generation),
          maxDepth: () => editorSettings().dependenceChainDepth,
        }).then((answer) => this.post(answer));
        return;
      }
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
        this.selectRange(m.range, m.rows, m.mapIndex);
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
        this.document.notePainted();
        return;
      default:
        assertUnreachable(m);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.viewChanged.dispose();
    this.cursorMoved.dispose();
    this.server.cancel();
    this.search.close();
    for (const d of this.disposables) d.dispose();
  }
}
