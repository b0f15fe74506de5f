// Shared by the extension-host suites: the extension under test and the test workspace.
const path = require('path');
const vscode = require('vscode');

/** The repository's package.json (the driver installs the .vsix built from it). */
const pkg = require(path.join(__dirname, '..', '..', '..', 'package.json'));
const extensionId = `${pkg.publisher}.${pkg.name}`;
const viewType = 'mpeTrace.timeline';

function extension() {
  const ext = vscode.extensions.getExtension(extensionId);
  if (!ext) throw new Error(`extension ${extensionId} is not installed`);
  return ext;
}

/** The contributes section of the extension as VS Code loaded it (from the installed .vsix). */
const contributes = () => extension().packageJSON.contributes || {};
const hasCustomEditor = () => (contributes().customEditors || []).some((e) => e.viewType === viewType);

const workspaceUri = () => vscode.workspace.workspaceFolders[0].uri;
const traceUri = (name) => vscode.Uri.joinPath(workspaceUri(), name);
const traceNames = ['user_states_4.slog2', 'user_states_4.clog2', 'ring_p2p_4.slog2', 'pi_bcast_4.slog2', 'pi_bcast_4.slog2.gz'];

/** Marks a mocha test as skipped with a reason the driver prints as a SKIP line. */
function skip(ctx, reason) {
  const test = ctx.currentTest || ctx.test; // in a setup() hook, the test about to run
  test.skipReason = reason;
  ctx.skip();
}

async function closeAll() {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Polls `get` (sync or async) until it returns something truthy, which it resolves with. */
async function waitForValue(get, what, ms = 30000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

module.exports = { pkg, extensionId, viewType, extension, contributes, hasCustomEditor, workspaceUri, traceUri, traceNames, skip, closeAll, waitForValue };
