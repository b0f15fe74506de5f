/**
 * Wires the wait-state analysis into VS Code: analyses each trace once it is open and ready in a
 * timeline (the Problems panel fills in), and the command that shows a problem in the timeline.
 */
import * as vscode from 'vscode';
import type { AnalysisClient } from '../worker/analysisClient';
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
        const active = provider.activeTrace();
        if (active !== undefined) void analysis.ensure(active.uri, active.file);
      };
      context.subscriptions.push(provider.onDidChangeActiveTrace(check));
      check();
    },
  };
}
