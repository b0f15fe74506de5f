// Two linked editors whose webviews report their views asynchronously, as real ones do: quick moves
// in one must leave both at the same place (issue: "A to follow the zoom in B" timed out when A's
// report of the first of two zooms arrived after the second was sent and moved B back).
import '../../helpers/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from '../../helpers/fakeVscode';
import type { ViewState } from '../../../src/protocol/webview';
import type { TimelineEditor } from '../../../src/host/traceEditorProvider';
import { CompareSession } from '../../../src/host/compare/compareSession';

/** A timeline editor whose webview applies a synced view and reports it when `deliver` runs. */
class FakeEditor {
  viewState: ViewState | undefined;
  readonly reports: ViewState[] = [];
  private readonly viewChanged = new EventEmitter<ViewState>();
  readonly onDidChangeView = this.viewChanged.event;
  readonly onDidMoveCursor = new EventEmitter<number | undefined>().event;
  readonly panel = { onDidDispose: new EventEmitter<void>().event };
  readonly document = { uri: { path: '/t/run.slog2' } };
  constructor(v: ViewState) {
    this.viewState = v;
  }
  showPeerCursor(): void {}
  /** The host's sync: the webview will report the view back later. */
  syncView(v: ViewState): void {
    this.reports.push(v);
  }
  /** The user moves this editor's view (reported later too). */
  userMove(v: ViewState): void {
    this.reports.push(v);
  }
  /** Delivers the webview's pending reports, in order. */
  deliver(): number {
    const n = this.reports.length;
    for (const v of this.reports.splice(0)) {
      this.viewState = v;
      this.viewChanged.fire(v);
    }
    return n;
  }
}

const view = (t0: number, t1: number, scrollRow = 0): ViewState => ({ t0, t1, mapIndex: 0, scrollRow });
const asEditor = (e: FakeEditor) => e as unknown as TimelineEditor;

/** Delivers reports alternately (B first) until neither webview has anything to say. */
function settle(a: FakeEditor, b: FakeEditor): void {
  for (let round = 0; round < 50; round++) if (b.deliver() + a.deliver() === 0) return;
  assert.fail('the two editors keep mirroring each other');
}

function assertLinked(a: FakeEditor, b: FakeEditor, shift: number): void {
  const va = a.viewState!;
  const vb = b.viewState!;
  assert.ok(Math.abs(va.t0 + shift - vb.t0) < 1e-12 && Math.abs(va.t1 + shift - vb.t1) < 1e-12, `A ${JSON.stringify(va)} B ${JSON.stringify(vb)}`);
}

test('two quick zooms in B: A ends at the second, B is not moved back', () => {
  const a = new FakeEditor(view(0, 10));
  const b = new FakeEditor(view(0, 10));
  const s = new CompareSession(asEditor(a), asEditor(b));
  b.userMove(view(2.5, 7.5));
  b.userMove(view(3.75, 6.25));
  // B's two reports arrive together; A's echo of the first comes after the second was sent.
  b.deliver();
  a.deliver();
  settle(a, b);
  assert.deepEqual(b.viewState, view(3.75, 6.25));
  assertLinked(a, b, 0);
  s.dispose();
});

test('with a shift, quick moves in either editor (also at once), reports delivered at random: both end linked', () => {
  for (let run = 1; run <= 30; run++) {
    const a = new FakeEditor(view(0, 10));
    const b = new FakeEditor(view(0.5, 10.5));
    const s = new CompareSession(asEditor(a), asEditor(b));
    s.setShift(0.5);
    settle(a, b);
    let seed = run;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 200; i++) {
      const t0 = next() * 5;
      const mover = next() < 0.5 ? a : b;
      mover.userMove(view(t0, t0 + 1 + next() * 4, Math.floor(next() * 10)));
      // Some reports wait for later moves, in either editor.
      if (next() < 0.4) a.deliver();
      if (next() < 0.4) b.deliver();
    }
    settle(a, b);
    assertLinked(a, b, 0.5);
    assert.equal(a.viewState!.scrollRow, b.viewState!.scrollRow, `run ${run}`);
    s.dispose();
  }
});

test('an editor that never reports back does not grow the session without bound', () => {
  const a = new FakeEditor(view(0, 10));
  const b = new FakeEditor(view(0, 10));
  const s = new CompareSession(asEditor(a), asEditor(b));
  for (let i = 1; i <= 1000; i++) {
    b.userMove(view(i, i + 1));
    b.deliver();
    a.reports.length = 0; // A's webview drops everything
  }
  const pending = (s as unknown as { sent: Map<unknown, ViewState[]> }).sent.get(a)!;
  assert.ok(pending.length <= 16, `${pending.length} views pending`);
  s.dispose();
});

test('an editor re-reporting its unchanged view (a resize) after the other zoomed does not undo the zoom', () => {
  // CI: "timed out waiting for A to follow the zoom in B". A's webview was resized (B opened beside
  // it) and reported its old view again, after B's zoom had been sent to A but before A applied it.
  const a = new FakeEditor(view(0, 10));
  const b = new FakeEditor(view(0, 10));
  const s = new CompareSession(asEditor(a), asEditor(b));
  b.userMove(view(2.5, 7.5));
  b.deliver();
  a.reports.unshift(view(0, 10)); // the resize report, posted before the synced zoom arrived
  settle(a, b);
  assert.deepEqual(b.viewState, view(2.5, 7.5));
  assertLinked(a, b, 0);
  s.dispose();
});
