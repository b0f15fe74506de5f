// Extension entry point: registers providers, commands and views. No logic lives here.
import * as vscode from 'vscode';
import { TraceEditorProvider } from './host/traceEditorProvider';
import { registerTimelineCommands } from './host/commands';
import { makeTestApi, type MpeTraceApi } from './host/testApi';
import { registerViewLinkHandler } from './host/uriHandler';
import { registerConvertCommand } from './host/convertCommand';
import { registerStatsView } from './host/statsView';

export function activate(context: vscode.ExtensionContext): MpeTraceApi {
  const log = vscode.window.createOutputChannel('MPE Trace Viewer', { log: true });
  context.subscriptions.push(log);
  const traceEditors = TraceEditorProvider.register(context, log);
  registerTimelineCommands(context, traceEditors);
  registerViewLinkHandler(context, (uri, view) => traceEditors.openAt(uri, view));
  registerConvertCommand(context);
  registerStatsView(context, () => traceEditors.activeTrace(), { onDidChangeActiveTrace: traceEditors.onDidChangeActiveTrace });
  return makeTestApi(traceEditors);
}

export function deactivate(): void {}
