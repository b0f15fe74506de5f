// The host side of the Statistics view with a fake `vscode`: what it posts for the active trace
// (summary first, then exact), following the selection, "whole trace", the message list, exports,
// copy, cancellation and the empty state.
import { recorded, FakeWebviewView, EventEmitter, Uri } from '../../helpers/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerStatsView, STATS_VIEW_ID, type ActiveTrace, type StatsViewProvider } from '../../../src/host/statsView';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import type { HostToStats } from '../../../src/protocol/stats';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipToMemory } from '../../../src/io/gzip';
import { fixture } from '../../helpers/paths';

const isKind =
  <K extends HostToStats['kind']>(kind: K, pred: (m: Extract<HostToStats, { kind: K }>) => boolean = () => true) =>
  (m: unknown): m is Extract<HostToStats, { kind: K }> =>
    typeof m === 'object' && m !== null && (m as { kind?: unknown }).kind === kind && pred(m as Extract<HostToStats, { kind: K }>);

async function setup(file: Slog2File, name: string) {
  let active: ActiveTrace | undefined = { uri: Uri.file(`/traces/${name}`) as never, file };
  const changed = new EventEmitter<void>();
  const links: string[] = [];
  const subscriptions: { dispose(): unknown }[] = [];
  const context = { extensionUri: Uri.file('/ext'), subscriptions } as never;
  const provider: StatsViewProvider = registerStatsView(context, () => active, {
    onDidChangeActiveTrace: changed.event as never,
    links: {
      highlightCategory: (_u, i) => links.push(`highlight ${i}`),
      revealRow: (_u, l) => links.push(`row ${l}`),
      revealInstance: (_u, c, inst) => links.push(`instance ${c} ${inst.lineID}`),
    },
  });
  assert.equal(recorded.providers.get(STATS_VIEW_ID), provider);
  const view = new FakeWebviewView();
  provider.resolveWebviewView(view as never);
  return {
    provider,
    view,
    links,
    setActive(a: ActiveTrace | undefined) {
      active = a;
      changed.fire();
    },
    get active() {
      return active;
    },
    dispose: () => subscriptions.forEach((s) => s.dispose()),
  };
}

test('statistics view: html/CSP, summary then exact, selection, whole trace, links, list, export, copy, empty', async () => {
  const gz = await FileSource.open(fixture('bigrun_medium_4.slog2.gz'));
  const file = await Slog2File.open(await gunzipToMemory(gz, 64 << 20));
  await gz.close();
  const h = await setup(file, 'bigrun_medium_4.slog2.gz');
  try {
    const html = h.view.webview.html;
    // the statistics page compiles no WebAssembly: its script by nonce, nothing else
    assert.match(html, /default-src 'none'; script-src 'nonce-([^']+)';/);
    const nonce = /nonce-([^']+)'/.exec(html)![1]!;
    assert.ok(html.includes(`<script nonce="${nonce}" src="file:///ext/dist/stats.js">`));
    assert.ok(html.includes('href="file:///ext/dist/stats.css"'));

    let from = h.view.posted.length;
    h.view.receive({ kind: 'ready' });
    const trace = await h.view.waitFor(isKind('trace'), from);
    assert.deepEqual(trace.range, file.timeRange);
    assert.equal(trace.fileName, 'bigrun_medium_4.slog2.gz');
    const summary = await h.view.waitFor(isKind('stats'), from);
    assert.equal(summary.stats.kind, 'summary', 'the instant result comes first');
    const exact = await h.view.waitFor(
      isKind('stats', (m) => m.stats.kind === 'exact'),
      from,
    );
    assert.equal(exact.stats.drawables, 60160);
    assert.equal(h.provider.current, exact.stats);

    // Unchanged trace: a recreated webview gets the result again without recomputing.
    from = h.view.posted.length;
    h.view.receive({ kind: 'ready' });
    await h.view.waitFor(
      isKind('stats', (m) => m.stats === exact.stats),
      from,
    );

    // A selection in the timeline: the numbers change to the range's.
    const [t0, t1] = file.timeRange;
    const range: [number, number] = [t0 + (t1 - t0) * 0.4, t0 + (t1 - t0) * 0.45];
    from = h.view.posted.length;
    h.setActive({ ...h.active!, range });
    assert.deepEqual((await h.view.waitFor(isKind('trace'), from)).range, range);
    const ranged = await h.view.waitFor(
      isKind('stats', (m) => m.stats.kind === 'exact'),
      from,
    );
    assert.deepEqual(ranged.stats.range, range);
    assert.ok(ranged.stats.drawables < exact.stats.drawables / 5);
    assert.ok(!h.view.posted.slice(from).some(isKind('stats', (m) => m.stats.kind === 'summary')), 'no whole-file summary for a range');

    // Panel → host: links to the timeline.
    h.view.receive({ kind: 'highlightCategory', index: 7 });
    h.view.receive({ kind: 'revealRow', lineID: 2 });
    h.view.receive({ kind: 'revealInstance', category: 7, instance: { earliest: 1, latest: 2, lineID: 3 } });
    h.view.receive({ kind: 'revealRow', lineID: 'x' });
    assert.deepEqual(h.links, ['highlight 7', 'row 2', 'instance 7 3']);

    // The messages of one pair in the range.
    const pair = ranged.stats.messages.pairs[0]!;
    from = h.view.posted.length;
    h.view.receive({ kind: 'listMessages', from: pair.from, to: pair.to });
    const list = await h.view.waitFor(isKind('messages'), from);
    assert.equal(list.items.length, pair.count);
    assert.equal(
      list.items.reduce((b, m) => b + (m.size ?? 0), 0),
      pair.bytes,
    );

    // Export (save dialog → file) and copy as TSV.
    recorded.saveDialog = Uri.file('/out/pairs.csv');
    h.view.receive({ kind: 'export', format: 'csv', table: 'pairs' });
    h.view.receive({ kind: 'copy', table: 'categories' });
    await new Promise((r) => setTimeout(r, 50));
    const csv = recorded.written.get('file:///out/pairs.csv')!;
    assert.equal(csv.split('\r\n')[0], 'from,to,count,bytes');
    assert.equal(csv.trimEnd().split('\r\n').length, ranged.stats.messages.pairs.length + 1);
    assert.match(recorded.clipboard, /^name\tkind\tcount\tbytes\tinclusive/);
    recorded.saveDialog = Uri.file('/out/all.json');
    h.view.receive({ kind: 'export', format: 'json', table: 'categories' });
    await new Promise((r) => setTimeout(r, 50));
    const exported = JSON.parse(recorded.written.get('file:///out/all.json')!);
    assert.deepEqual(exported.range, range);
    // The CLI's --json document: share per state, bytes per message category, timelines.
    assert.deepEqual(Object.keys(exported).sort(), [
      'categories',
      'clampedStates',
      'kind',
      'messageComms',
      'messageSizes',
      'messageTags',
      'messages',
      'range',
      'rows',
      'timelines',
    ]);
    assert.ok('share' in exported.categories[0] && 'bytes' in exported.categories[0]);

    // "Whole trace" drops the selection.
    from = h.view.posted.length;
    h.view.receive({ kind: 'wholeTrace' });
    assert.deepEqual((await h.view.waitFor(isKind('trace'), from)).range, file.timeRange);
    await h.view.waitFor(
      isKind('stats', (m) => m.stats.kind === 'exact'),
      from,
    );

    // Cancel while computing: an error line, and the range is computed again next time.
    from = h.view.posted.length;
    h.setActive({ ...h.active!, range: [t0, t0 + (t1 - t0) * 0.9] });
    h.view.receive({ kind: 'cancel' });
    assert.match((await h.view.waitFor(isKind('error'), from)).message, /Cancelled/);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(!h.view.posted.slice(from).some(isKind('stats', (m) => m.stats.kind === 'exact')), 'cancelled before the exact result');

    // No active trace editor: the empty state.
    from = h.view.posted.length;
    h.setActive(undefined);
    await h.view.waitFor(isKind('empty'), from);
    assert.equal(h.provider.current, undefined);
  } finally {
    h.dispose();
    await file.close();
  }
});

test('statistics view: a preview says so (its bytes of the total), and the whole trace after it does not', async () => {
  const gz = await FileSource.open(fixture('bigrun_medium_4.slog2.gz'));
  const file = await Slog2File.open(await gunzipToMemory(gz, 64 << 20));
  await gz.close();
  const h = await setup(file, 'big.clog2');
  try {
    h.setActive({ ...h.active!, preview: { shownBytes: 4 << 20, totalBytes: 3 * 2 ** 30 } });
    let from = h.view.posted.length;
    h.view.receive({ kind: 'ready' });
    const preview = await h.view.waitFor(isKind('trace'), from);
    assert.deepEqual(preview.preview, { shownBytes: 4 << 20, totalBytes: 3 * 2 ** 30 });
    // A preview with no file of its own (a snapshot of the conversion): its summary (and
    // approximate statistics of a big one), never an exact pass on the host's thread (the same
    // file as a trace takes that pass: see below).
    await h.view.waitFor(
      isKind('stats', (m) => m.stats.kind === 'summary'),
      from,
    );
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(!h.view.posted.slice(from).some(isKind('stats', (m) => m.stats.kind === 'exact')), 'no exact statistics of a snapshot');
    // The whole trace replaces it (a new file): recomputed, no preview mark.
    const whole = await Slog2File.open(file.source);
    from = h.view.posted.length;
    h.setActive({ uri: h.active!.uri, file: whole });
    const after = await h.view.waitFor(isKind('trace'), from);
    assert.equal(after.preview, undefined);
    await h.view.waitFor(
      isKind('stats', (m) => m.stats.kind === 'exact'),
      from,
    );
  } finally {
    h.dispose();
  }
});
