/**
 * Wires the wait-state analysis into VS Code: analyses each trace once it is open and ready in a
 * timeline (the Problems panel fills in), and the command that shows a problem in the timeline.
 */
import * as vscode from 'vscode';
import type { AnalysisClient } from '../worker/analysisClient';
import type { AnalysisResult } from '../core/analysis/types';
import type { AnalysisOverlayMessage } from '../protocol/webview';
import { SHOW_PROBLEM_COMMAND, TraceAnalysis } from './traceAnalysis';
import type { TraceEditorProvider } from './traceEditorProvider';

export interface TraceAnalysisHandle {
  readonly analysis: TraceAnalysis;
  annotate: TraceAnalysis['annotate'];
  /** Starts following the timelines (analyse each trace when it is active and ready). */
  follow(editors: TraceEditorProvider): void;
}

export function registerTraceAnalysis(context: vscode.ExtensionContext, client: AnalysisClient | undefined, log: vscode.LogOutputChannel): TraceAnalysisHandle {
  const analysis = new TraceAnalysis(client, log);
  context.subscriptions.push(analysis);
  let editors: TraceEditorProvider | undefined;
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_PROBLEM_COMMAND, async (uri?: unknown, kind?: unknown, index?: unknown) => {
      if (editors === undefined || typeof uri !== 'string' || typeof kind !== 'string' || typeof index !== 'number') return false;
      return analysis.showProblem(editors, uri, kind, index);
    }),
  );
  return {
    analysis,
    annotate: (file, details, rowOfLine) => analysis.annotate(file, details, rowOfLine),
    follow(provider) {
      editors = provider;
      const check = (): void => {
        const opened = provider.activeTrace();
        // Not a preview of a CLOG2 still converting: its waits and problems are of a part (the
        // states open at its end look unmatched), and its snapshots come every 1.5 s. The whole
        // trace is analysed when it replaces them.
        if (opened === undefined || opened.preview !== undefined) return;
        // The first picture first: on two cores the analysis worker would take the CPU the first
        // window needs. It starts once the editor has painted (or after FIRST_PAINT_WAIT_MS).
        void untilPainted(provider, opened.uri).then(() => {
          const active = provider.activeTrace();
          if (active === undefined || active.preview !== undefined || active.uri.toString() !== opened.uri.toString()) return;
          return analysis.ensure(active.uri, active.file).then((done) => {
            if (done === undefined) return;
            provider.broadcast(active.uri, (state) => overlayMessage(done.result, state.generation, state.layouts));
          });
        });
      };
      context.subscriptions.push(provider.onDidChangeActiveTrace(check));
      // A trace's problems leave the Problems panel when its last tab closes.
      context.subscriptions.push(
        vscode.window.tabGroups.onDidChangeTabs((e) => {
          const open = new Set(
            vscode.window.tabGroups.all.flatMap((g) => g.tabs).flatMap((t) => (t.input instanceof vscode.TabInputCustom ? [t.input.uri.toString()] : [])),
          );
          for (const tab of e.closed) if (tab.input instanceof vscode.TabInputCustom && !open.has(tab.input.uri.toString())) analysis.forget(tab.input.uri);
        }),
      );
      check();
    },
  };
}

/** The waits (capped by the analysis's instance list) and the critical path as rows of every Y map. */
function overlayMessage(
  r: AnalysisResult,
  generation: number,
  layouts: readonly { readonly rowOfLine: ReadonlyMap<number, number> }[],
): AnalysisOverlayMessage {
  return {
    kind: 'analysisOverlay',
    generation,
    byMap: layouts.map((layout) => {
      const waits: number[] = [];
      for (const w of r.instances) {
        const row = layout.rowOfLine.get(w.lineID);
        if (row !== undefined) waits.push(row, w.enter, w.enter + w.wait);
      }
      const path: number[] = [];
      for (const s of r.criticalPath.segments) {
        const row = layout.rowOfLine.get(s.lineID);
        if (row !== undefined) path.push(row, s.from, s.to);
      }
      return { waits, path };
    }),
  };
}

/** Longest the analysis waits for an editor's first paint before starting anyway. */
const FIRST_PAINT_WAIT_MS = 3000;

/** Resolves once an editor of `uri` has painted data, or after FIRST_PAINT_WAIT_MS. */
function untilPainted(provider: TraceEditorProvider, uri: vscode.Uri): Promise<void> {
  const started = Date.now();
  return new Promise((resolve) => {
    const poll = (): void => {
      if (provider.editorsOf(uri).some((e) => e.painted !== undefined) || Date.now() - started > FIRST_PAINT_WAIT_MS) return resolve();
      setTimeout(poll, 50);
    };
    poll();
  });
}
