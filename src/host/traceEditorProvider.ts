/**
 * The trace editor: a CustomReadonlyEditorProvider for SLOG-2 (and CLOG/CLOG2 via conversion).
 * One TraceDocument per file, any number of editors on it, each with its own view state (kept by
 * its webview through getState/setState) and its own WindowServer. No retainContextWhenHidden:
 * a hidden webview is torn down and restores itself from its persisted state.
 */
import * as vscode from 'vscode';
import { assertUnreachable, isWebviewToHost, type CommandMessage, type HostToWebview, type ViewState } from '../protocol/webview';
import { TraceDocument } from './traceDocument';
import { WindowServer, type PayloadInfo } from './windowServer';
import { timelineHtml, webviewOptions } from './webviewHtml';
import { workerConversionJob } from './convertCommand';

export const VIEW_TYPE = 'mpeTrace.timeline';

/** What one editor last reported (for tests and the bench). */
export interface EditorReport {
  readonly uri: string;
  readonly viewState: ViewState | undefined;
  readonly painted: { readonly drawables: number; readonly frameMs: number; readonly at: number } | undefined;
  readonly lastPayload: PayloadInfo | undefined;
  readonly active: boolean;
}

class TimelineEditor implements vscode.Disposable {
  private readonly server: WindowServer;
  private readonly disposables: vscode.Disposable[] = [];
  viewState: ViewState | undefined;
  painted: EditorReport['painted'];
  private ready = false;

  constructor(
    readonly document: TraceDocument,
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const webview = panel.webview;
    webview.options = webviewOptions(extensionUri);
    webview.html = timelineHtml(webview, extensionUri, document.uri.path.slice(document.uri.path.lastIndexOf('/') + 1));
    this.server = new WindowServer(document, (m) => this.post(m));
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)),
      document.onDidChange(() => {
        if (this.ready) this.post(document.initOrStatus());
      }),
    );
  }

  get lastPayload(): PayloadInfo | undefined {
    return this.server.lastPayload;
  }

  post(m: HostToWebview): void {
    void this.panel.webview.postMessage(m);
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
        this.post(this.document.initOrStatus());
        return;
      case 'requestWindow':
        void this.server.serve(m);
        return;
      case 'cancelWindow':
        this.server.cancel(m.requestId);
        return;
      case 'viewState':
        this.viewState = m.state;
        return;
      case 'painted':
        this.painted = { drawables: m.drawables, frameMs: m.frameMs, at: Date.now() };
        this.log.info(`${this.document.uri.path}: painted ${m.drawables} drawables (frame ${m.frameMs.toFixed(1)} ms)`);
        return;
      default:
        assertUnreachable(m);
    }
  }

  dispose(): void {
    this.server.cancel();
    for (const d of this.disposables) d.dispose();
  }
}

export class TraceEditorProvider implements vscode.CustomReadonlyEditorProvider<TraceDocument> {
  private readonly editors = new Set<TimelineEditor>();

  static register(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): TraceEditorProvider {
    const provider = new TraceEditorProvider(context, log);
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(VIEW_TYPE, provider, { supportsMultipleEditorsPerDocument: true }),
    );
    return provider;
  }

  private constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  openCustomDocument(uri: vscode.Uri): TraceDocument {
    // Returns at once: the document opens the file in the background and editors show its status.
    return new TraceDocument(uri, this.context.globalStorageUri, workerConversionJob(this.context.extensionUri));
  }

  resolveCustomEditor(document: TraceDocument, panel: vscode.WebviewPanel): void {
    const editor = new TimelineEditor(document, panel, this.context.extensionUri, this.log);
    this.editors.add(editor);
    panel.onDidDispose(() => {
      this.editors.delete(editor);
      editor.dispose();
    });
  }

  /** The editor the user is looking at (for commands). */
  activeEditor(): TimelineEditor | undefined {
    for (const e of this.editors) if (e.panel.active) return e;
    return undefined;
  }

  reports(): EditorReport[] {
    return [...this.editors].map((e) => ({
      uri: e.document.uri.toString(),
      viewState: e.viewState,
      painted: e.painted,
      lastPayload: e.lastPayload,
      active: e.panel.active,
    }));
  }

  /** Re-read every open document of this URI (also done automatically on file change). */
  async reload(uri: string): Promise<void> {
    const docs = new Set([...this.editors].filter((e) => e.document.uri.toString() === uri).map((e) => e.document));
    for (const d of docs) await d.reload();
  }
}
