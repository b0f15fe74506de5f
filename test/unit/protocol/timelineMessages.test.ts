// Range selection, legend state and toolbar commands from the webview are validated on the host;
// the per-workspace colour table keeps only well-formed entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWebviewToHost } from '../../../src/protocol/webview';
import { CategoryColours } from '../../../src/host/categoryColours';

test('selectRange: none, or two finite increasing times', () => {
  assert.ok(isWebviewToHost({ kind: 'selectRange' }));
  assert.ok(isWebviewToHost({ kind: 'selectRange', range: [0.1, 0.2] }));
  assert.equal(isWebviewToHost({ kind: 'selectRange', range: [0.2, 0.1] }), false);
  assert.equal(isWebviewToHost({ kind: 'selectRange', range: [0, Infinity] }), false);
  assert.equal(isWebviewToHost({ kind: 'selectRange', range: [0] }), false);
  // a region: rows of a Y map
  assert.ok(isWebviewToHost({ kind: 'selectRange', range: [0.1, 0.2], rows: [1, 2], mapIndex: 0 }));
  assert.equal(isWebviewToHost({ kind: 'selectRange', range: [0.1, 0.2], rows: [1, 2] }), false);
  assert.equal(isWebviewToHost({ kind: 'selectRange', range: [0.1, 0.2], rows: [-1], mapIndex: 0 }), false);
  assert.equal(isWebviewToHost({ kind: 'selectRange', range: [0.1, 0.2], rows: 'all', mapIndex: 0 }), false);
});

test('runCommand only names the toolbar commands; legendState is a list of integers', () => {
  for (const command of ['addBookmark', 'goToBookmark', 'copyViewLink']) assert.ok(isWebviewToHost({ kind: 'runCommand', command }));
  assert.equal(isWebviewToHost({ kind: 'runCommand', command: 'workbench.action.terminal.new' }), false);
  assert.ok(isWebviewToHost({ kind: 'legendState', hidden: [1, 2] }));
  assert.equal(isWebviewToHost({ kind: 'legendState', hidden: [1.5] }), false);
  assert.equal(isWebviewToHost({ kind: 'legendState' }), false);
});

test('category colours: set, reset, and junk in the stored state is ignored', async () => {
  const data = new Map<string, unknown>();
  const memento = {
    get: <T>(k: string): T | undefined => data.get(k) as T | undefined,
    update: async (k: string, v: unknown): Promise<void> => void data.set(k, v),
    keys: () => [...data.keys()],
  };
  const colours = new CategoryColours(memento as never);
  assert.deepEqual(colours.all(), {});
  await colours.set('Phase', [1, 2, 3]);
  await colours.set('Compute', [4, 5, 6]);
  assert.deepEqual(colours.all(), { Phase: [1, 2, 3], Compute: [4, 5, 6] });
  await colours.set('Phase', undefined);
  assert.deepEqual(colours.all(), { Compute: [4, 5, 6] });
  data.set('mpeTrace.categoryColours', { A: [1, 2], B: 'red', C: [9, 9, 9] });
  assert.deepEqual(colours.all(), { C: [9, 9, 9] });
});

test('ready: the generation of the init embedded in the page must be a safe integer', () => {
  assert.ok(isWebviewToHost({ kind: 'ready', booted: 0 }));
  assert.ok(isWebviewToHost({ kind: 'ready', booted: 7 }));
  for (const bad of [1.5, '3', null, Number.NaN, 2 ** 60]) assert.equal(isWebviewToHost({ kind: 'ready', booted: bad }), false, String(bad));
});

test("ready: with or without a first-view hint; a hint's fields must be positive finite numbers", () => {
  const hint = { pixelWidth: 748, heightPx: 462, minFitRowPx: 14, rowPx: 20 };
  assert.ok(isWebviewToHost({ kind: 'ready' }));
  assert.ok(isWebviewToHost({ kind: 'ready', firstView: hint }));
  for (const bad of [null, 'x', {}, { ...hint, heightPx: 0 }, { ...hint, pixelWidth: Infinity }, { ...hint, rowPx: '20' }])
    assert.equal(isWebviewToHost({ kind: 'ready', firstView: bad }), false, JSON.stringify(bad));
});
