// First paint through the extension's own test API (what activate() returns: waitForPaint/editors).
// Skipped with a reason until the extension exports it.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { viewType, extension, hasCustomEditor, traceUri, skip, closeAll } = require('./helpers');

suite('trace editor paints (extension test API)', () => {
  let api;
  setup(async function () {
    if (!hasCustomEditor()) return skip(this, `package.json contributes no customEditor "${viewType}" yet`);
    api = await extension().activate();
    if (!api || typeof api.waitForPaint !== 'function') return skip(this, 'activate() exports no waitForPaint() yet');
    const bundle = path.join(extension().extensionPath, 'dist', 'webview.js');
    if (!fs.existsSync(bundle) || !fs.readFileSync(bundle, 'utf8').includes('getContext(')) {
      return skip(this, 'the webview bundle draws no <canvas> yet (no getContext call)');
    }
    await closeAll();
  });
  suiteTeardown(closeAll);

  for (const name of ['user_states_4.slog2', 'user_states_4.clog2', 'ring_p2p_4.slog2', 'pi_bcast_4.slog2.gz']) {
    test(`${name} is painted after opening`, async function () {
      this.timeout(40000);
      const uri = traceUri(name);
      await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
      const report = await api.waitForPaint(uri.toString(), 25000);
      assert.ok(report, 'no paint report');
      assert.ok(api.documents().includes(uri.toString()), `documents() lacks ${uri}`);
    });
  }
});
