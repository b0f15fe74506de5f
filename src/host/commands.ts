// Timeline commands (palette, keybindings) routed to the focused trace editor's webview.
import * as vscode from 'vscode';
import type { CommandMessage } from '../protocol/webview';
import type { TraceEditorProvider } from './traceEditorProvider';

const COMMANDS: readonly [string, CommandMessage['command']][] = [
  ['mpeTrace.zoomIn', 'zoomIn'],
  ['mpeTrace.zoomOut', 'zoomOut'],
  ['mpeTrace.showWholeTrace', 'home'],
  ['mpeTrace.undoZoom', 'undoZoom'],
  ['mpeTrace.redoZoom', 'redoZoom'],
  ['mpeTrace.find', 'find'],
  ['mpeTrace.findNext', 'findNext'],
  ['mpeTrace.findPrevious', 'findPrevious'],
];

export function registerTimelineCommands(context: vscode.ExtensionContext, provider: TraceEditorProvider): void {
  for (const [id, command] of COMMANDS) {
    context.subscriptions.push(vscode.commands.registerCommand(id, () => provider.activeEditor()?.command(command)));
  }
  context.subscriptions.push(
    vscode.commands.registerCommand('mpeTrace.reloadTrace', async () => {
      const e = provider.activeEditor();
      if (e) await provider.reload(e.document.uri.toString());
    }),
  );
}
