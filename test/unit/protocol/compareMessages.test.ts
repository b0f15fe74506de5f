// The comparison's messages cross a trust boundary: the shared cursor carries only a finite time,
// and the Compare panel highlights a call site by its index in the last difference, never by path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWebviewToHost } from '../../../src/protocol/webview';
import { isCompareToHost } from '../../../src/protocol/compare';

test('cursor: absent or one finite time', () => {
  assert.ok(isWebviewToHost({ kind: 'cursor' }));
  assert.ok(isWebviewToHost({ kind: 'cursor', time: 0.25 }));
  for (const time of [Infinity, NaN, '0.25', null]) assert.equal(isWebviewToHost({ kind: 'cursor', time }), false, String(time));
});

test('compare highlight: category and rank names, or a site index; no paths', () => {
  assert.ok(isCompareToHost({ kind: 'highlight', category: 'Compute' }));
  assert.ok(isCompareToHost({ kind: 'highlight', category: 'Compute', rank: '1' }));
  assert.ok(isCompareToHost({ kind: 'highlight', site: 3 }));
  assert.ok(isCompareToHost({ kind: 'highlight' }));
  assert.equal(isCompareToHost({ kind: 'highlight', site: -1 }), false);
  assert.equal(isCompareToHost({ kind: 'highlight', site: 1.5 }), false);
  assert.equal(isCompareToHost({ kind: 'highlight', site: '/etc/passwd:1' }), false);
  assert.equal(isCompareToHost({ kind: 'highlight', category: 7 }), false);
  assert.equal(isCompareToHost({ kind: 'openSite', index: 2 }), true);
  assert.equal(isCompareToHost({ kind: 'openSite', index: -2 }), false);
});
