// The shared cursor of a comparison: a linked timeline reports the time under its pointer at most
// once per frame and only when it changed, reports nothing when not linked, and draws the other
// run's cursor where its time falls on this timeline's axis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PeerCursor } from '../../../webview/timeline/peerCursor';
import { TimeScale } from '../../../webview/timeline/timeScale';
import type { WebviewToHost } from '../../../src/protocol/webview';

function setup() {
  const posted: WebviewToHost[] = [];
  const frames: (() => void)[] = [];
  const root = { dataset: {} as Record<string, string | undefined> };
  const peer = new PeerCursor(
    (m) => posted.push(m),
    root,
    (cb) => frames.push(cb),
  );
  const flush = () => frames.splice(0).forEach((f) => f());
  return { posted, root, peer, flush, frames };
}

test('not linked: nothing is reported', () => {
  const { posted, peer, flush, frames } = setup();
  peer.report(() => 1);
  assert.equal(frames.length, 0);
  flush();
  assert.deepEqual(posted, []);
});

test('linked: one report per frame with the latest time, none when unchanged, and the pointer leaving', () => {
  const { posted, peer, flush } = setup();
  peer.set({ kind: 'peerCursor', linked: true });
  let t: number | undefined = 1;
  peer.report(() => t);
  t = 2;
  peer.report(() => t);
  flush();
  assert.deepEqual(posted, [{ kind: 'cursor', time: 2 }]);
  peer.report(() => t);
  flush();
  assert.equal(posted.length, 1, 'same time: not sent again');
  t = undefined;
  peer.report(() => t);
  flush();
  assert.deepEqual(posted.at(-1), { kind: 'cursor' });
  peer.set({ kind: 'peerCursor', linked: false });
  t = 3;
  peer.report(() => t);
  flush();
  assert.equal(posted.length, 2, 'unlinked: silent');
});

test("draws the other run's cursor at its x, with its name; none outside the window", () => {
  const { root, peer } = setup();
  const calls: string[] = [];
  const ctx = new Proxy(
    { measureText: () => ({ width: 30 }) },
    {
      get: (target, k) =>
        k in target ? (target as Record<string | symbol, unknown>)[k] : (...args: unknown[]) => calls.push(`${String(k)}(${args.join(',')})`),
      set: () => true,
    },
  ) as unknown as Parameters<PeerCursor['draw']>[0];
  const p = { foreground: '#000', backgroundCss: '#fff', font: '12px sans' };
  const scale = new TimeScale(0, 10, 1000);
  peer.set({ kind: 'peerCursor', linked: true, time: 2.5, label: 'B run2.slog2' });
  peer.draw(ctx, 1000, 400, scale, p);
  assert.equal(root.dataset.peerCursorX, '250');
  assert.ok(calls.includes('moveTo(250.5,0)') && calls.includes('lineTo(250.5,400)'), calls.join(' '));
  assert.ok(calls.some((c) => c.startsWith('fillText(B run2.slog2')));
  peer.set({ kind: 'peerCursor', linked: true, time: 11 });
  peer.draw(ctx, 1000, 400, scale, p);
  assert.equal(root.dataset.peerCursorX, undefined);
});
