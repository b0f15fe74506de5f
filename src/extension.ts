// Extension entry point: registers providers, commands and views. No logic lives here.
import * as vscode from 'vscode';
import { TraceEditorProvider } from './host/traceEditorProvider';
import { registerTimelineCommands } from './host/commands';
import { makeTestApi, type MpeTraceApi } from './host/testApi';
import { registerViewLinkHandler } from './host/uriHandler';
import { registerConvertCommand } from './host/convertCommand';
import { registerStatsView } from './host/statsView';
import { registerSourceLens } from './host/sourceLens';
import { Bookmarks, registerBookmarkCommands } from './host/bookmarkCommands';
import { AnalysisClient } from './worker/analysisClient';
import { registerTraceAnalysis } from './host/traceAnalysisCommands';
import { cancelRowIndexBuilds } from './host/rowIndexing';
import { CompareController } from './host/compare/compareController';
import { CompareViewProvider } from './host/compare/compareView';

export function activate(context: vscode.ExtensionContext): MpeTraceApi {
  const log = vscode.window.createOutputChannel('MPE Trace Viewer', { log: true });
  context.subscriptions.push(log);
  // Statistics and search over files on disk run in a worker thread, off this event loop.
  const analysis = new AnalysisClient(vscode.Uri.joinPath(context.extensionUri, 'dist', 'analysis.js').fsPath);
  context.subscriptions.push({ dispose: () => analysis.dispose() });
  const traceAnalysis = registerTraceAnalysis(context, analysis, log);
  const traceEditors = TraceEditorProvider.register(context, log, analysis, {
    annotate: (file, details, rowOfLine) => traceAnalysis.annotate(file, details, rowOfLine),
    chainSource: (doc, file) => traceAnalysis.analysis.chainSource(doc.uri, file),
  });
  traceAnalysis.follow(traceEditors);
  registerTimelineCommands(context, traceEditors);
  registerBookmarkCommands(context, traceEditors, new Bookmarks(log));
  registerViewLinkHandler(context, (uri, view) => traceEditors.openAt(uri, view));
  registerConvertCommand(context);
  registerStatsView(context, () => traceEditors.activeTrace(), {
    onDidChangeActiveTrace: traceEditors.onDidChangeActiveTrace,
    analysis,
    links: {
      highlightCategory: (uri, index) => traceEditors.link(uri, { kind: 'link', highlightCategory: index }),
      revealRow: (uri, lineID) => traceEditors.link(uri, { kind: 'link' }, lineID),
      revealInstance: (uri, category, instance) =>
        traceEditors.link(
          uri,
          { kind: 'link', reveal: { drawable: 'state', category, start: instance.earliest, end: instance.latest, row: undefined, toRow: undefined } },
          instance.lineID,
        ),
    },
  });
  const lens = registerSourceLens(context, traceEditors, analysis, log);
  const compare = new CompareController(traceEditors, analysis, log);
  compare.register(context);
  CompareViewProvider.register(context, compare, traceEditors.sourceLinks);
  return makeTestApi(traceEditors, traceAnalysis.analysis, compare, lens);
}

export function deactivate(): void {
  cancelRowIndexBuilds();
}
