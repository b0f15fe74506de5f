import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compressInts, decodeViewQuery, encodeViewLink, encodeViewQuery, type ViewLink } from '../../../src/core/viewLink';

/** What VS Code's URI handler gives: the query percent-decoded once. */
function asHandlerSees(link: string): string {
  return decodeURIComponent(link.slice(link.indexOf('?') + 1));
}

const view: ViewLink = {
  trace: 'traces/user_states_4.slog2',
  absolute: false,
  folder: 'app',
  t0: 0.024079676000042127,
  t1: 0.1051865830000338,
  rows: [0, 1, 2, 3, 7],
  yMap: 1,
  hidden: [-3, 6, 301, 302],
};

test('encodes a readable link with stable parameter order', () => {
  const link = encodeViewLink(view);
  assert.equal(
    link,
    'vscode://mpe-trace.mpe-trace-viewer/open?v=1&trace=traces%2Fuser_states_4.slog2&folder=app' +
      '&t0=0.024079676000042127&t1=0.1051865830000338&rows=0-3%2C7&map=1&hide=-3%2C6%2C301-302',
  );
  assert.ok(encodeViewLink(view, 'vscode-insiders').startsWith('vscode-insiders://mpe-trace.mpe-trace-viewer/open?'));
});

test('round-trips exactly, whether the query is still encoded or decoded once by VS Code', () => {
  const link = encodeViewLink(view);
  for (const q of [link.slice(link.indexOf('?') + 1), asHandlerSees(link)]) {
    const r = decodeViewQuery(q);
    assert.ok(r.ok, r.ok ? '' : r.error);
    assert.deepEqual(r.view, view);
  }
});

test('paths with &, =, %, + and non-ASCII survive the extra decoding (base64url)', () => {
  const odd: ViewLink = { trace: '/home/é/run&1=100%+x/a b.slog2', absolute: true, t0: -1e-7, t1: 1e21 };
  const q = encodeViewQuery(odd);
  assert.match(q, /path64=/);
  const r = decodeViewQuery(asHandlerSees('x?' + q));
  assert.ok(r.ok, r.ok ? '' : r.error);
  assert.deepEqual(r.view, odd);
  const winPath: ViewLink = { trace: 'C:\\traces\\run.clog2', absolute: true, t0: 0, t1: 1 };
  const w = decodeViewQuery(encodeViewQuery(winPath));
  assert.ok(w.ok);
  assert.deepEqual(w.view, winPath);
});

test('compressInts writes sorted unique ranges', () => {
  assert.equal(compressInts([9, 0, 1, 2, 3, 7, 10, 3]), '0-3,7,9-10');
  assert.equal(compressInts([]), '');
  assert.equal(compressInts([-3, -2, -1, 5]), '-3--1,5');
});

test('rejects bad or hostile input with a reason, never throws', () => {
  const bad: [string, RegExp][] = [
    ['t0=0&t1=1', /exactly one of "trace" or "path"/],
    ['trace=a&path=/b&t0=0&t1=1', /exactly one/],
    ['trace=../../etc/passwd&t0=0&t1=1', /may not leave the workspace/],
    ['trace=/etc/passwd&t0=0&t1=1', /must be relative/],
    ['path=relative/x&t0=0&t1=1', /must be absolute/],
    ['trace=a&t0=1&t1=1', /empty time window/],
    ['trace=a&t0=NaN&t1=1', /t0 is not a number/],
    ['trace=a&t0=0&t1=Infinity', /t1 is not a number/],
    ['trace=a&t0=1e999&t1=1e1000', /not finite/],
    ['trace=a&t0=0', /missing t1/],
    ['trace=a&t0=0&t1=1&t0=2', /given twice/],
    ['trace=a&t0=0&t1=1&rows=0-1000000', /too many rows/],
    ['trace=a&t0=0&t1=1&rows=5-2', /bad rows range/],
    ['trace=a&t0=0&t1=1&rows=x', /bad rows item/],
    ['trace=a&t0=0&t1=1&map=-1', /bad Y-map index/],
    ['trace=a&t0=0&t1=1&map=99999', /bad Y-map index/],
    ['trace=%E0%A4%A&t0=0&t1=1', /bad percent-encoding/],
    ['trace64=!!&t0=0&t1=1', /bad base64url/],
    ['trace64=_w&t0=0&t1=1', /not UTF-8/],
    ['t064=AA&trace=a&t0=0&t1=1', /unknown parameter/],
    ['v=2&trace=a&t0=0&t1=1', /unsupported link version/],
    ['trace=a%0Ab&t0=0&t1=1', /control characters/],
    ['trace=' + 'a'.repeat(5000) + '&t0=0&t1=1', /too long/],
  ];
  for (const [q, why] of bad) {
    const r = decodeViewQuery(q);
    assert.equal(r.ok, false, q);
    if (!r.ok) assert.match(r.error, why, q);
  }
});

test('optional parts may be absent; unknown plain parameters are ignored (forward compatible)', () => {
  const r = decodeViewQuery('?trace=a.slog2&t0=0&t1=2.5&future=1');
  assert.ok(r.ok);
  assert.deepEqual(r.view, { trace: 'a.slog2', absolute: false, t0: 0, t1: 2.5 });
  const e = decodeViewQuery('trace=a&t0=0&t1=1&rows=&hide=');
  assert.ok(e.ok);
  assert.deepEqual(e.view.rows, []);
});
