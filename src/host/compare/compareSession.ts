/**
 * Two timeline editors moving as one (TraceVis §2.9/§4.2): a pan, zoom or row scroll in either is
 * mirrored in the other, with B's time put on A's by a shift (B time = A time + shift). Each webview
 * says whether a report is its own move or only followed a sync or a resize (ViewStateMessage);
 * only moves are mirrored, so echoes never bounce back. The pointer's time in either is drawn as a
 * cursor line in the other (a shared cursor).
 */
import * as vscode from 'vscode';
import { sameView, type ViewState } from '../../protocol/webview';
import type { TimelineEditor } from '../traceEditorProvider';
import type { ViewReport } from '../timelineEditor';
import { nameOf } from './editorFacts';

export class CompareSession implements vscode.Disposable {
  /** B time − A time. */
  private shiftSeconds = 0;
  /** Per editor, the number of the last sync sent to it. */
  private readonly lastSync = new Map<TimelineEditor, number>();
  /** B was put on A's view (under the shift), or one's move was sent to the other: they are linked. */
  private linked = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly ended = new vscode.EventEmitter<void>();
  /** Either editor closed. */
  readonly onDidEnd = this.ended.event;
  private disposed = false;

  constructor(
    readonly a: TimelineEditor,
    readonly b: TimelineEditor,
  ) {
    this.subscriptions.push(
      a.onDidChangeView((r) => this.mirror(a, b, r, 1)),
      b.onDidChangeView((r) => this.mirror(b, a, r, -1)),
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

  /** A new alignment: B is moved to A's current view under the new shift (once A reported one). */
  setShift(shift: number): void {
    this.shiftSeconds = Number.isFinite(shift) ? shift : 0;
    this.linked = false;
    const v = this.a.viewState;
    if (v !== undefined) this.send(this.b, this.shifted(v, 1));
  }

  private mirror(from: TimelineEditor, to: TimelineEditor, r: ViewReport, direction: 1 | -1): void {
    if (this.disposed) return;
    // A's first view, when it had reported none as the comparison started: B is put on it. Not a
    // stale one (a move of B was sent to A meanwhile: that linked them).
    if (!this.linked && from === this.a && r.syncSeq >= (this.lastSync.get(from) ?? 0)) return this.send(to, this.shifted(r.state, 1));
    if (!r.moved) return;
    // Moved before our latest sync reached it: that sync overrides the move, and both end at the
    // other editor's view (moves in both at once would otherwise swap places).
    if (r.syncSeq < (this.lastSync.get(from) ?? 0)) return;
    const view = this.shifted(r.state, direction);
    const current = to.viewState;
    if (current !== undefined && sameView(current, view)) return;
    this.send(to, view);
  }

  private shifted(v: ViewState, direction: 1 | -1): ViewState {
    const d = direction * this.shiftSeconds;
    return { t0: v.t0 + d, t1: v.t1 + d, mapIndex: v.mapIndex, scrollRow: v.scrollRow };
  }

  private send(to: TimelineEditor, view: ViewState): void {
    this.linked = true;
    this.lastSync.set(to, to.syncView(view));
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
