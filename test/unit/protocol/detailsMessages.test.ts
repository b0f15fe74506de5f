// The host refuses malformed details / open-source requests from the webview (a trust boundary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWebviewToHost } from '../../../src/protocol/webview';

const ref = { drawable: 'state', mapIndex: 0, category: 301, row: 0, toRow: 0, start: 0.1, end: 0.2, lowestDepth: 0, tolerance: 1e-7 };

test('a well-formed requestDetails and openSource pass', () => {
  assert.ok(isWebviewToHost({ kind: 'requestDetails', detailsId: 1, generation: 1, ref }));
  assert.ok(isWebviewToHost({ kind: 'requestDetails', detailsId: 1, generation: 1, ref: { ...ref, at: { requestId: 4, final: false, index: 17 } } }));
  assert.ok(isWebviewToHost({ kind: 'openSource', siteId: 0, beside: false }));
});

test('bad drawable references are refused', () => {
  for (const bad of [
    { ...ref, drawable: 'shadow' },
    { ...ref, row: -1 },
    { ...ref, mapIndex: 0.5 },
    { ...ref, start: Number.NaN },
    { ...ref, end: Infinity },
    { ...ref, tolerance: 5 },
    { ...ref, tolerance: -1 },
    { ...ref, category: '301' },
    { ...ref, lowestDepth: undefined },
    { ...ref, at: { requestId: 4, final: true, index: -1 } },
    { ...ref, at: { requestId: 4, index: 1 } },
    { ...ref, at: { requestId: '4', final: true, index: 1 } },
    { ...ref, at: null },
  ]) {
    assert.equal(isWebviewToHost({ kind: 'requestDetails', detailsId: 1, generation: 1, ref: bad }), false, JSON.stringify(bad));
  }
  assert.equal(isWebviewToHost({ kind: 'requestDetails', detailsId: -1, generation: 1, ref }), false);
  assert.equal(isWebviewToHost({ kind: 'requestDetails', detailsId: 1, generation: 1 }), false);
});

test('openSource carries a site id, never a path', () => {
  assert.equal(isWebviewToHost({ kind: 'openSource', siteId: '/etc/passwd', beside: false }), false);
  assert.equal(isWebviewToHost({ kind: 'openSource', siteId: 1.5, beside: false }), false);
  assert.equal(isWebviewToHost({ kind: 'openSource', siteId: -2, beside: false }), false);
  assert.equal(isWebviewToHost({ kind: 'openSource', siteId: 2 }), false);
});

test('search requests: text length, mode, rows, durations and direction are checked', () => {
  const q = { text: 'Region', mode: 'plain', caseSensitive: false, mapIndex: 0, unsearchable: [] };
  const ok = (query: unknown, extra: Record<string, unknown> = {}) =>
    isWebviewToHost({ kind: 'search', searchId: 1, generation: 1, query, direction: 1, ...extra });
  assert.ok(ok(q));
  assert.ok(ok({ ...q, rows: [0, 3], minDuration: 0, maxDuration: 1 }, { fromTime: 0.5 }));
  assert.equal(ok({ ...q, text: 'x'.repeat(1001) }), false);
  assert.equal(ok({ ...q, mode: 'glob' }), false);
  assert.equal(ok({ ...q, rows: [-1] }), false);
  assert.equal(ok({ ...q, minDuration: -1 }), false);
  assert.equal(ok({ ...q, unsearchable: undefined }), false);
  assert.equal(ok(q, { direction: 2 }), false);
  assert.equal(ok(q, { fromTime: Number.NaN }), false);
  assert.ok(isWebviewToHost({ kind: 'searchClosed' }));
});
