// The webview's side of comparison sync: which of its view reports are moves of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ViewState } from '../../../src/protocol/webview';
import { ViewReports } from '../../../webview/timeline/viewReports';

const view = (t0: number, t1: number, scrollRow = 0): ViewState => ({ t0, t1, mapIndex: 0, scrollRow });

test('where a document starts is not a move; a move before the first report is (CI: a zoom right after the first paint)', () => {
  const r = new ViewReports();
  r.reset(view(0, 10));
  assert.deepEqual(r.report(view(0, 10)), { moved: false, syncSeq: 0 });
  assert.deepEqual(r.report(view(2, 5)), { moved: true, syncSeq: 0 });
  r.reset(view(1, 2));
  assert.deepEqual(r.report(view(1, 2)), { moved: false, syncSeq: 0 });
  r.reset(view(1, 2));
  assert.deepEqual(r.report(view(1, 1.5)), { moved: true, syncSeq: 0 });
});

test('a view applied from a sync is not a move; a move after it is, and carries the sync number', () => {
  const r = new ViewReports();
  r.report(view(0, 10));
  r.synced(3, view(2, 4));
  assert.deepEqual(r.report(view(2, 4)), { moved: false, syncSeq: 3 });
  r.synced(4, view(3, 4));
  assert.deepEqual(r.report(view(3, 5)), { moved: true, syncSeq: 4 });
  r.synced(2, view(3, 5)); // numbers never go back
  assert.equal(r.report(view(3, 5)).syncSeq, 4);
});

test('a resize alone is not a move, even when it refits the rows; a move before the resize still is', () => {
  const r = new ViewReports();
  r.report(view(0, 10));
  r.resized(view(0, 10), view(0, 10, 3));
  assert.equal(r.report(view(0, 10, 3)).moved, false);
  // Moved to (1, 2), then resized before the report went out.
  r.resized(view(1, 2, 3), view(1, 2, 5));
  assert.equal(r.report(view(1, 2, 5)).moved, true);
});

test('views equal up to rounding are the same view', () => {
  const r = new ViewReports();
  r.report(view(0, 10));
  assert.equal(r.report(view(1e-12, 10 - 1e-12)).moved, false);
  assert.equal(r.report(view(1e-12, 10 - 1e-12, 0.5)).moved, true);
});
