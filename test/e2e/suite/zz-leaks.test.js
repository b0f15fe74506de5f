// Resources after many editors (issue 9): opening and closing 100 trace editors one after another,
// then 20 at once, leaves no open documents, no leaked file descriptors or threads (workers), and
// bounded memory in the extension host. Measured here, inside the extension host process, and
// printed for the report. Runs last (file name) so the other suites' editors are closed.
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');
const { viewType, hasCustomEditor, traceUri, skip, closeAll, extension, waitForValue } = require('./helpers');

const fdCount = () => fs.readdirSync('/proc/self/fd').length;
const threadCount = () => Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);
const heapMB = () => process.memoryUsage().heapUsed / 2 ** 20;
const customTabs = () =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === viewType);

// The suite's default wait (30 s) over the shared poller.
const waitFor = (get, what, ms = 30000) => waitForValue(get, what, ms);

/** Settled counts: wait until fds and threads stop changing (workers wind down, handles close). */
async function settled() {
  let last = '';
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const now = `${fdCount()}/${threadCount()}`;
    if (now === last) break;
    last = now;
  }
  return { fds: fdCount(), threads: threadCount(), heapMB: heapMB() };
}

suite('resources after many editors', () => {
  setup(async function () {
    if (!hasCustomEditor() || !fs.existsSync('/proc/self/fd')) skip(this, 'needs the custom editor and /proc');
    await closeAll();
  });
  suiteTeardown(closeAll);

  test('100 editors one after another, then 20 at once: no documents, file descriptors or threads left behind', async function () {
    this.timeout(240000);
    const api = extension().exports;
    const names = ['user_states_4.slog2', 'ring_p2p_4.slog2', 'pi_bcast_4.slog2', 'user_states_4.clog2', 'pi_bcast_4.slog2.gz'];
    // Warm-up: every kind opened once (conversion cache, worker bundles loaded), then the baseline.
    for (const n of names) await vscode.commands.executeCommand('vscode.openWith', traceUri(n), viewType);
    await closeAll();
    await waitFor(() => api.documents().length === 0, 'no open documents after warm-up');
    const before = await settled();

    for (let i = 0; i < 100; i++) {
      await vscode.commands.executeCommand('vscode.openWith', traceUri(names[i % names.length]), viewType);
      await closeAll();
    }
    await waitFor(() => customTabs().length === 0 && api.documents().length === 0, 'all 100 closed');
    const afterSequential = await settled();

    const many = [];
    for (let i = 0; i < 20; i++)
      many.push(vscode.commands.executeCommand('vscode.openWith', traceUri(names[i % names.length]), viewType, { preview: false, viewColumn: (i % 3) + 1 }));
    await Promise.all(many);
    await waitFor(() => customTabs().length >= names.length, 'the editors of 20 opens');
    await closeAll();
    await waitFor(() => customTabs().length === 0 && api.documents().length === 0, 'all 20 closed');
    const after = await settled();

    console.log(
      `[mocha] resources: before fds ${before.fds}, threads ${before.threads}, heap ${before.heapMB.toFixed(1)} MB; ` +
        `after 100 sequential fds ${afterSequential.fds}, threads ${afterSequential.threads}, heap ${afterSequential.heapMB.toFixed(1)} MB; ` +
        `after 20 at once fds ${after.fds}, threads ${after.threads}, heap ${after.heapMB.toFixed(1)} MB`,
    );
    // A leaked file handle per editor would add 100+; allow a few for VS Code's own activity.
    assert.ok(after.fds <= before.fds + 5, `file descriptors grew from ${before.fds} to ${after.fds}`);
    // Each leaked worker thread adds at least one OS thread.
    assert.ok(after.threads <= before.threads + 2, `threads grew from ${before.threads} to ${after.threads}`);
    assert.ok(after.heapMB <= before.heapMB + 64, `heap grew from ${before.heapMB.toFixed(1)} to ${after.heapMB.toFixed(1)} MB`);
  });
});
