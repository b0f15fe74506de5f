// The custom editor mpeTrace.timeline through the stable API: openWith gives a TabInputCustom of our view
// type for every kind of trace; many editors open and close cleanly. Skipped (with a printed reason) until
// package.json contributes the custom editor.
const assert = require('assert');
const vscode = require('vscode');
const { viewType, hasCustomEditor, traceUri, traceNames, skip, closeAll, extension, waitForValue } = require('./helpers');

const customTabs = () =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === viewType);

// The suite's default wait (15 s) over the shared poller.
const waitFor = (get, what, ms = 15000) => waitForValue(get, what, ms);

suite('trace editor (custom editor API)', () => {
  setup(async function () {
    if (!hasCustomEditor()) skip(this, `package.json contributes no customEditor "${viewType}" yet`);
    await closeAll();
  });
  suiteTeardown(closeAll);

  for (const name of traceNames) {
    test(`vscode.openWith opens ${name} as a ${viewType} tab`, async () => {
      const uri = traceUri(name);
      await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      assert.ok(tab, 'no active tab');
      assert.ok(tab.input instanceof vscode.TabInputCustom, `active tab input is ${tab.input && tab.input.constructor.name}`);
      assert.strictEqual(tab.input.viewType, viewType);
      assert.strictEqual(tab.input.uri.toString(), uri.toString());
    });
  }

  test('the default editor for *.slog2 is the trace editor (vscode.open)', async () => {
    await vscode.commands.executeCommand('vscode.open', traceUri('ring_p2p_4.slog2'));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab && tab.input instanceof vscode.TabInputCustom && tab.input.viewType === viewType, 'vscode.open did not pick the trace editor');
  });

  test('opens and closes many trace editors (4 files x 3 rounds)', async () => {
    const names = traceNames.slice(0, 4);
    for (let round = 0; round < 3; round++) {
      for (const name of names) {
        await vscode.commands.executeCommand('vscode.openWith', traceUri(name), viewType, { preview: false });
      }
      await waitFor(() => customTabs().length === names.length, `${names.length} trace tabs (have ${customTabs().length})`);
      await closeAll();
      await waitFor(() => customTabs().length === 0, 'all trace tabs closed');
    }
  });

  test('opening the same trace twice reuses its tab', async () => {
    const uri = traceUri('user_states_4.slog2');
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    assert.strictEqual(customTabs().filter((t) => t.input.uri.toString() === uri.toString()).length, 1);
  });

  // The palette offers the timeline commands while a trace is the active editor, also when focus is
  // in a side view (Explorer, Compare, Statistics): the command goes to that trace.
  test('Zoom In with focus in a side view zooms the active trace', async function () {
    this.timeout(60000);
    const api = await extension().activate();
    const uri = traceUri('ring_p2p_4.slog2');
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    await api.waitForPaint(uri.toString(), 30000);
    const before = await waitForValue(() => api.lastViewState(uri.toString()), 'a view state', 15000);
    await vscode.commands.executeCommand('workbench.view.explorer');
    await vscode.commands.executeCommand('workbench.action.focusSideBar');
    await vscode.commands.executeCommand('mpeTrace.zoomIn');
    await waitForValue(
      () => {
        const v = api.lastViewState(uri.toString());
        return v && v.t1 - v.t0 < 0.9 * (before.t1 - before.t0) ? v : undefined;
      },
      'the trace to zoom in',
      15000,
    );
  });
});
