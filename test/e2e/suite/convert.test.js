// The conversion command ("MPE Trace: Convert to SLOG-2"), as the Explorer context menu calls it:
// with the CLOG2 file's URI as argument. Expects <name>.slog2 beside the input within 60 s, readable by
// the trace editor. Skipped with a reason until package.json contributes a convert command.
const assert = require('assert');
const vscode = require('vscode');
const { viewType, contributes, extension, workspaceUri, skip, closeAll } = require('./helpers');

function convertCommand() {
  return (contributes().commands || []).find((c) => /convert/i.test(c.command) && /slog-?2/i.test(`${c.title} ${c.command}`));
}

async function exists(uri) {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

suite('conversion command', () => {
  suiteTeardown(closeAll);

  test('converts a CLOG2 file given by URI into a .slog2 beside it that the trace editor opens', async function () {
    const command = convertCommand();
    if (!command) return skip(this, 'package.json contributes no "Convert to SLOG-2" command yet');
    this.timeout(90000);
    await extension().activate();
    // A private copy, so the workspace's own user_states_4.slog2 is never a name clash.
    const dir = vscode.Uri.joinPath(workspaceUri(), 'convert-test');
    await vscode.workspace.fs.createDirectory(dir);
    const input = vscode.Uri.joinPath(dir, 'user_states_4.clog2');
    const output = vscode.Uri.joinPath(dir, 'user_states_4.slog2');
    await vscode.workspace.fs.copy(vscode.Uri.joinPath(workspaceUri(), 'user_states_4.clog2'), input, { overwrite: true });
    assert.strictEqual(await exists(output), false);
    await vscode.commands.executeCommand(command.command, input, [input]);
    const deadline = Date.now() + 60000;
    while (!(await exists(output))) {
      if (Date.now() > deadline) throw new Error(`${command.command} wrote no ${output.path} within 60 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const bytes = await vscode.workspace.fs.readFile(output);
    assert.ok(bytes.length > 1000, `output is only ${bytes.length} bytes`);
    await vscode.commands.executeCommand('vscode.openWith', output, viewType);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab && tab.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === output.toString());
  });
});
