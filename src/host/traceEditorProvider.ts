/**
 * The trace editor: a CustomReadonlyEditorProvider for SLOG-2 (and CLOG/CLOG2 via conversion).
 * One TraceDocument per file, any number of editors on it, each with its own view state (kept by
 * its webview through getState/setState) and its own WindowServer. No retainContextWhenHidden:
 * a hidden webview is torn down and restores itself from its persisted state.
 */
import { loadColourings } from './sourceLens/colourings';
import * as vscode from 'vscode';
import {
  type ChainMessage,
  type DetailsMessage,
  type DrawableRef,
  type HostToWebview,
  type LinkMessage,
  type SearchHit,
  type ViewState,
} from '../protocol/webview';
import { TraceDocument } from './traceDocument';
import type { PreviewExtent } from '../protocol/stats';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { workerConversionJob } from './convertCommand';
import { workerRowIndexJob } from './rowIndexing';
import { answerDetails } from './detailsServer';
import { answerChain, type TraceInsights } from './chainServer';
import { editorSettings } from './config';
import { SourceLinks } from './sourceLinks';
import { CategoryColours } from './categoryColours';
import { RowMemory } from './rowMemory';
import { keepFirstViewIn } from './pageBoot';
import { AnalysisClient } from '../worker/analysisClient';

export const VIEW_TYPE = 'mpeTrace.timeline';
/** The global-state key of the last timeline page's plot size (pageBoot.ts). */
const FIRST_VIEW_KEY = 'mpeTrace.firstView';

export { TimelineEditor, type EditorReport } from './timelineEditor';
import { TimelineEditor, type EditorReport } from './timelineEditor';

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
  private readonly windows: AnalysisClient | undefined;

  static register(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, analysis?: AnalysisClient, insights?: TraceInsights): TraceEditorProvider {
    const provider = new TraceEditorProvider(context, log, analysis, insights);
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
    private readonly insights: TraceInsights | undefined,
  ) {
    this.sourceLinks = new SourceLinks(log);
    // A worker of its own for wide windows (windowWorker.ts): the analysis worker may be busy
    // with a whole-file pass for tens of seconds.
    if (analysis !== undefined) {
      const windows = new AnalysisClient(vscode.Uri.joinPath(context.extensionUri, 'dist', 'analysis.js').fsPath, { idleMs: 120_000 });
      context.subscriptions.push({ dispose: () => windows.dispose() });
      this.windows = windows;
    }
    this.colours = new CategoryColours(context.workspaceState);
    this.rowMemory = new RowMemory(context.workspaceState);
    // Plot sizes are the machine's, not a workspace's: kept in the global state.
    keepFirstViewIn({ get: () => context.globalState.get(FIRST_VIEW_KEY), update: (hint) => void context.globalState.update(FIRST_VIEW_KEY, hint) });
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
      this.insights,
      this.rowMemory,
      this.windows,
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
  activeTrace():
    | {
        readonly uri: vscode.Uri;
        readonly file: Slog2File;
        readonly range?: readonly [number, number];
        /** The preview of a CLOG2 still converting (conversionPreview.ts). */
        readonly preview?: PreviewExtent;
      }
    | undefined {
    const e = this.lastActive;
    if (e === undefined) return undefined;
    const s = e.document.state;
    if (s.phase !== 'ready') return undefined;
    return { uri: e.document.uri, file: s.file, ...(e.range ? { range: e.range } : {}), ...(s.preview ? { preview: s.preview } : {}) };
  }

  /** The open, readable traces, the last-active one first (one entry per document). */
  openTraces(): { readonly uri: vscode.Uri; readonly file: Slog2File; readonly range?: readonly [number, number]; readonly lines?: readonly number[] }[] {
    const out: { uri: vscode.Uri; file: Slog2File; range?: readonly [number, number]; lines?: readonly number[] }[] = [];
    const seen = new Set<string>();
    const ordered = this.lastActive ? [this.lastActive, ...[...this.editors].filter((e) => e !== this.lastActive)] : [...this.editors];
    for (const e of ordered) {
      const s = e.document.state;
      const key = e.document.uri.toString();
      if (s.phase !== 'ready' || seen.has(key)) continue;
      seen.add(key);
      out.push(
        e.range
          ? { uri: e.document.uri, file: s.file, range: e.range, ...(e.rangeLines ? { lines: e.rangeLines } : {}) }
          : { uri: e.document.uri, file: s.file },
      );
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
    return answerDetails(e.document, { kind: 'requestDetails', detailsId: 0, generation: e.document.generation, ref }, this.insights?.annotate);
  }

  /** The dependence chain of a state of an open document (the webview's `requestChain`, for tests). */
  async chain(uri: string, ref: DrawableRef, direction: 'backward' | 'forward'): Promise<ChainMessage> {
    const e = [...this.editors].find((x) => x.document.uri.toString() === uri);
    if (e === undefined || this.insights === undefined) return { kind: 'chain', chainId: 0, message: 'not open' };
    const m = { kind: 'requestChain', chainId: 0, generation: e.document.generation, ref, direction } as const;
    return answerChain(e.document, m, { source: this.insights.chainSource, maxDepth: () => editorSettings().dependenceChainDepth });
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
