// Source ↔ trace in a real VS Code, through the extension's CodeLens provider and test API:
// with user_states_4.clog2 open in the timeline, src/user_states.c line 80 (Phase) carries a
// CodeLens whose count and total are what `mpe-trace stats --by site` prints for that site; a
// range selected in the timeline highlights exactly the sites of that range (80/83/86 for the
// first Phase on rank 0); "Show in timeline" reaches the open timeline.
const assert = require('assert');
const path = require('path');
const { execFileSync } = require('child_process');
const vscode = require('vscode');
const { viewType, extension, hasCustomEditor, traceUri, workspaceUri, skip, closeAll } = require('./helpers');

/** The same units as the CodeLens (src/core/stats/siteText.ts formatSeconds). */
function formatSeconds(t) {
  const a = Math.abs(t);
  const trim = (v) => String(Number(v.toPrecision(3)));
  if (a === 0) return '0 s';
  if (a >= 1) return `${trim(t)} s`;
  if (a >= 1e-3) return `${trim(t * 1e3)} ms`;
  if (a >= 1e-6) return `${trim(t * 1e6)} µs`;
  return `${trim(t * 1e9)} ns`;
}

function cliSites(file, extra = []) {
  const cli = path.join(extension().extensionPath, 'dist', 'cli.js');
  const out = execFileSync(process.execPath, [cli, 'stats', file, '--by', 'site', '--json', ...extra], {
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  return JSON.parse(out).sites;
}

async function lensesUntil(uri, predicate, timeoutMs = 40000) {
  const started = Date.now();
  for (;;) {
    const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', uri)) || [];
    if (predicate(lenses)) return lenses;
    if (Date.now() - started > timeoutMs) return lenses;
    await new Promise((r) => setTimeout(r, 250));
  }
}

suite('source ↔ trace (CodeLens, region → code)', () => {
  let api;
  setup(async function () {
    if (!hasCustomEditor()) return skip(this, 'no custom editor');
    api = await extension().activate();
    if (!api || typeof api.regionLines !== 'function') return skip(this, 'activate() exports no regionLines() yet');
    await closeAll();
  });
  suiteTeardown(closeAll);

  test('CodeLens on user_states.c:80 = mpe-trace stats --by site; a range highlights its sites', async function () {
    this.timeout(120000);
    const trace = traceUri('user_states_4.clog2');
    await vscode.commands.executeCommand('vscode.openWith', trace, viewType);
    await api.waitForPaint(trace.toString(), 40000);
    const source = vscode.Uri.joinPath(workspaceUri(), 'src', 'user_states.c');
    const doc = await vscode.workspace.openTextDocument(source);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });

    const expected = cliSites(trace.fsPath).find((s) => s.line === 80 && /user_states\.c$/.test(s.file));
    assert.ok(expected, 'the CLI lists user_states.c:80');
    const lenses = await lensesUntil(source, (ls) => ls.some((l) => l.range.start.line === 79));
    const lens = lenses.find((l) => l.range.start.line === 79);
    assert.ok(lens && lens.command, `no CodeLens on line 80 (${lenses.length} lenses)`);
    assert.ok(lens.command.title.includes(`${expected.count}×`), `${lens.command.title} vs count ${expected.count}`);
    assert.ok(lens.command.title.includes(`${formatSeconds(expected.total)} total`), `${lens.command.title} vs total ${expected.total}`);
    assert.ok(lens.command.title.includes(`worst rank ${expected.worstRank}`), lens.command.title);
    // Every CLI site of this file has its lens on its line.
    const all = cliSites(trace.fsPath).filter((s) => /user_states\.c$/.test(s.file));
    assert.deepEqual(
      lenses.map((l) => l.range.start.line + 1).sort((a, b) => a - b),
      all.map((s) => s.line).sort((a, b) => a - b),
    );

    // Hover on line 80: per category table and the timeline links.
    const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', source, new vscode.Position(79, 2));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /\| Phase \|/);
    assert.match(text, /Show in timeline/);

    // "Show in timeline" reaches the open timeline (the search runs there).
    assert.equal(await vscode.commands.executeCommand(lens.command.command, ...lens.command.arguments), true);

    // Region → code: the first Phase on rank 0.
    const range = [0.00006, 0.0005];
    const inRange = cliSites(trace.fsPath, ['--from', String(range[0]), '--to', String(range[1])]).filter((s) => s.count > 0);
    api.selectRange(trace.toString(), range);
    let lines = [];
    const started = Date.now();
    while (Date.now() - started < 30000) {
      lines = await api.regionLines(source.toString());
      if (lines.length > 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.deepEqual(
      lines.map((l) => l + 1).sort((a, b) => a - b),
      inRange.map((s) => s.line).sort((a, b) => a - b),
    );
    assert.deepEqual(
      lines.map((l) => l + 1).sort((a, b) => a - b),
      [80, 83, 86],
    );
    // A region (rows × time, Ctrl/Cmd+Shift+drag): the same range over ranks 1–3 only. The
    // range's drawables with a source are all on rank 0 (mpe-trace dump of that range), so the
    // region comes from no line; over rank 0 alone it is the same three lines.
    {
      const mapIndex = api.lastViewState(trace.toString())?.mapIndex ?? 0;
      api.selectRange(trace.toString(), range, [1, 2, 3], mapIndex);
      let region = lines;
      const t0 = Date.now();
      while (Date.now() - t0 < 30000 && region.length > 0) {
        await new Promise((r) => setTimeout(r, 250));
        region = await api.regionLines(source.toString());
      }
      assert.deepEqual(region, [], 'a region of ranks 1–3 highlights no line');
      api.selectRange(trace.toString(), range, [0], mapIndex);
      const t1 = Date.now();
      while (Date.now() - t1 < 30000 && region.length === 0) {
        await new Promise((r) => setTimeout(r, 250));
        region = await api.regionLines(source.toString());
      }
      assert.deepEqual(
        region.map((l) => l + 1).sort((a, b) => a - b),
        [80, 83, 86],
      );
      api.selectRange(trace.toString(), range);
    }
    // With the range, the lens numbers are the range's.
    const ranged = await lensesUntil(source, (ls) => ls.some((l) => l.range.start.line === 79 && l.command.title.startsWith('$(pulse) 1×')));
    assert.ok(
      ranged.some((l) => l.range.start.line === 79 && l.command.title.startsWith('$(pulse) 1×')),
      ranged.map((l) => l.command.title).join(' | '),
    );
    api.selectRange(trace.toString(), undefined);

    // The heat map: every site line of the file painted once, the line with the largest total
    // (over the whole trace again) in the hottest band; toggled off, nothing is painted.
    if (typeof api.heatMapLines === 'function') {
      const wanted = await lensesUntil(source, (ls) => ls.some((l) => l.range.start.line === 79 && !l.command.title.startsWith('$(pulse) 1×')));
      assert.ok(wanted.length > 0);
      await vscode.commands.executeCommand('mpeTrace.toggleSourceHeatMap');
      const bands = await api.heatMapLines(source.toString());
      assert.deepEqual(
        bands
          .flat()
          .map((l) => l + 1)
          .sort((a, b) => a - b),
        all.map((s) => s.line).sort((a, b) => a - b),
      );
      const hottest = all.reduce((a, b) => (b.total > a.total ? b : a));
      assert.ok(bands[bands.length - 1].includes(hottest.line - 1), `line ${hottest.line} (total ${hottest.total}) in the top band: ${JSON.stringify(bands)}`);
      await vscode.commands.executeCommand('mpeTrace.toggleSourceHeatMap');
      assert.deepEqual((await api.heatMapLines(source.toString())).flat(), []);
    }
  });

  test('Colour in Trace: stored in the sidecar, back after closing and reopening the trace', async function () {
    this.timeout(120000);
    const fs = require('fs');
    const trace = traceUri('user_states_4.clog2');
    const sidecar = trace.fsPath + '.mpetrace.json';
    const existed = fs.existsSync(sidecar);
    await vscode.commands.executeCommand('vscode.openWith', trace, viewType);
    await api.waitForPaint(trace.toString(), 40000);
    const site = cliSites(trace.fsPath).find((s) => s.line === 80);
    const rgb = [230, 25, 75];
    try {
      const done = await vscode.commands.executeCommand('mpeTrace.colourInTrace', { trace: trace.toString(), sites: [{ file: site.file, line: 80 }], rgb });
      assert.equal(done, true);
      const want = [{ sites: `${site.file}:80`, rgb }];
      assert.deepEqual(JSON.parse(JSON.stringify(api.siteMarks(trace.toString()).colourings)), want);
      const stored = JSON.parse(fs.readFileSync(sidecar, 'utf8'));
      assert.deepEqual(stored.colourings, want, 'in the sidecar');
      await closeAll();
      await vscode.commands.executeCommand('vscode.openWith', trace, viewType);
      await api.waitForPaint(trace.toString(), 40000);
      let marks;
      for (let i = 0; i < 80; i++) {
        marks = api.siteMarks(trace.toString());
        if (marks && marks.colourings.length > 0) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.deepEqual(JSON.parse(JSON.stringify(marks.colourings)), want, 'read back after reopening');
    } finally {
      await vscode.commands.executeCommand('mpeTrace.removeTraceColourings', { trace: trace.toString(), all: true });
      if (!existed) fs.rmSync(sidecar, { force: true });
    }
  });
});
