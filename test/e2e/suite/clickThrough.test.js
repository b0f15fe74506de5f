// Click-through on the host side, through the extension's test API in a real VS Code: the details of the
// Phase state on rank 0 of user_states_4.clog2 (found again in the converted SLOG-2) carry the SRCLOC of
// user_states.c line 80; opening that site id shows the workspace copy (src/user_states.c) at line 80.
// A site id the trace never handed out opens nothing. The workspace holds a second copy under
// cluster/home/alice/proj/: without a mapping the shallower src/ copy wins (equally good name matches);
// with mpeTrace.sourcePathMappings naming the cluster copy, the mapping wins.
const assert = require('assert');
const vscode = require('vscode');
const { viewType, extension, hasCustomEditor, traceUri, skip, closeAll } = require('./helpers');

suite('click-through to source (extension test API)', () => {
  let api;
  setup(async function () {
    if (!hasCustomEditor()) return skip(this, `package.json contributes no customEditor "${viewType}" yet`);
    api = await extension().activate();
    if (!api || typeof api.drawableDetails !== 'function') return skip(this, 'activate() exports no drawableDetails() yet');
    await closeAll();
  });
  suiteTeardown(closeAll);

  test('Phase on rank 0 → user_states.c:80', async function () {
    this.timeout(60000);
    const uri = traceUri('user_states_4.clog2');
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    await api.waitForPaint(uri.toString(), 40000);
    const ref = {
      drawable: 'state',
      mapIndex: 0,
      category: 301,
      row: 0,
      toRow: 0,
      start: 5.977900002562819e-5,
      end: 0.032010199999945144,
      lowestDepth: 0,
      tolerance: 1e-6,
    };
    const answer = await api.drawableDetails(uri.toString(), ref);
    assert.ok(answer.details, `no details: ${answer.message}`);
    assert.equal(answer.details.categoryName, 'Phase');
    const start = answer.details.sources.start;
    assert.ok(start, 'no start source location');
    assert.equal(start.line, 80);
    const opened = await api.openSource(uri.toString(), start.siteId, false);
    assert.match(opened, /\/src\/user_states\.c:80$/);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'no active text editor');
    assert.match(editor.document.uri.path, /\/src\/user_states\.c$/);
    assert.equal(editor.selection.active.line, 79);
    assert.equal(await api.openSource(uri.toString(), 1e6, false), 'unknown source location');
  });

  test('a path mapping (mpeTrace.sourcePathMappings) picks the cluster copy', async function () {
    this.timeout(60000);
    const uri = traceUri('user_states_4.clog2');
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    await api.waitForPaint(uri.toString(), 40000);
    const ref = {
      drawable: 'state',
      mapIndex: 0,
      category: 301,
      row: 0,
      toRow: 0,
      start: 5.977900002562819e-5,
      end: 0.032010199999945144,
      lowestDepth: 0,
      tolerance: 1e-6,
    };
    const answer = await api.drawableDetails(uri.toString(), ref);
    const start = answer.details && answer.details.sources.start;
    assert.ok(start, `no start source location: ${answer.message}`);
    const config = vscode.workspace.getConfiguration('mpeTrace');
    await config.update(
      'sourcePathMappings',
      { [start.file]: '${workspaceFolder}/cluster/home/alice/proj/user_states.c' },
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      const opened = await api.openSource(uri.toString(), start.siteId, false);
      assert.match(opened, /\/cluster\/home\/alice\/proj\/user_states\.c:80$/);
      assert.match(vscode.window.activeTextEditor.document.uri.path, /\/cluster\/home\/alice\/proj\/user_states\.c$/);
    } finally {
      await config.update('sourcePathMappings', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
