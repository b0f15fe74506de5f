/**
 * "Compare with…": opens a second trace beside the active one, synchronises the two timelines
 * (CompareSession) and computes the difference of the two runs — each run's statistics, per-site
 * numbers and iterations in the analysis worker (files on disk) or here (other files), over the
 * range selected in each editor (the whole trace otherwise). The Compare panel shows the result.
 */
import * as vscode from 'vscode';
import { diffRuns, type RunDiff } from '../../core/compare/diff';
import { iterationShift } from '../../core/compare/iterations';
import { profileRun, type FullRunProfile } from '../../core/compare/profile';
import { runWaits, type RunWaits } from '../../core/compare/waits';
import { analyzeTrace } from '../../core/analysis/analyze';
import { slog2AnalysisInput } from '../../core/analysis/slog2Input';
import type { Slog2File } from '../../core/formats/slog2/slog2File';
import type { Alignment } from '../../protocol/compare';
import type { AnalysisClient } from '../../worker/analysisClient';
import { localPathOf } from '../statsView';
import { VIEW_TYPE, type TimelineEditor, type TraceEditorProvider } from '../traceEditorProvider';
import { CompareSession } from './compareSession';
import { fileOf, nameOf } from './editorFacts';

export const COMPARE_COMMAND = 'mpeTrace.compareWith';
const TRACE_EXTENSIONS = ['slog2', 'clog2', 'clog', 'gz'];
/** How long to wait for the second editor to open and its document to be read. */
const OPEN_TIMEOUT_MS = 120_000;
/** After `openWith` returned: how long a new editor may take to be created before an open one is used. */
const REUSE_GRACE_MS = 3_000;

export interface CompareState {
  readonly session: CompareSession;
  readonly alignment: Alignment;
  readonly profiles?: { readonly a: FullRunProfile; readonly b: FullRunProfile };
  readonly diff?: RunDiff;
  readonly error?: string;
  readonly computing: boolean;
  /** The wait-state analysis of both ranges is running (the diff gains waiting columns after). */
  readonly computingWaits?: boolean;
}

/** Resolves once the editor's document is read (or fails to be). */
function whenReady(e: TimelineEditor): Promise<Slog2File> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const s = e.document.state;
      if (s.phase === 'ready') resolve(s.file);
      else if (s.phase === 'error' || s.phase === 'unsupported') reject(new Error(`${nameOf(e)}: ${s.message}`));
      else return false;
      return true;
    };
    if (check()) return;
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`${nameOf(e)} did not open within ${OPEN_TIMEOUT_MS / 1000} s`));
    }, OPEN_TIMEOUT_MS);
    const sub = e.document.onDidChange(() => {
      if (check()) {
        clearTimeout(timer);
        sub.dispose();
      }
    });
  });
}

/** Highlights the category called `name` (none: clears) and shows the row labelled `rank`. */
function highlightCategory(e: TimelineEditor, name: string | undefined, rank: string | undefined): void {
  const f = fileOf(e);
  if (f === undefined) return;
  const category = name === undefined ? null : ([...f.categories.values()].find((x) => x.name === name)?.index ?? null);
  const row = rank === undefined ? undefined : f.lineIDMaps[0]?.rows.find((r) => r.path.join(' ') === rank)?.lineID;
  e.link({ kind: 'link', highlightCategory: category }, row);
}

export class CompareController implements vscode.Disposable {
  private current: CompareState | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The comparison started, ended, was recomputed or realigned. */
  readonly onDidChange = this.changed.event;
  private computation: AbortController | undefined;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly editors: TraceEditorProvider,
    private readonly analysis: AnalysisClient | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // The selected range of either editor changes what is compared.
    this.disposables.push(editors.onDidChangeActiveTrace(() => this.recomputeIfRangeChanged()));
  }

  get state(): CompareState | undefined {
    return this.current;
  }

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      this,
      vscode.commands.registerCommand(COMPARE_COMMAND, (uri?: vscode.Uri) => this.compareWith(uri)),
    );
  }

  /** Compares the last-active trace editor (A) with `uri` (B), asked for when not given. */
  async compareWith(uri?: vscode.Uri): Promise<void> {
    const a = this.editors.lastActiveEditor();
    if (a === undefined) {
      void vscode.window.showErrorMessage('Open a trace in the MPE Trace timeline first, then compare it with another run.');
      return;
    }
    const target = uri ?? (await this.pickTrace(a));
    if (target === undefined) return;
    try {
      const b = await this.openBeside(target);
      // The Compare view shows at once ("Computing…"); the difference follows.
      const started = this.start(a, b);
      await vscode.commands.executeCommand('mpeTrace.compare.focus');
      await started;
    } catch (e) {
      void vscode.window.showErrorMessage(`Compare: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Starts comparing two open editors (also the test API's entry). */
  async start(a: TimelineEditor, b: TimelineEditor): Promise<void> {
    this.end();
    const session = new CompareSession(a, b);
    session.start();
    session.onDidEnd(() => {
      if (this.current?.session === session) this.end();
    });
    this.current = { session, alignment: { mode: 'start' }, computing: true };
    this.changed.fire();
    const [fa, fb] = await Promise.all([whenReady(a), whenReady(b)]);
    if (this.current?.session !== session) return;
    session.setShift(fb.timeRange[0] - fa.timeRange[0]);
    await this.compute();
  }

  /** Puts B's time on A's by the alignment; needs the profiles for iteration and category alignment. */
  align(alignment: Alignment): void {
    const c = this.current;
    if (c === undefined) return;
    const shift = this.shiftFor(c, alignment);
    if (shift === undefined) {
      void vscode.window.showWarningMessage(
        alignment.mode === 'iteration'
          ? `Compare: iteration ${alignment.iteration + 1} is not in both runs.`
          : alignment.mode === 'category'
            ? `Compare: ${alignment.name} does not occur in both runs.`
            : 'Compare: the runs are not read yet.',
      );
      return;
    }
    c.session.setShift(shift);
    this.current = { ...c, alignment };
    this.changed.fire();
  }

  /**
   * A row of the Compare panel clicked: a call site (index into the diff's sites) greys out what did
   * not come from it in both timelines; a category (and rank) row clears that and highlights the
   * category, showing the rank's row.
   */
  highlight(target: { readonly category?: string; readonly rank?: string; readonly site?: number }): void {
    const c = this.current;
    if (c === undefined) return;
    const site = target.site === undefined ? undefined : c.diff?.sites[target.site];
    for (const e of [c.session.a, c.session.b]) {
      e.highlightSites(site === undefined ? undefined : `${site.file}:${site.line}`);
      if (site === undefined) highlightCategory(e, target.category, target.rank);
    }
  }

  private shiftFor(c: CompareState, alignment: Alignment): number | undefined {
    if (alignment.mode === 'start') {
      const fa = fileOf(c.session.a);
      const fb = fileOf(c.session.b);
      return fa && fb ? fb.timeRange[0] - fa.timeRange[0] : undefined;
    }
    const p = c.profiles;
    if (p === undefined) return undefined;
    if (alignment.mode === 'iteration') return iterationShift(p.a.iterations, p.b.iterations, alignment.iteration);
    const ta = p.a.firstStarts[alignment.name];
    const tb = p.b.firstStarts[alignment.name];
    return ta !== undefined && tb !== undefined ? tb - ta : undefined;
  }

  private rangeKey: string | undefined;

  private recomputeIfRangeChanged(): void {
    const c = this.current;
    if (c === undefined || c.computing) return;
    if (this.rangesKey(c) !== this.rangeKey) void this.compute();
  }

  private rangesKey(c: CompareState): string {
    return JSON.stringify([c.session.a.range ?? null, c.session.b.range ?? null]);
  }

  private async compute(): Promise<void> {
    const c = this.current;
    if (c === undefined) return;
    this.computation?.abort();
    const ac = new AbortController();
    this.computation = ac;
    this.rangeKey = this.rangesKey(c);
    this.current = { ...c, computing: true };
    this.changed.fire();
    try {
      const [pa, pb] = await Promise.all([this.profile(c.session.a, ac.signal), this.profile(c.session.b, ac.signal)]);
      if (ac.signal.aborted || this.current?.session !== c.session) return;
      // The difference shows now; the waiting columns follow from the (slower) wait-state analysis.
      this.current = { ...this.current, profiles: { a: pa, b: pb }, diff: diffRuns(pa, pb), computing: false, computingWaits: true, error: undefined };
      this.changed.fire();
      const [wa, wb] = await Promise.all([this.waits(c.session.a, ac.signal), this.waits(c.session.b, ac.signal)]);
      if (ac.signal.aborted || this.current?.session !== c.session) return;
      const profiles = { a: { ...pa, waits: wa }, b: { ...pb, waits: wb } };
      this.current = { ...this.current, profiles, diff: diffRuns(profiles.a, profiles.b), computingWaits: false };
    } catch (e) {
      if (ac.signal.aborted || this.current?.session !== c.session) return;
      const message = e instanceof Error ? e.message : String(e);
      this.log.warn(`compare: ${message}`);
      this.current = { ...this.current, computing: false, computingWaits: false, error: message };
    }
    this.changed.fire();
  }

  private async profile(e: TimelineEditor, signal: AbortSignal): Promise<FullRunProfile> {
    const file = await whenReady(e);
    const range = e.range ?? file.timeRange;
    const path = localPathOf(file);
    if (path !== undefined && this.analysis !== undefined) return this.analysis.profile(path, range, { signal });
    return profileRun(() => file, file.drawablesInTimeOrder(range[0], range[1], { signal }), range, { signal });
  }

  /** Waiting time per state name, site and rank of the editor's range (analysis worker for files on disk). */
  private async waits(e: TimelineEditor, signal: AbortSignal): Promise<RunWaits> {
    const file = await whenReady(e);
    const range = e.range ?? file.timeRange;
    const path = localPathOf(file);
    if (path !== undefined && this.analysis !== undefined) return runWaits(await this.analysis.waits(path, { range, maxInstances: 0, signal }));
    return runWaits(await analyzeTrace(slog2AnalysisInput(file, { range, signal }), { signal }));
  }

  private async pickTrace(a: TimelineEditor): Promise<vscode.Uri | undefined> {
    const picked = await vscode.window.showOpenDialog({
      title: `Compare ${nameOf(a)} with…`,
      canSelectMany: false,
      openLabel: 'Compare',
      filters: { 'MPE traces': TRACE_EXTENSIONS },
    });
    return picked?.[0];
  }

  /** Opens `uri` in a new timeline editor beside the active one and waits for that editor. */
  private openBeside(uri: vscode.Uri): Promise<TimelineEditor> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`${uri.path} did not open in the timeline within ${OPEN_TIMEOUT_MS / 1000} s`));
      }, OPEN_TIMEOUT_MS);
      const sub = this.editors.onDidCreateEditor((e) => {
        if (e.document.uri.toString() !== uri.toString()) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(e);
      });
      vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { viewColumn: vscode.ViewColumn.Beside }).then(
        () => {
          // Already open in that column: VS Code revealed it instead of creating an editor.
          setTimeout(() => {
            const existing = this.editors.editorsOf(uri)[0];
            if (existing === undefined) return;
            clearTimeout(timer);
            sub.dispose();
            resolve(existing);
          }, REUSE_GRACE_MS);
        },
        (err: unknown) => {
          clearTimeout(timer);
          sub.dispose();
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /** Stops comparing (the editors stay open, no longer synchronised). */
  end(): void {
    const c = this.current;
    if (c === undefined) return;
    this.current = undefined;
    this.computation?.abort();
    c.session.dispose();
    this.changed.fire();
  }

  dispose(): void {
    this.end();
    for (const d of this.disposables) d.dispose();
  }
}
