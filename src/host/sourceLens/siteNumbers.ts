/**
 * The per-site numbers of the trace the source side follows (TraceVis §2.4): the last-active
 * timeline editor's trace, or one chosen in the status bar, for its selected range (whole trace
 * when none). Numbers are computed by the analysis worker (off the extension host's thread) and
 * cached per file and range; each recorded site file is mapped to a local file once per trace
 * through the same resolver as "Go to source" (path mappings, workspace search).
 */
import * as vscode from 'vscode';
import { SiteIndex, siteKey } from '../../core/stats/siteIndex';
import type { SiteStat } from '../../core/stats/siteStats';
import type { AnalysisClient } from '../../worker/analysisClient';
import type { SourceLinks } from '../sourceLinks';
import { localPathOf, type StatsTraceFile } from '../statsView';

/** A trace the source side can follow. */
export interface FollowableTrace {
  readonly uri: vscode.Uri;
  readonly file: StatsTraceFile;
  readonly range?: readonly [number, number];
  /** The region's timelines (line IDs) when the selection is a region of rows; all rows when absent. */
  readonly lines?: readonly number[];
}

export interface TraceSites {
  readonly trace: FollowableTrace;
  readonly index: SiteIndex;
  readonly range: readonly [number, number];
}

/** One recorded site shown in a local file. */
export interface LocalSite {
  readonly site: SiteStat;
  /** 0-based line in the local document. */
  readonly line: number;
}

export interface SiteNumbersOptions {
  /** The open, readable traces (most recently active first). */
  readonly traces: () => readonly FollowableTrace[];
  /** Fires when the active trace editor, its document or its selected range changes. */
  readonly onDidChangeTraces: vscode.Event<unknown>;
  readonly analysis: AnalysisClient;
  readonly sourceLinks: SourceLinks;
  readonly log?: vscode.LogOutputChannel;
}

export class SiteNumbers implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the followed trace, its range or its numbers change. */
  readonly onDidChange = this.changed.event;
  /** A trace chosen in the status bar (its URI); undefined = follow the last-active trace editor. */
  private pinned: string | undefined;
  private cached: { key: string; sites: Promise<TraceSites | undefined>; abort: AbortController } | undefined;
  /** Recorded file name → local file URI (string), per followed trace file. */
  private localFiles = new Map<string, Promise<string | undefined>>();
  private localFilesOf: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly options: SiteNumbersOptions) {
    this.disposables.push(
      this.changed,
      options.onDidChangeTraces(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('mpeTrace.sourcePathMappings')) this.resetFiles();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.resetFiles()),
    );
  }

  /** Follow this trace (undefined: the last-active trace editor again). */
  pin(uri: vscode.Uri | undefined): void {
    this.pinned = uri?.toString();
    this.changed.fire();
  }

  get pinnedUri(): string | undefined {
    return this.pinned;
  }

  /** The trace followed now, if one is open and readable. */
  followed(): FollowableTrace | undefined {
    const all = this.options.traces();
    if (this.pinned !== undefined) {
      const p = all.find((t) => t.uri.toString() === this.pinned);
      if (p !== undefined) return p;
    }
    return all[0];
  }

  /** The followed trace's site numbers for its range (undefined: no trace, or not on disk). */
  current(): Promise<TraceSites | undefined> {
    const trace = this.followed();
    if (trace === undefined) return Promise.resolve(undefined);
    const path = localPathOf(trace.file);
    if (path === undefined) return Promise.resolve(undefined);
    const range = trace.range ?? trace.file.timeRange;
    const lines = trace.lines;
    const key = `${path}\u0000${range[0]}\u0000${range[1]}\u0000${lines?.join(',') ?? 'all'}`;
    if (this.cached?.key === key) return this.cached.sites;
    if (this.localFilesOf !== path) this.resetFiles(path);
    // A newer range (e.g. while the selection is dragged) replaces the request in flight.
    this.cached?.abort.abort();
    const abort = new AbortController();
    const sites = this.options.analysis.sites(path, range, { signal: abort.signal, ...(lines !== undefined ? { lines } : {}) }).then(
      (profile) => ({ trace, index: new SiteIndex(profile), range }),
      (e: unknown) => {
        if (!abort.signal.aborted) this.options.log?.warn(`source numbers of ${trace.uri.path}: ${e instanceof Error ? e.message : String(e)}`);
        if (this.cached?.key === key) this.cached = undefined;
        return undefined;
      },
    );
    this.cached = { key, sites, abort };
    return sites;
  }

  /** The sites of the followed trace that map to the local document `uri`, by local line. */
  async sitesIn(uri: vscode.Uri): Promise<{ sites: TraceSites; local: LocalSite[] } | undefined> {
    const sites = await this.current();
    if (sites === undefined) return undefined;
    const target = uri.toString();
    const local: LocalSite[] = [];
    for (const file of sites.index.files()) {
      if ((await this.localUriOf(file)) !== target) continue;
      for (const site of sites.index.sitesOf(file)) if (site.line > 0) local.push({ site, line: site.line - 1 });
    }
    return { sites, local };
  }

  /** The local file a recorded site file resolves to (cached per trace file). */
  localUriOf(recorded: string): Promise<string | undefined> {
    let u = this.localFiles.get(recorded);
    if (u === undefined) {
      u = this.options.sourceLinks.localUri(recorded).then((x) => x?.toString());
      this.localFiles.set(recorded, u);
    }
    return u;
  }

  /** The recorded sites on local lines [first, last] (0-based) of `uri`. */
  async sitesOnLines(uri: vscode.Uri, first: number, last: number): Promise<SiteStat[]> {
    const r = await this.sitesIn(uri);
    return (r?.local ?? []).filter((l) => l.line >= first && l.line <= last).map((l) => l.site);
  }

  private resetFiles(path?: string): void {
    this.localFiles = new Map();
    this.localFilesOf = path;
    if (path === undefined) this.changed.fire();
  }

  dispose(): void {
    this.cached?.abort.abort();
    for (const d of this.disposables) d.dispose();
  }
}

export { siteKey };
