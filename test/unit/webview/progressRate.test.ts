// The time left shown beside a preview: from the mean rate since the first progress seen; none
// before a second and 1 % have passed; never negative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRemaining, ProgressRate } from '../../../webview/progressRate';

test('time left from the mean rate since the first report', () => {
  const r = new ProgressRate();
  assert.equal(r.remainingMs(), undefined);
  r.note(0.1, 0);
  r.note(0.15, 500);
  assert.equal(r.remainingMs(), undefined, 'under a second seen');
  r.note(0.3, 2000); // 0.2 in 2 s: 0.7 left takes 7 s
  assert.equal(Math.round(r.remainingMs()!), 7000);
  r.note(1, 9000);
  assert.equal(r.remainingMs(), 0);
  r.note(Number.NaN, 9500);
  assert.equal(r.remainingMs(), 0, 'a bad report is ignored');
});

test('no estimate while progress stands still', () => {
  const r = new ProgressRate();
  r.note(0.5, 0);
  r.note(0.505, 5000);
  assert.equal(r.remainingMs(), undefined);
});

test('time left in words', () => {
  assert.equal(formatRemaining(14_200), 'about 14 s left');
  assert.equal(formatRemaining(200), 'about 1 s left');
  assert.equal(formatRemaining(185_000), 'about 3 min left');
});
