/**
 * The "Statistics" webview view (activity-bar container "MPE Trace"): follows the active trace
 * editor and shows, for the whole trace or the timeline's selected range, first the instant
 * numbers (CategoryMap summaries; shadows of a coarse level for big ranges, flagged approximate),
 * then the exact ones computed from every real drawable overlapping the range, with progress and
 * cancellation (SLOG2.md §16). Exports tables as CSV/JSON (save dialog) and copies them as TSV.
 */
import * as vscode from 'vscode';
import type { Category, LineIDMap } from '../core/model/types';
import {
  chooseApproximateLevel,
  computeRangeStats,
  exactStatsOfFile,
  messageTagAndSize,
  nodeBatches,
  statsJson,
  statsTable,
  summaryStats,
  toCsv,
  toTsv,
  type InstanceRef,
  type NodeSliceLike,
  type RangeStats,
  type TableName,
} from '../core/stats';
import {
  isStatsToHost,
  type HostToStats,
  type MessageItem,
  type PreviewExtent,
  type StatsToHost,
  type TraceMessage,
  type WaitsMessage,
} from '../protocol/stats';
import { webviewOptions, webviewPageHtml } from './webviewHtml';
import { FileSource } from '../io/fileSource';
import { Slog2File } from '../core/formats/slog2/slog2File';
import type { AnalysisClient } from '../worker/analysisClient';
import { PATTERNS, type AnalysisResult } from '../core/analysis/types';

/** What the panel needs of an open SLOG-2 file (Slog2File has all of it). */
export interface StatsTraceFile {
  readonly categories: ReadonlyMap<number, Category>;
  readonly lineIDMaps: readonly LineIDMap[];
  readonly timeRange: readonly [number, number];
  readonly maxDepth: number;
  query(t0: number, t1: number, options: { lowestDepth?: number; signal?: AbortSignal }): AsyncIterable<NodeSliceLike>;
  nodesOverlapping(depth: number, t0: number, t1: number): readonly unknown[];
}

/** The trace the panel follows: the active trace editor's document and its selected range. */
export interface ActiveTrace {
  readonly uri: vscode.Uri;
  readonly file: StatsTraceFile;
  /** The range drag-selected in the timeline; undefined = whole trace. */
  readonly range?: readonly [number, number];
  /** The file is the preview of a CLOG2 still converting (its first bytes of the total). */
  readonly preview?: PreviewExtent;
}

/** Timeline actions the panel can trigger (each optional; wired by the editor). */
export interface TimelineLinks {
  highlightCategory?(uri: vscode.Uri, index: number): void;
  revealRow?(uri: vscode.Uri, lineID: number): void;
  revealInstance?(uri: vscode.Uri, category: number, instance: InstanceRef): void;
}

export interface StatsViewOptions {
  /** Fires when the active trace editor, its document or its selected range changes. */
  readonly onDidChangeActiveTrace: vscode.Event<unknown>;
  readonly links?: TimelineLinks;
  /** Computes off the extension host's thread for files on disk (others are computed here). */
  readonly analysis?: AnalysisClient;
}

/** The path a worker can open, when the trace is a file on disk read through a FileSource. */
export function localPathOf(file: StatsTraceFile): string | undefined {
  const source = (file as { readonly source?: unknown }).source;
  return source instanceof FileSource ? source.name : undefined;
}

export const STATS_VIEW_ID = 'mpeTrace.statistics';

/** The panel's view of a wait-state analysis: totals per pattern and per state name. */
function waitsMessage(r: AnalysisResult): WaitsMessage {
  const byCategory: Record<string, number> = {};
  for (const p of PATTERNS) for (const [name, t] of Object.entries(r.waitStates[p].byCategory)) byCategory[name] = (byCategory[name] ?? 0) + t;
  return {
    kind: 'waits',
    range: r.range,
    patterns: PATTERNS.map((p) => ({ pattern: p, time: r.waitStates[p].time, count: r.waitStates[p].count, max: r.waitStates[p].max })),
    byCategory,
    criticalPath: { length: r.criticalPath.length, byCategory: r.criticalPath.byCategory },
    excludedReceiveBeforeSend: r.messages.excludedReceiveBeforeSend,
  };
}

const PROGRESS_INTERVAL_MS = 150;
const MAX_LISTED_MESSAGES = 500;

export function registerStatsView(
  context: vscode.ExtensionContext,
  getActiveTrace: () => ActiveTrace | undefined,
  options: StatsViewOptions,
): StatsViewProvider {
  const provider = new StatsViewProvider(context.extensionUri, getActiveTrace, options);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(STATS_VIEW_ID, provider), provider);
  return provider;
}

export class StatsViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private running: AbortController | undefined;
  private shown: { file: StatsTraceFile; uri: string; range: readonly [number, number] } | undefined;
  private latest: RangeStats | undefined;
  private traceMessage: TraceMessage | undefined;
  /** Set by the panel's "whole trace" button until the selection changes again. */
  private ignoreSelection: readonly [number, number] | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly getActiveTrace: () => ActiveTrace | undefined,
    private readonly options: StatsViewOptions,
  ) {
    this.disposables.push(options.onDidChangeActiveTrace(() => this.refresh()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = statsHtml(view.webview, this.extensionUri);
    this.disposables.push(
      view.webview.onDidReceiveMessage((m: unknown) => {
        if (isStatsToHost(m)) void this.onMessage(m);
      }),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.refresh();
      }),
      view.onDidDispose(() => {
        this.running?.abort();
        this.view = undefined;
        this.shown = undefined;
      }),
    );
  }

  /** The numbers on display (for tests and the lead's wiring). */
  get current(): RangeStats | undefined {
    return this.latest;
  }

  private post(m: HostToStats): void {
    void this.view?.webview.postMessage(m);
  }

  /**
   * Recomputes when the followed trace or range changed. `resend`: the webview was (re)created and
   * has nothing, so an unchanged result is posted again instead of being recomputed.
   */
  refresh(resend = false): void {
    if (this.view === undefined || !this.view.visible) return;
    const active = this.getActiveTrace();
    if (active === undefined) {
      this.running?.abort();
      this.shown = undefined;
      this.latest = undefined;
      this.traceMessage = undefined;
      this.post({ kind: 'empty' });
      return;
    }
    const selection = active.range !== undefined && !sameRange(active.range, this.ignoreSelection) ? active.range : undefined;
    if (active.range === undefined) this.ignoreSelection = undefined;
    const range = selection ?? active.file.timeRange;
    const key = { file: active.file, uri: active.uri.toString(), range };
    if (this.shown !== undefined && this.shown.file === key.file && this.shown.uri === key.uri && sameRange(this.shown.range, range)) {
      if (resend && this.traceMessage !== undefined) {
        this.post(this.traceMessage);
        if (this.latest !== undefined) this.post({ kind: 'stats', stats: this.latest });
      }
      return;
    }
    this.shown = key;
    void this.compute(active, range, selection === undefined);
  }

  private async compute(active: ActiveTrace, range: readonly [number, number], whole: boolean): Promise<void> {
    this.running?.abort();
    const ac = new AbortController();
    this.running = ac;
    const { file } = active;
    const analysis = this.options.analysis;
    const path = localPathOf(file);
    this.latest = undefined;
    this.traceMessage = {
      kind: 'trace',
      fileName: active.uri.path.slice(active.uri.path.lastIndexOf('/') + 1),
      timeRange: file.timeRange,
      range,
      rowColumns: file.lineIDMaps[0]?.columns ?? [],
      ...(active.preview !== undefined ? { preview: { shownBytes: active.preview.shownBytes, totalBytes: active.preview.totalBytes } } : {}),
    };
    this.post(this.traceMessage);
    try {
      if (whole) {
        const quick = summaryStats(file.categories, file.timeRange, file.lineIDMaps);
        if (quick !== undefined) this.publish(quick, ac);
      }
      const level = chooseApproximateLevel(file.maxDepth, (depth) => file.nodesOverlapping(depth, range[0], range[1]).length);
      if (level !== undefined) {
        const approx =
          path !== undefined && analysis !== undefined
            ? await analysis.stats(path, range, level, { signal: ac.signal })
            : await computeRangeStats(file, nodeBatches(file.query(range[0], range[1], { lowestDepth: level, signal: ac.signal })), range, {
                signal: ac.signal,
                approximate: true,
              });
        this.publish(approx, ac);
      }
      // A snapshot of a conversion has no file of its own: its exact statistics would be a whole
      // pass on this thread every 1.5 s. They come with the whole trace, which replaces it.
      if (active.preview !== undefined && (path === undefined || analysis === undefined)) return;
      let last = 0;
      const progress = (drawables: number, fraction: number | undefined): void => {
        const now = Date.now();
        if (now - last < PROGRESS_INTERVAL_MS) return;
        last = now;
        this.post({ kind: 'progress', drawables, ...(fraction !== undefined ? { fraction } : {}) });
      };
      const exact =
        path !== undefined && analysis !== undefined
          ? await analysis.stats(path, range, 0, { signal: ac.signal, onProgress: (fraction, drawables) => progress(drawables ?? 0, fraction) })
          : file instanceof Slog2File
            ? await exactStatsOfFile(file, range, { signal: ac.signal, onProgress: (p) => progress(p.drawables, p.fraction) })
            : await computeRangeStats(file, nodeBatches(file.query(range[0], range[1], { lowestDepth: 0, signal: ac.signal })), range, {
                signal: ac.signal,
                onProgress: (p) => progress(p.drawables, p.fraction),
              });
      this.publish(exact, ac);
      if (path !== undefined && analysis !== undefined) {
        const w = await analysis.waits(path, { signal: ac.signal, range, maxInstances: 0 });
        if (!ac.signal.aborted) this.post(waitsMessage(w));
      }
    } catch (e) {
      if (ac.signal.aborted) return;
      this.post({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    } finally {
      if (this.running === ac) this.running = undefined;
    }
  }

  private publish(stats: RangeStats, ac: AbortController): void {
    if (ac.signal.aborted) return;
    this.latest = stats;
    this.post({ kind: 'stats', stats });
  }

  private async onMessage(m: StatsToHost): Promise<void> {
    const uri = this.shown === undefined ? undefined : vscode.Uri.parse(this.shown.uri);
    switch (m.kind) {
      case 'ready':
        this.refresh(true);
        return;
      case 'cancel':
        if (this.running === undefined) return;
        this.running.abort();
        // Forget the key so that the next change or reopening of the view computes again.
        this.shown = undefined;
        this.post({ kind: 'error', message: this.latest === undefined ? 'Cancelled.' : `Cancelled: the numbers shown are ${this.latest.kind}, not exact.` });
        return;
      case 'wholeTrace':
        this.ignoreSelection = this.getActiveTrace()?.range;
        this.refresh();
        return;
      case 'export':
        return this.export(m.format, m.table);
      case 'copy':
        if (this.latest === undefined) return;
        await vscode.env.clipboard.writeText(toTsv(statsTable(this.latest, m.table)));
        void vscode.window.setStatusBarMessage(`Copied the ${m.table} table`, 3000);
        return;
      case 'highlightCategory':
        if (uri !== undefined) this.options.links?.highlightCategory?.(uri, m.index);
        return;
      case 'revealRow':
        if (uri !== undefined) this.options.links?.revealRow?.(uri, m.lineID);
        return;
      case 'revealInstance':
        if (uri !== undefined) this.options.links?.revealInstance?.(uri, m.category, m.instance);
        return;
      case 'listMessages':
        return this.listMessages(m.from, m.to);
    }
  }

  private async export(format: 'csv' | 'json', table: TableName): Promise<void> {
    const stats = this.latest;
    const shown = this.shown;
    if (stats === undefined || shown === undefined) return;
    const source = vscode.Uri.parse(shown.uri);
    const base = source.path.slice(source.path.lastIndexOf('/') + 1).replace(/\.(slog2|clog2?)(\.gz)?$/i, '');
    const name = format === 'json' ? `${base}.stats.json` : `${base}.${table}.csv`;
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(source, '..', name),
      filters: format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] },
      title: format === 'json' ? 'Export statistics as JSON' : `Export the ${table} table as CSV`,
    });
    if (target === undefined) return;
    // The same document as `mpe-trace stats --json`, the same table as `--csv`.
    const text = format === 'json' ? JSON.stringify(statsJson(stats), undefined, 1) + '\n' : toCsv(statsTable(stats, table));
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  }

  /** The messages of one matrix cell (sender → receiver) in the shown range, first ones first. */
  private async listMessages(from: number, to: number): Promise<void> {
    const shown = this.shown;
    if (shown === undefined) return;
    const { file, range } = shown;
    const items: MessageItem[] = [];
    let truncated = false;
    try {
      outer: for await (const slice of file.query(range[0], range[1], { lowestDepth: 0 })) {
        for (const d of slice.drawables) {
          if (d.kind !== 'primitive' || file.categories.get(d.category)?.topology !== 'arrow') continue;
          const a = d.vertices[0];
          const b = d.vertices[d.vertices.length - 1];
          if (a === undefined || b === undefined || a.lineID !== from || b.lineID !== to) continue;
          if (items.length >= MAX_LISTED_MESSAGES) {
            truncated = true;
            break outer;
          }
          items.push({ send: a.time, recv: b.time, ...messageTagAndSize(file.categories.get(d.category), d.info) });
        }
      }
    } catch (e) {
      this.post({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    items.sort((x, y) => x.send - y.send);
    this.post({ kind: 'messages', from, to, items, truncated });
  }

  dispose(): void {
    this.running?.abort();
    for (const d of this.disposables) d.dispose();
  }
}

function sameRange(a: readonly [number, number] | undefined, b: readonly [number, number] | undefined): boolean {
  return a !== undefined && b !== undefined && a[0] === b[0] && a[1] === b[1];
}

function statsHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewPageHtml(webview, extensionUri, { script: 'stats.js', style: 'stats.css', title: 'Statistics', images: true });
}
