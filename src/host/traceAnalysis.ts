/**
 * The wait-state analysis of each open trace, run in the analysis worker (in-process only for
 * files not on disk): its trace problems go to the Problems panel (a DiagnosticCollection on the
 * trace file, each entry with a "show in timeline" command link), and its wait instances give the
 * popup of a waiting state its sentence ("0.6 s of 0.8 s waiting for rank 0's MPI_Send at 1 s").
 */
import * as vscode from 'vscode';
import { analyzeTrace } from '../core/analysis/analyze';
import { slog2AnalysisInput } from '../core/analysis/slog2Input';
import type { AnalysisResult, Problem, WaitInstance } from '../core/analysis/types';
import { goToLabel, waitSentence } from '../core/analysis/waitText';
import { traceChainSource } from '../core/analysis/chainSource';
import type { ChainSource } from '../core/analysis/dependence';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { FileSource } from '../io/fileSource';
import type { DrawableDetails, SearchHit } from '../protocol/webview';
import type { AnalysisClient } from '../worker/analysisClient';

export const SHOW_PROBLEM_COMMAND = 'mpeTrace.showProblem';
const MAX_INSTANCES = 200_000;
const MAX_DIAGNOSTICS_PER_KIND = 50;

interface Analysed {
  readonly result: AnalysisResult;
  /** Wait instances by "enter|exit|state name" (times exactly as in the file). */
  readonly byState: Map<string, WaitInstance>;
}

export interface RevealTarget {
  revealLines(uri: vscode.Uri, hit: Omit<SearchHit, 'row' | 'toRow'>, fromLine: number, toLine: number): Promise<void>;
}

function stateKey(enter: number, exit: number, name: string): string {
  return `${enter}|${exit}|${name}`;
}

export class TraceAnalysis implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('mpe-trace');
  private readonly byFile = new WeakMap<Slog2File, Promise<Analysed | undefined>>();
  private readonly latest = new Map<string, { readonly file: Slog2File; readonly analysed: Analysed }>();
  /** Analyses in flight by trace URI: stopped when the trace's last tab closes (a big trace's run would hold the worker). */
  private readonly running = new Map<string, { readonly file: Slog2File; readonly controller: AbortController }>();

  /** Each analysed file's waits indexed for dependence chains (built on the first chain asked for). */
  private readonly chainSources = new WeakMap<Slog2File, { readonly analysed: Analysed; readonly source: ChainSource }>();

  constructor(
    private readonly client: AnalysisClient | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  dispose(): void {
    this.diagnostics.dispose();
  }

  /** Analyses `file` once (per opened file object) and publishes its problems on `uri`. */
  ensure(uri: vscode.Uri, file: Slog2File): Promise<Analysed | undefined> {
    let p = this.byFile.get(file);
    if (p === undefined) {
      const controller = new AbortController();
      const key = uri.toString();
      this.running.set(key, { file, controller });
      const done = (): void => {
        if (this.running.get(key)?.controller === controller) this.running.delete(key);
      };
      p = this.run(file, controller.signal).then(
        (result) => {
          done();
          const analysed: Analysed = { result, byState: new Map(result.instances.map((w) => [stateKey(w.enter, w.exit, w.category), w])) };
          this.latest.set(uri.toString(), { file, analysed });
          this.publish(uri, result.problems);
          return analysed;
        },
        (e: unknown) => {
          done();
          if (controller.signal.aborted) {
            // Closed before it finished: a later open analyses it again.
            this.byFile.delete(file);
            return undefined;
          }
          this.log.warn(`${uri.path}: wait-state analysis failed: ${e instanceof Error ? e.message : String(e)}`);
          return undefined;
        },
      );
      this.byFile.set(file, p);
    } else if (!this.latest.has(uri.toString())) {
      // Reopened after its problems were cleared: publish them again.
      p = p.then((analysed) => {
        if (analysed !== undefined && !this.latest.has(uri.toString())) {
          this.latest.set(uri.toString(), { file, analysed });
          this.publish(uri, analysed.result.problems);
        }
        return analysed;
      });
    }
    return p;
  }

  /** What a dependence chain walks over (after the analysis of `file`); `capped`: the wait list was cut. */
  async chainSource(uri: vscode.Uri, file: Slog2File): Promise<{ readonly source: ChainSource; readonly capped: boolean } | undefined> {
    const analysed = await this.ensure(uri, file);
    if (analysed === undefined) return undefined;
    let hit = this.chainSources.get(file);
    if (hit?.analysed !== analysed) this.chainSources.set(file, (hit = { analysed, source: traceChainSource(file, analysed.result.instances) }));
    return { source: hit.source, capped: analysed.result.instancesTruncated };
  }

  /** The latest analysis of `uri` (for tests and commands). */
  result(uri: vscode.Uri): AnalysisResult | undefined {
    return this.latest.get(uri.toString())?.analysed.result;
  }

  /** The latest analysis of `uri` with the file's category indices by name (for the test API). */
  analysisOf(uriText: string): { readonly result: AnalysisResult; readonly categories: Record<string, number> } | undefined {
    const entry = this.latest.get(uriText) ?? [...this.latest.entries()].find(([k]) => decodeURIComponent(k) === uriText)?.[1];
    if (entry === undefined) return undefined;
    return { result: entry.analysed.result, categories: Object.fromEntries([...entry.file.categories.values()].map((c) => [c.name, c.index])) };
  }

  forget(uri: vscode.Uri): void {
    this.running.get(uri.toString())?.controller.abort(new Error('the trace was closed'));
    this.running.delete(uri.toString());
    this.latest.delete(uri.toString());
    this.diagnostics.delete(uri);
  }

  private run(file: Slog2File, signal: AbortSignal): Promise<AnalysisResult> {
    const source = (file as { readonly source?: unknown }).source;
    if (this.client !== undefined && source instanceof FileSource) return this.client.waits(source.name, { maxInstances: MAX_INSTANCES, signal });
    return analyzeTrace(slog2AnalysisInput(file, { signal }), { maxInstances: MAX_INSTANCES, signal });
  }

  private publish(uri: vscode.Uri, problems: readonly Problem[]): void {
    const out: vscode.Diagnostic[] = [];
    const at = new vscode.Range(0, 0, 0, 0);
    for (const p of problems) {
      const severity = p.kind === 'time-order' || p.kind === 'unknown-category' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning;
      const link = (index: number): vscode.Diagnostic['code'] => ({
        value: p.kind,
        target: vscode.Uri.parse(`command:${SHOW_PROBLEM_COMMAND}?${encodeURIComponent(JSON.stringify([uri.toString(), p.kind, index]))}`),
      });
      const skews =
        p.skewByPair === undefined
          ? ''
          : `; largest skew per rank pair: ${Object.entries(p.skewByPair)
              .map(([pair, s]) => `${pair.replace('->', '→')} ${(s * 1e3).toPrecision(3)} ms`)
              .join(', ')}`;
      const summary = new vscode.Diagnostic(at, `${p.count} × ${p.message}${skews}`, severity);
      summary.source = 'MPE trace analysis';
      summary.code = link(-1);
      out.push(summary);
      p.instances.slice(0, MAX_DIAGNOSTICS_PER_KIND).forEach((inst, i) => {
        const d = new vscode.Diagnostic(at, inst.text, severity);
        d.source = 'MPE trace analysis';
        d.code = link(i);
        out.push(d);
      });
    }
    this.diagnostics.set(uri, out);
  }

  /** Shows problem `index` of `kind` of `uri` in the timeline (frames the arrow or state). */
  async showProblem(target: RevealTarget, uriText: string, kind: string, index: number): Promise<boolean> {
    const entry = this.latest.get(uriText);
    const problem = entry?.analysed.result.problems.find((p) => p.kind === kind);
    const inst = problem?.instances[index];
    if (entry === undefined || inst === undefined || inst.lineIDs.length === 0) {
      if (problem !== undefined) void vscode.window.showInformationMessage(`${problem.count} × ${problem.message}`);
      return false;
    }
    const start = Math.min(inst.time, inst.endTime);
    const end = Math.max(inst.time, inst.endTime);
    const uri = vscode.Uri.parse(uriText);
    if (kind === 'receive-before-send') {
      const arrow = [...entry.file.categories.values()].find((c) => c.topology === 'arrow' && c.index >= 0);
      if (arrow === undefined) return false;
      await target.revealLines(uri, { drawable: 'arrow', category: arrow.index, start, end }, inst.lineIDs[0]!, inst.lineIDs[1] ?? inst.lineIDs[0]!);
      return true;
    }
    const state = [...entry.file.categories.values()].find((c) => c.topology === 'state' && c.index >= 0);
    await target.revealLines(uri, { drawable: 'state', category: state?.index ?? 0, start, end }, inst.lineIDs[0]!, inst.lineIDs[0]!);
    return true;
  }

  /** Adds the waiting sentence to a state's popup details, when the analysis found a wait there. */
  annotate(file: Slog2File, details: DrawableDetails, rowOfLine: (lineID: number) => number | undefined): DrawableDetails {
    if (details.topology !== 'state') return details;
    const found = [...this.latest.values()].find((x) => x.file === file);
    const w = found?.analysed.byState.get(stateKey(details.start, details.end, details.categoryName));
    if (w === undefined) return details;
    const causerCategory = [...file.categories.values()].find((c) => c.name === w.causer.category && c.topology === 'state');
    const row = rowOfLine(w.causer.lineID);
    return {
      ...details,
      waiting: {
        text: waitSentence(w),
        goToLabel: goToLabel(w),
        // Frames the waiting state's span and the causer's moment together, on the causer's row.
        goTo: {
          drawable: 'state',
          category: causerCategory?.index ?? details.categoryIndex,
          start: Math.min(w.enter, w.causer.time),
          end: Math.max(w.exit, w.causer.time),
          row,
          toRow: row,
        },
      },
    };
  }
}
