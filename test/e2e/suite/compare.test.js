// "Compare with…" in the real VS Code: two synthetic runs of one program (B: Compute 3x longer on
// every rank, started 2 ms later; made by the built CLI into the test workspace) open side by side,
// move together, and the Compare panel's top row is the category made to differ; aligning by
// iteration puts iteration 5 of both at the same place in their windows.
const assert = require('assert');
const vscode = require('vscode');
const { viewType, hasCustomEditor, traceUri, skip, closeAll, extension, waitForValue } = require('./helpers');

// The suite's default wait (60 s) over the shared poller.
const waitFor = (get, what, ms = 60000) => waitForValue(get, what, ms);

const near = (x, y, span) => Math.abs(x - y) <= Math.max(1e-12, span * 1e-6);

suite('compare two runs', () => {
  let api;
  setup(async function () {
    if (!hasCustomEditor()) skip(this, `package.json contributes no customEditor "${viewType}" yet`);
    try {
      await vscode.workspace.fs.stat(traceUri('compare_b.clog2'));
    } catch {
      skip(this, 'the workspace has no synthetic compare runs (dist/cli.js was not built)');
    }
    api = await extension().activate();
    await closeAll();
  });
  suiteTeardown(closeAll);

  test('Compare with… opens B beside A, the top row is Compute, both timelines move together, iteration 5 aligned', async function () {
    this.timeout(180000);
    const a = traceUri('compare_a.clog2');
    const b = traceUri('compare_b.clog2');
    await vscode.commands.executeCommand('vscode.openWith', a, viewType);
    await api.waitForPaint(a.toString(), 60000);
    await vscode.commands.executeCommand('mpeTrace.compareWith', b);
    await api.waitForPaint(b.toString(), 60000);
    const report = await waitFor(() => {
      const c = api.compare();
      return c && !c.computing && c.categories ? c : undefined;
    }, 'the comparison to be computed');
    assert.strictEqual(report.error, undefined);
    assert.strictEqual(report.categories[0].name, 'Compute', `top row ${JSON.stringify(report.categories.slice(0, 3))}`);
    assert.ok(Math.abs(report.categories[0].ratio - 3) < 1e-6, `Compute ratio ${report.categories[0].ratio}`);
    // Aligned by start (default): B's window = A's + the start difference.
    const views = () => [api.lastViewState(a.toString()), api.lastViewState(b.toString())];
    // Zoom in B (the active editor, opened beside): A follows.
    await vscode.commands.executeCommand('mpeTrace.zoomIn');
    await vscode.commands.executeCommand('mpeTrace.zoomIn');
    await waitFor(
      () => {
        const [va, vb] = views();
        if (!va || !vb) return false;
        const span = vb.t1 - vb.t0;
        const shift = api.compare().shift;
        return near(va.t0 + shift, vb.t0, span) && near(va.t1 + shift, vb.t1, span) && span < 0.5 * (report.iterations.b.at(-1) - report.iterations.b[0]);
      },
      'A to follow the zoom in B',
      20000,
    );
    // Align by iteration 5 (index 4): the iteration starts at the same fraction of both windows.
    api.alignCompare({ mode: 'iteration', iteration: 4 });
    await waitFor(
      () => {
        const [va, vb] = views();
        const it = api.compare().iterations;
        if (!va || !vb) return false;
        const xa = (it.a[4] - va.t0) / (va.t1 - va.t0);
        const xb = (it.b[4] - vb.t0) / (vb.t1 - vb.t0);
        return Math.abs(xa - xb) < 1e-6 && near(api.compare().shift, it.b[4] - it.a[4], 1);
      },
      'iteration 5 of both at the same x',
      20000,
    );
    // The waiting columns follow from the wait-state analysis of both runs (state rows only).
    const waited = await waitFor(() => {
      const c = api.compare();
      return c && !c.computingWaits && c.categories.some((r) => r.waitA !== undefined) ? c : undefined;
    }, 'the waiting columns');
    const waitA = waited.categories.reduce((s, r) => s + (r.waitA ?? 0), 0);
    assert.ok(waitA > 0, `some waiting in A: ${JSON.stringify(waited.categories.slice(0, 4))}`);
    assert.ok(waited.categories.find((r) => r.name === 'Compute').waitA !== undefined, 'Compute is a state: it has a waiting cell');
    // A call-site row greys out the rest in both timelines; a category row clears that.
    assert.ok(waited.sites.length > 0, 'the synthetic runs record source locations');
    api.highlightCompare({ site: 0 });
    await waitFor(
      () => api.siteMarks(a.toString())?.highlight === waited.sites[0] && api.siteMarks(b.toString())?.highlight === waited.sites[0],
      `both timelines to show only ${waited.sites[0]}`,
      10000,
    );
    api.highlightCompare({});
    await waitFor(
      () => api.siteMarks(a.toString())?.highlight === undefined && api.siteMarks(b.toString())?.highlight === undefined,
      'the site highlight to clear',
      10000,
    );
  });
});
