/**
 * What a view report tells the host besides the view: whether this timeline moved on its own (the
 * user, a link, a search) since its last report, or only followed the host (a comparison's sync) or
 * its panel's size. A comparison mirrors only moves; inferring that on the host from the views'
 * values raced with resizes and crossing reports. Also the last sync applied, so the host can tell
 * a move made before its latest sync arrived (that sync overrides it).
 */
import { sameView, type ViewState } from '../../src/protocol/webview';

export interface ViewReportFacts {
  readonly moved: boolean;
  readonly syncSeq: number;
}

export class ViewReports {
  /** The view the host already has from this webview: where it started, the last one reported or applied from a sync. */
  private base: ViewState | undefined;
  private syncSeq = 0;

  /** A sync was applied: its view is the host's, not a move. */
  synced(seq: number, after: ViewState): void {
    this.syncSeq = Math.max(this.syncSeq, seq);
    this.base = after;
  }

  /** The panel was resized: a view changed only by that is not a move; one moved before still is. */
  resized(before: ViewState, after: ViewState): void {
    if (this.base !== undefined && sameView(before, this.base)) this.base = after;
  }

  /**
   * A new document (first open or reload) shows `start`: where it starts is not a move, a move made
   * before the first report is (a user zooming within the report's delay of the first paint).
   */
  reset(start: ViewState): void {
    this.base = start;
  }

  /** The facts for a report of `state`, which becomes the base. */
  report(state: ViewState): ViewReportFacts {
    const moved = this.base !== undefined && !sameView(state, this.base);
    this.base = state;
    return { moved, syncSeq: this.syncSeq };
  }
}
