/**
 * Two timeline editors moving as one (TraceVis §2.9/§4.2): a pan, zoom or row scroll in either is
 * mirrored in the other, with B's time put on A's by a shift (B time = A time + shift). The mirrored
 * editor reports each new view back; those echoes are recognised and not mirrored again. The pointer's
 * time in either is drawn as a cursor line in the other (a shared cursor).
 */
import * as vscode from 'vscode';
import type { ViewState } from '../../protocol/webview';
import type { TimelineEditor } from '../traceEditorProvider';
import { nameOf } from './editorFacts';

/** Views equal up to rounding of the window's ends (relative to its span). */
function sameView(x: ViewState, y: ViewState): boolean {
  const span = Math.max(Math.abs(x.t1 - x.t0), Math.abs(y.t1 - y.t0), 1e-300);
  const tol = span * 1e-9;
  return Math.abs(x.t0 - y.t0) <= tol && Math.abs(x.t1 - y.t1) <= tol && x.mapIndex === y.mapIndex && Math.abs(x.scrollRow - y.scrollRow) < 0.01;
}

/** Views sent to one editor and not yet reported back, at most (older ones are forgotten). */
const MAX_PENDING = 16;

export class CompareSession implements vscode.Disposable {
  /** B time − A time. */
  private shiftSeconds = 0;
  /**
   * Per editor, the views it was sent and has not reported back yet, oldest first. Not only the
   * last: two quick zooms in B send A two views, and A's report of the first arrives after the
   * second was sent; mirroring that report would move B back to its first zoom.
   */
  private readonly sent = new Map<TimelineEditor, ViewState[]>();
  /**
   * Per editor, the view it last reported. A webview reports its view again when only its size
   * changed (B opened beside A); such a report is not a move, and mirroring it could undo a move the
   * other editor made meanwhile.
   */
  private readonly reported = new Map<TimelineEditor, ViewState>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly ended = new vscode.EventEmitter<void>();
  /** Either editor closed. */
  readonly onDidEnd = this.ended.event;
  private disposed = false;

  constructor(
    readonly a: TimelineEditor,
    readonly b: TimelineEditor,
  ) {
    for (const e of [a, b]) if (e.viewState !== undefined) this.reported.set(e, e.viewState);
    this.subscriptions.push(
      a.onDidChangeView((v) => this.mirror(a, b, v, 1)),
      b.onDidChangeView((v) => this.mirror(b, a, v, -1)),
      a.onDidMoveCursor((t) => b.showPeerCursor(true, t === undefined ? undefined : t + this.shiftSeconds, `A ${nameOf(a)}`)),
      b.onDidMoveCursor((t) => a.showPeerCursor(true, t === undefined ? undefined : t - this.shiftSeconds, `B ${nameOf(b)}`)),
      a.panel.onDidDispose(() => this.dispose()),
      b.panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Both webviews report their pointer's time while linked. */
  start(): void {
    this.a.showPeerCursor(true);
    this.b.showPeerCursor(true);
  }

  get shift(): number {
    return this.shiftSeconds;
  }

  /** A new alignment: B is moved to A's current view under the new shift. */
  setShift(shift: number): void {
    this.shiftSeconds = Number.isFinite(shift) ? shift : 0;
    this.sent.clear();
    const v = this.a.viewState;
    if (v !== undefined) this.mirror(this.a, this.b, v, 1, true);
  }

  private mirror(from: TimelineEditor, to: TimelineEditor, v: ViewState, direction: 1 | -1, force = false): void {
    if (this.disposed) return;
    const d = direction * this.shiftSeconds;
    const view: ViewState = { t0: v.t0 + d, t1: v.t1 + d, mapIndex: v.mapIndex, scrollRow: v.scrollRow };
    const current = to.viewState;
    if (!force) {
      const previous = this.reported.get(from);
      this.reported.set(from, v);
      const pending = this.sent.get(from) ?? [];
      const echo = pending.findIndex((p) => sameView(p, v));
      if (echo >= 0) {
        // An echo also settles the views sent before it (a webview may report only the latest).
        pending.splice(0, echo + 1);
        // Moves in both editors at once cross on the way: each ends at the other's move. Once
        // neither waits for a report, a difference left is settled by mirroring this last one.
        const settled = pending.length === 0 && (this.sent.get(to)?.length ?? 0) === 0;
        if (!settled || current === undefined || sameView(current, view)) return;
      } else if (previous !== undefined && sameView(previous, v)) return;
    }
    if (!force && current !== undefined && sameView(current, view)) return;
    const toPending = this.sent.get(to) ?? [];
    toPending.push(view);
    // Bounded: a webview that never reports (closed mid-sync) must not grow this.
    if (toPending.length > MAX_PENDING) toPending.shift();
    this.sent.set(to, toPending);
    to.syncView(view);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    for (const e of [this.a, this.b]) e.showPeerCursor(false);
    this.ended.fire();
    this.ended.dispose();
  }
}
