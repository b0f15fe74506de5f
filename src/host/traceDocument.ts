/**
 * One opened trace file, shared by every editor showing it: the lazily opened SLOG-2 reader (only
 * header, categories, Y maps and tree directory are read at open), the row layouts of its Y maps
 * and a cache of built window payloads. CLOG/CLOG2 inputs go through a cached conversion first.
 * When the file changes on disk the document reloads and bumps its generation; editors then drop
 * everything they have and start over.
 */
import { siteMarker, type SiteMarks } from '../core/search/siteMarks';
import type { SiteMarker } from '../core/model/siteFlags';
import * as vscode from 'vscode';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { LruCache } from '../core/query/windowKey';
import { rowLayoutOf, type RowLayout } from '../core/query/rows';
import { prewarmTopNodes } from '../core/query/windowService';
import { describeTrace } from '../core/query/describe';
import { initMessage, type InitMessage, type StatusMessage } from '../protocol/webview';
import type { CachedWindow } from '../core/query/windowServer';
import { openSlog2 } from './openSlog2';
import { cachedSlog2For, conversionWarnings, ConversionUnavailableError, findCachedSlog2, type ConversionJob } from './clogConversion';
import { displayName, NotSlog1Error, openTraceSource, sniffSlog1, traceKind, TooLargeError } from './traceSource';
import { editorSettings } from './config';
import { SourceSites } from './sourceSites';
import type { IndexedRows } from '../core/query/windowService';
import { prepareRowIndex, ROW_INDEX_MIN_ROWS, type RowIndexJob } from './rowIndexing';
import * as previews from './conversionPreview';
import type { SnapshotFile } from '../protocol/worker';
import { withConversionNotification } from './conversionNotification';

export type DocumentState =
  | { readonly phase: 'opening' }
  | { readonly phase: 'converting'; readonly progress: number; readonly message: string }
  | {
      readonly phase: 'ready';
      readonly file: Slog2File;
      readonly layouts: readonly RowLayout[];
      readonly openMs: number;
      /** A CLOG2's first bytes, shown while the whole file converts (conversionPreview.ts). */
      readonly preview?: previews.PreviewFile;
    }
  | { readonly phase: 'error' | 'unsupported'; readonly message: string; readonly offerOtherEditor?: boolean };

/** Built payloads kept per document (shared by its editors). */
const WINDOW_CACHE_ENTRIES = 48;
const RELOAD_DEBOUNCE_MS = 400;
/** Longest the row index build waits for an editor's first picture before starting anyway. */
const INDEX_AFTER_PAINT_WAIT_MS = 3000;
/** How often the whole conversion behind a preview shows how far it has got (a snapshot of its output). */
const SNAPSHOT_EVERY_MS = 1500;
/** Longest the whole conversion waits for the first picture of its preview. */
const PREVIEW_PAINT_WAIT_MS = 1000;

export class TraceDocument implements vscode.CustomDocument {
  private stateValue: DocumentState = { phase: 'opening' };
  private generationValue = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the state or generation changes (editors re-send init/status). */
  readonly onDidChange = this.changed.event;
  readonly windows = new LruCache<CachedWindow>(WINDOW_CACHE_ENTRIES);
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private readonly marksDisposable = { dispose: () => this.marksChanged.dispose() };
  private loading: AbortController | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** Source locations shown to this document's editors (ids the webviews may send back). */
  readonly sites = new SourceSites();
  /** Sites shown and code colourings (window flags); the version is part of the window cache key. */
  private marks: SiteMarks = { colourings: [] };
  private marksVersionValue = 0;
  private marker: SiteMarker | undefined;
  private readonly marksChanged = new vscode.EventEmitter<SiteMarks>();
  /** Fires when the shown sites or the colourings change (editors re-send them and reload windows). */
  readonly onDidChangeSiteMarks = this.marksChanged.event;
  /** The colourings have been read from the sidecar once. */
  colouringsLoaded = false;
  /** The rows × time index of the open file once it is ready (windows of a few rows read through it). */
  rowIndex: IndexedRows | undefined;
  /** The preview on screen while the whole conversion runs, and how far that has got (0..1). */
  private preview: previews.OpenedPreview | undefined;
  private previewProgressValue = 0;
  private readonly previewProgressed = new vscode.EventEmitter<number>();
  /** Fires as the conversion behind a preview moves on (editors show it beside the preview). */
  readonly onDidPreviewProgress = this.previewProgressed.event;

  constructor(
    readonly uri: vscode.Uri,
    private readonly storage: vscode.Uri,
    private readonly conversion: ConversionJob | undefined,
    private readonly rowIndexJob?: RowIndexJob,
    /** Which CLOG2 files get a preview, and of how many bytes (tests choose small ones). */
    private readonly previewSizes?: previews.PreviewSizes,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.slice(uri.path.lastIndexOf('/') + 1)),
    );
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => this.scheduleReload()),
      watcher.onDidCreate(() => this.scheduleReload()),
    );
    void this.load();
  }

  get siteMarks(): SiteMarks {
    return this.marks;
  }

  get marksVersion(): number {
    return this.marksVersionValue;
  }

  /** Flag bits of a located drawable under the current marks (undefined: nothing marked). */
  get siteMarker(): SiteMarker | undefined {
    return this.marker;
  }

  setSiteMarks(marks: SiteMarks): void {
    this.marks = marks;
    this.marker = siteMarker(marks);
    this.marksVersionValue++;
    this.windows.clear();
    this.marksChanged.fire(marks);
  }

  get state(): DocumentState {
    return this.stateValue;
  }

  /** Resolves once the document is no longer 'opening' (ready, converting, failed), or after `ms`. */
  settled(ms: number): Promise<void> {
    if (this.stateValue.phase !== 'opening') return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const sub = this.changed.event(() => {
        if (this.stateValue.phase !== 'opening') done();
      });
    });
  }

  get generation(): number {
    return this.generationValue;
  }

  private setState(s: DocumentState): void {
    this.stateValue = s;
    this.changed.fire();
  }

  private scheduleReload(): void {
    if (this.reloadTimer !== undefined) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.reload(), RELOAD_DEBOUNCE_MS);
  }

  /** Re-reads the file (it changed on disk): new generation, empty caches. */
  async reload(): Promise<void> {
    if (this.disposed) return;
    await this.closeFile();
    this.setState({ phase: 'opening' });
    await this.load();
  }

  private async load(): Promise<void> {
    const ac = new AbortController();
    this.loading?.abort();
    this.loading = ac;
    const started = Date.now();
    const settings = editorSettings();
    try {
      let file: Slog2File;
      /** The SLOG-2 on disk, when it is one the row index can address (not gzip'd, a local file). */
      let onDisk: string | undefined;
      const kind = traceKind(this.uri);
      if (kind === 'slog1') await sniffSlog1(this.uri);
      if (kind === 'clog' || kind === 'clog2' || kind === 'alog' || kind === 'slog1') {
        const converted = await this.convert(settings.conversionCacheBytes, ac.signal, started);
        file = await openSlog2(await openTraceSource(vscode.Uri.file(converted), settings.wholeFileLimitBytes));
        onDisk = converted;
        // What the conversion dropped or could not match is shown with the trace (toolbar ⚠), also
        // when it opens from the cache.
        for (const w of await conversionWarnings(converted)) file.warnings.push(`conversion: ${w}`);
      } else {
        file = await openSlog2(await openTraceSource(this.uri, settings.wholeFileLimitBytes));
        if (this.uri.scheme === 'file' && !this.uri.path.endsWith('.gz')) onDisk = this.uri.fsPath;
      }
      // A current row index (the conversion's, or one built before) is opened before the trace is
      // shown (tens of ms), so the first windows already go through it; a build stays in the background.
      const current = onDisk !== undefined && maxRows(file) >= ROW_INDEX_MIN_ROWS ? await this.currentRowIndex(file, onDisk, ac.signal) : undefined;
      if (ac.signal.aborted || this.disposed) {
        await current?.index.close();
        await file.close();
        return;
      }
      this.windows.clear();
      this.sites.clear();
      this.generationValue++;
      // Not for wide traces: their top nodes hold every row's previews (0.6 s to parse at 4096
      // ranks), more than the first window needs once the row index serves only the visible rows.
      if (maxRows(file) < ROW_INDEX_MIN_ROWS) void prewarmTopNodes(file, ac.signal);
      this.rowIndex = current;
      const preview = this.preview;
      this.preview = undefined;
      this.setState({ phase: 'ready', file, layouts: file.lineIDMaps.map(rowLayoutOf), openMs: Date.now() - started });
      await previews.closePreview(preview);
      if (onDisk !== undefined && current === undefined) void this.indexRowsAfterFirstPaint(file, onDisk, ac.signal);
    } catch (e) {
      if (ac.signal.aborted || this.disposed) return;
      await this.dropPreview();
      const message = e instanceof Error ? e.message : String(e);
      const unsupported = e instanceof ConversionUnavailableError || e instanceof TooLargeError || e instanceof NotSlog1Error;
      this.generationValue++;
      this.setState({ phase: unsupported ? 'unsupported' : 'error', message, ...(e instanceof NotSlog1Error ? { offerOtherEditor: true } : {}) });
      if (!unsupported) void vscode.window.showErrorMessage(`MPE Trace Viewer: cannot open ${displayName(this.uri)}: ${message}`);
    }
  }

  /** Never a wrong picture: a refused read drops the index; the plain query serves from now on. */
  private dropRowIndex(file: Slog2File, e: Error): void {
    file.warnings.push(`row index dropped: ${e.message}`);
    const dropped = this.rowIndex;
    this.rowIndex = undefined;
    void dropped?.index.close();
  }

  /** The row index of `trace` when a current one is in the cache (no build; undefined otherwise). */
  private async currentRowIndex(file: Slog2File, trace: string, signal: AbortSignal): Promise<IndexedRows | undefined> {
    return await prepareRowIndex(file, trace, this.storage, undefined, signal, (e) => this.dropRowIndex(file, e)).catch(() => undefined);
  }

  /**
   * An editor of this document drew its first picture (the row index build waits for that). The
   * build reads the whole trace and writes about as much on one core; started at open, it took the
   * CPU and disk the first window needed (first open of a 1 GB, 4096-rank trace: first picture
   * 1.8 s after the click against 1.1–1.3 s with the build started later).
   */
  notePainted(): void {
    this.paintedOnce();
  }

  private paintedOnce: () => void = () => undefined;
  private readonly firstPaint = new Promise<void>((resolve) => (this.paintedOnce = resolve));

  /** Resolves when an editor has drawn its first picture, or after `ms`. */
  private async paintedOrAfter(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.firstPaint, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private async indexRowsAfterFirstPaint(file: Slog2File, trace: string, signal: AbortSignal): Promise<void> {
    // Not forever: a document whose editors never paint (hidden, or a page that failed) still gets its index.
    await this.paintedOrAfter(INDEX_AFTER_PAINT_WAIT_MS);
    if (!signal.aborted && !this.disposed) await this.indexRows(file, trace, signal);
  }

  /** Opens or builds the row index in the background; windows use it once it is there. */
  private async indexRows(file: Slog2File, trace: string, signal: AbortSignal): Promise<void> {
    const ready = (): boolean => !signal.aborted && !this.disposed && this.stateValue.phase === 'ready' && this.stateValue.file === file;
    const rows = await prepareRowIndex(file, trace, this.storage, this.rowIndexJob, signal, (e) => this.dropRowIndex(file, e)).catch((e: unknown) => {
      file.warnings.push(`row index unavailable: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    });
    if (rows === undefined) return;
    if (!ready()) {
      await rows.index.close();
      return;
    }
    this.rowIndex = rows;
  }

  private async convert(cacheBytes: number, signal: AbortSignal, started: number): Promise<string> {
    // A cached conversion opens without a progress notification.
    const cached = await findCachedSlog2(this.storage, this.uri);
    if (cached !== undefined) return cached;
    // The preview first: it takes a fraction of a second, and the whole conversion would slow it.
    // So would the whole conversion's two threads the preview's first picture (two cores): the
    // conversion waits for that picture, a second at most.
    const previewed = await this.showPreview(signal, started);
    if (previewed) await this.paintedOrAfter(PREVIEW_PAINT_WAIT_MS);
    // Then the whole conversion's output as it is written replaces the preview every few seconds.
    const snapshots = new previews.LatestOnly<SnapshotFile>((s) => this.showSnapshot(s, signal, started));
    const title = `Converting ${this.uri.path.slice(this.uri.path.lastIndexOf('/') + 1)} to SLOG-2`;
    return await withConversionNotification(title, signal, (notify, aborted) =>
      cachedSlog2For(
        this.storage,
        this.uri,
        cacheBytes,
        this.conversion,
        {
          report: (fraction, message) => {
            notify(fraction, message);
            const f = Math.max(0, Math.min(1, fraction));
            if (this.preview !== undefined) {
              this.previewProgressValue = f;
              this.previewProgressed.fire(f);
            } else this.setState({ phase: 'converting', progress: f, message: message ?? 'Converting to SLOG-2…' });
          },
          ...(previewed ? { snapshots: { everyMs: SNAPSHOT_EVERY_MS, onSnapshot: (s: SnapshotFile) => snapshots.offer(s) } } : {}),
        },
        aborted,
      ),
    );
  }

  /** Shows the preview of a big CLOG2 (conversionPreview.ts), if it gets one, as a generation of its own. */
  private async showPreview(signal: AbortSignal, started: number): Promise<boolean> {
    if (this.conversion === undefined) return false;
    const open = async (file: string): Promise<Slog2File> => openSlog2(await openTraceSource(vscode.Uri.file(file), editorSettings().wholeFileLimitBytes));
    const preview = await previews.openPreview(this.storage, this.uri, this.conversion, signal, open, this.previewSizes);
    if (preview === undefined || signal.aborted || this.disposed) {
      await previews.closePreview(preview);
      return false;
    }
    this.previewProgressValue = 0;
    this.present(preview, started);
    return true;
  }

  /** A snapshot of the whole conversion replaces the preview shown, when it shows more. */
  private async showSnapshot(snapshot: SnapshotFile, signal: AbortSignal, started: number): Promise<void> {
    const shown = this.preview;
    if (shown === undefined || snapshot.bytesRead <= shown.made.shownBytes) return;
    const next = await previews.openSnapshot(snapshot, shown.made.runEnd, openSlog2);
    if (next === undefined) return;
    // Input read is ahead of what is written (read-ahead, batches in flight): the times say which shows more.
    const more = next.file.timeRange[1] > shown.file.timeRange[1];
    if (!more || signal.aborted || this.disposed || this.preview !== shown) return void (await previews.closePreview(next));
    this.present(next, started);
    await previews.closePreview(shown);
  }

  /** A preview as the next generation. */
  private present(preview: previews.OpenedPreview, started: number): void {
    this.preview = preview;
    this.windows.clear();
    this.sites.clear();
    this.generationValue++;
    const { file, made } = preview;
    this.setState({ phase: 'ready', file, layouts: file.lineIDMaps.map(rowLayoutOf), openMs: Date.now() - started, preview: made });
  }

  /** Closes and removes the preview, if one is shown. */
  private async dropPreview(): Promise<void> {
    const preview = this.preview;
    this.preview = undefined;
    await previews.closePreview(preview);
  }

  /** The message that (re)starts an editor on this document, or its status when not ready. */
  initOrStatus(): InitMessage | StatusMessage {
    const s = this.stateValue;
    switch (s.phase) {
      case 'ready':
        return initMessage(
          describeTrace(s.file, s.layouts),
          this.generationValue,
          displayName(this.uri),
          s.openMs,
          s.preview && previews.previewMessage(s.preview, this.previewProgressValue),
        );
      case 'opening':
        return { kind: 'status', phase: 'opening', message: `Opening ${displayName(this.uri)}…` };
      case 'converting':
        return { kind: 'status', phase: 'converting', message: s.message, progress: s.progress };
      default:
        return { kind: 'status', phase: s.phase, message: s.message, ...(s.offerOtherEditor ? { offerOtherEditor: true } : {}) };
    }
  }

  private async closeFile(): Promise<void> {
    this.loading?.abort();
    const s = this.stateValue;
    this.windows.clear();
    const rows = this.rowIndex;
    this.rowIndex = undefined;
    await rows?.index.close();
    if (s.phase === 'ready' && s.file !== this.preview?.file) await s.file.close();
    await this.dropPreview();
  }

  dispose(): void {
    this.disposed = true;
    if (this.reloadTimer !== undefined) clearTimeout(this.reloadTimer);
    void this.closeFile();
    for (const d of this.disposables) d.dispose();
    this.previewProgressed.dispose();
    this.marksDisposable.dispose();
  }
}

/** Rows of the widest Y map. */
function maxRows(file: Slog2File): number {
  let rows = 0;
  for (const m of file.lineIDMaps) rows = Math.max(rows, m.rows.length);
  return rows;
}
