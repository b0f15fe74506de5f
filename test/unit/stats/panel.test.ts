// The panel's pure parts: protocol validation of webview messages, table sorting, bar stacking.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeRangeStats } from '../../../src/core/stats';
import { isStatsToHost } from '../../../src/protocol/stats';
import { MAX_SEGMENTS, sortCategories, stackRows } from '../../../webview/stats/model';
import { A, B, EV, MSG, event, message, meta, state } from './synthetic';

test('isStatsToHost accepts the protocol and rejects anything else', () => {
  const good = [
    { kind: 'ready' },
    { kind: 'export', format: 'csv', table: 'pairs' },
    { kind: 'export', format: 'json', table: 'categories' },
    { kind: 'copy', table: 'durations' },
    { kind: 'highlightCategory', index: 3 },
    { kind: 'revealRow', lineID: 0 },
    { kind: 'revealInstance', category: 1, instance: { earliest: 0, latest: 1, lineID: 2 } },
    { kind: 'listMessages', from: 0, to: 1 },
    { kind: 'cancel' },
    { kind: 'wholeTrace' },
  ];
  for (const m of good) assert.ok(isStatsToHost(m), JSON.stringify(m));
  const bad: unknown[] = [
    undefined,
    null,
    'ready',
    {},
    { kind: 'nope' },
    { kind: 'export', format: 'xml', table: 'pairs' },
    { kind: 'export', format: 'csv', table: '../../etc' },
    { kind: 'copy' },
    { kind: 'highlightCategory', index: '3' },
    { kind: 'revealRow', lineID: Number.NaN },
    { kind: 'revealInstance', category: 1, instance: { earliest: 0, latest: 1 } },
    { kind: 'listMessages', from: 0 },
  ];
  for (const m of bad) assert.ok(!isStatsToHost(m), JSON.stringify(m));
});

test('table sorting: by any column, both directions, ties by index', async () => {
  const s = await computeRangeStats(meta, [{ drawables: [state(A, 0, 10), state(B, 1, 2), state(B, 3, 5), event(EV, 4), message(1, 0, 2, 1, 0, 8)] }], [0, 10]);
  assert.deepEqual(
    sortCategories(s.categories, 'inclusive', true).map((c) => c.index),
    [A, B, MSG, EV],
  );
  assert.deepEqual(
    sortCategories(s.categories, 'count', true).map((c) => c.index),
    [B, MSG, A, EV],
  );
  assert.deepEqual(
    sortCategories(s.categories, 'name', false).map((c) => c.name),
    ['A', 'B', 'E', 'message'],
  );
  assert.deepEqual(
    sortCategories(s.categories, 'max', false).map((c) => c.index),
    [EV, MSG, B, A],
  );
});

test('bars: exclusive stacked with the rest as "other"; inclusive unstacked, without "other"', async () => {
  const ds = [state(A, 0, 10, 0), state(B, 2, 4, 0), state(B, 1, 3, 1), message(1, 0, 2, 1, 0, 8)];
  const s = await computeRangeStats(meta, [{ drawables: ds }], [0, 10]);
  const incl = stackRows(s.rows, s.categories, 'inclusive');
  assert.equal(incl.stacked, false, 'inclusive times overlap: not stacked');
  assert.deepEqual(incl.labels, ['0', '1']);
  assert.deepEqual(incl.lineIDs, [0, 1]);
  assert.deepEqual(
    incl.segments.map((x) => [x.name, x.values]),
    [
      ['A', [10, 0]],
      ['B', [2, 2]],
    ],
  );
  const excl = stackRows(s.rows, s.categories, 'exclusive');
  assert.deepEqual(
    excl.segments.map((x) => [x.name, x.values]),
    [
      ['A', [8, 0]],
      ['B', [2, 2]],
    ],
  );
  // More categories than segments: the smallest are summed as "other".
  const many = new Map(meta.categories);
  const extra = [];
  for (let i = 0; i < MAX_SEGMENTS + 3; i++) {
    many.set(100 + i, { ...meta.categories.get(A)!, index: 100 + i, name: `S${i}` });
    extra.push(state(100 + i, i, i + 1 + i / 100, 0));
  }
  const s2 = await computeRangeStats({ ...meta, categories: many }, [{ drawables: extra }], [0, 100]);
  const st = stackRows(s2.rows, s2.categories, 'exclusive');
  assert.equal(st.stacked, true);
  assert.equal(st.segments.length, MAX_SEGMENTS + 1);
  assert.equal(st.segments.at(-1)!.name, 'other');
  const total = st.segments.reduce((t, x) => t + x.values[0]!, 0);
  assert.ok(Math.abs(total - s2.categories.reduce((t, c) => t + c.exclusive, 0)) < 1e-9);
  assert.ok(total <= 100, 'a stacked bar is at most the range length');
  const inclusive = stackRows(s2.rows, s2.categories, 'inclusive');
  assert.equal(inclusive.stacked, false);
  assert.equal(inclusive.segments.length, MAX_SEGMENTS);
});
