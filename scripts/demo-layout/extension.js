// The demo's first screen (npm start): the sample trace in the MPE Trace editor, its C source in a second
// editor group beside it. What to open comes from layout.json, written next to this file by start.mjs.
// From inside the extension host, after activating the viewer, so the trace cannot land in the text editor.
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

exports.activate = async () => {
  const layout = JSON.parse(fs.readFileSync(path.join(__dirname, 'layout.json'), 'utf8'));
  const opened = vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input?.uri?.fsPath === layout.trace));
  if (opened) return; // a reloaded window restores its own editors
  await vscode.extensions.getExtension(layout.viewerId)?.activate();
  // Two groups side by side, the timeline the wider one.
  await vscode.commands.executeCommand('vscode.setEditorLayout', { orientation: 0, groups: [{ size: 0.62 }, { size: 0.38 }] });
  await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(layout.trace), layout.viewType, { viewColumn: vscode.ViewColumn.One });
  const source = await vscode.workspace.openTextDocument(vscode.Uri.file(layout.source));
  await vscode.window.showTextDocument(source, { viewColumn: vscode.ViewColumn.Two, preserveFocus: true, preview: false });
};
