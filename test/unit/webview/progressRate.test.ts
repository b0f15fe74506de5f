// The time left shown beside a preview: from the rate over the last few seconds of reports (a
// fresh worker speeds up as it warms); none before a second and 1 % have passed; never negative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRemaining, ProgressRate } from '../../../webview/progressRate';

test('time left from the recent rate', () => {
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

test('a conversion that speeds up: the estimate follows the last seconds, not the slow start', () => {
  const r = new ProgressRate();
  // 1 % a second for 5 s (the worker warming), then 10 % a second
  for (let t = 0; t <= 5000; t += 100) r.note(0.01 * (t / 1000), t);
  for (let t = 5100; t <= 9000; t += 100) r.note(0.05 + 0.1 * ((t - 5000) / 1000), t);
  // at 9 s: 45 % done at 10 %/s: 5.5 s left (the mean since the start would say 11 s)
  const left = r.remainingMs()!;
  assert.ok(Math.abs(left - 5500) < 300, String(left));
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
