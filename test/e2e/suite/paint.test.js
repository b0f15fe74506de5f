// First paint through the extension's own test API (what activate() returns: waitForPaint/editors).
// Skipped with a reason until the extension exports it.
const assert = require('assert');
const vscode = require('vscode');
const { viewType, extension, hasCustomEditor, traceUri, skip, closeAll } = require('./helpers');

suite('trace editor paints (extension test API)', () => {
  let api;
  setup(async function () {
    if (!hasCustomEditor()) return skip(this, `package.json contributes no customEditor "${viewType}" yet`);
    api = await extension().activate();
    if (!api || typeof api.waitForPaint !== 'function') return skip(this, 'activate() exports no waitForPaint() yet');
    await closeAll();
  });
  suiteTeardown(closeAll);

  for (const name of ['user_states_4.slog2', 'user_states_4.clog2', 'ring_p2p_4.slog2', 'pi_bcast_4.slog2.gz']) {
    test(`${name} is painted after opening`, async () => {
      const uri = traceUri(name);
      await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
      const report = await api.waitForPaint(uri.toString(), 30000);
      assert.ok(report, 'no paint report');
      assert.ok(api.documents().includes(uri.toString()), `documents() lacks ${uri}`);
    });
  }
});
