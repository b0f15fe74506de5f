// Wait-state analysis in the editor (issue 18): ring_p2p_4's skewed message (sent 0.26399 s,
// received 0.26253 s) is listed in the Problems panel and its "show in timeline" command frames
// the arrow; a late-sender receive's popup says whom it waited for and how long; a run big enough
// for the worker's decoder thread gets the same analysis as the CLI's.
const assert = require('assert');
const vscode = require('vscode');
const { viewType, extension, hasCustomEditor, traceUri, skip, closeAll, waitForValue } = require('./helpers');

// The suite's default wait (30 s) over the shared poller.
const waitFor = (get, what, ms = 30000) => waitForValue(get, what, ms);

suite('wait-state analysis', () => {
  let api;
  setup(async function () {
    if (!hasCustomEditor()) return skip(this, `package.json contributes no customEditor "${viewType}" yet`);
    api = await extension().activate();
    if (!api || typeof api.analysis !== 'function') return skip(this, 'activate() exports no analysis() yet');
    await closeAll();
  });
  suiteTeardown(closeAll);

  test("a 100 MB run (decoded in the analysis worker's decoder thread): the same waits and critical path as mpe-trace analyze", async function () {
    this.timeout(180000);
    const uri = traceUri('big_run.slog2');
    const expectedPath = vscode.Uri.joinPath(uri, '..', 'big_run.analysis.json');
    let expected;
    try {
      expected = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(expectedPath)).toString('utf8'));
    } catch {
      return skip(this, 'the workspace has no big_run.slog2 (dist/cli.js was not built)');
    }
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    await api.waitForPaint(uri.toString(), 60000);
    const a = await waitFor(() => api.analysis(uri.toString()), 'the analysis of big_run.slog2', 150000);
    const r = a.result;
    assert.strictEqual(r.messages.matched, expected.messages.matched, 'matched messages');
    assert.ok(r.messages.matched > 50000, `a big run: ${r.messages.matched} messages`);
    for (const [pattern, want] of Object.entries(expected.waitStates)) {
      assert.strictEqual(r.waitStates[pattern].count, want.count, `${pattern} count`);
      assert.ok(
        Math.abs(r.waitStates[pattern].time - want.time) <= 1e-9 * Math.max(1, want.time),
        `${pattern} time ${r.waitStates[pattern].time} vs ${want.time}`,
      );
    }
    // The JSON lists the first segments only.
    const first = expected.criticalPath.segments;
    assert.deepStrictEqual(
      r.criticalPath.segments.slice(0, first.length).map((x) => [x.rank, x.from, x.to]),
      first.map((x) => [x.rank, x.from, x.to]),
      'critical path segments',
    );
    assert.ok(
      Math.abs(r.criticalPath.length - expected.criticalPath.length) <= 1e-9,
      `critical path ${r.criticalPath.length} vs ${expected.criticalPath.length}`,
    );
  });

  test('ring_p2p_4: the Problems panel lists the skewed message; its command frames the arrow', async function () {
    this.timeout(90000);
    const uri = traceUri('ring_p2p_4.slog2');
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    await api.waitForPaint(uri.toString(), 40000);
    const diagnostic = await waitFor(
      () => vscode.languages.getDiagnostics(uri).find((d) => d.code && d.code.value === 'receive-before-send' && /received at 0\.26253/.test(d.message)),
      'a receive-before-send diagnostic on ring_p2p_4.slog2',
    );
    assert.match(diagnostic.message, /from rank 0 to rank 2/);
    assert.match(diagnostic.message, /before it was sent \(0\.26398/);
    const target = diagnostic.code.target;
    assert.strictEqual(target.scheme, 'command');
    assert.strictEqual(target.path, 'mpeTrace.showProblem');
    const args = JSON.parse(decodeURIComponent(target.query));
    // Move away first, so that framing is seen.
    await vscode.commands.executeCommand('mpeTrace.showWholeTrace');
    const shown = await vscode.commands.executeCommand(target.path, ...args);
    assert.strictEqual(shown, true);
    const view = await waitFor(() => {
      const v = api.lastViewState(uri.toString());
      return v && v.t1 - v.t0 < 0.01 && v.t0 <= 0.26253 && v.t1 >= 0.26399 ? v : undefined;
    }, 'the view to frame the arrow [0.26253, 0.26399]');
    assert.ok(view.t1 - view.t0 > 0.00145, `window ${view.t0}..${view.t1} narrower than the arrow`);
  });

  test('ring_p2p_4: the popup of a late-sender MPI_Recv says whom it waited for and how long', async function () {
    this.timeout(90000);
    const uri = traceUri('ring_p2p_4.slog2');
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
    await api.waitForPaint(uri.toString(), 40000);
    const a = await waitFor(() => api.analysis(uri.toString()), 'the analysis of ring_p2p_4.slog2');
    const w = a.result.instances.find((i) => i.pattern === 'lateSender' && i.category === 'MPI_Recv');
    assert.ok(w, 'no late-sender MPI_Recv in ring_p2p_4');
    const row = Number(w.rank); // Process View: one row per rank
    const ref = {
      drawable: 'state',
      mapIndex: 0,
      category: a.categories.MPI_Recv,
      row,
      toRow: row,
      start: w.enter,
      end: w.exit,
      lowestDepth: 0,
      tolerance: 1e-9,
    };
    const answer = await api.drawableDetails(uri.toString(), ref);
    assert.ok(answer.details, `no details: ${answer.message}`);
    assert.ok(answer.details.waiting, 'the popup has no waiting sentence');
    const text = answer.details.waiting.text;
    assert.match(text, new RegExp(`^[0-9.e-]+ s of [0-9.e-]+ s waiting for rank ${w.causer.rank}'s MPI_\\w+ at [0-9.e-]+ s \\(late sender\\)$`));
    assert.ok(text.startsWith(`${Number(w.wait.toPrecision(4))} s of `), text);
    assert.strictEqual(answer.details.waiting.goToLabel, 'Go to sender');
  });
});
