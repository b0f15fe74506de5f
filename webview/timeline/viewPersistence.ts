/**
 * The view, saved and reported: into the webview's state (the editor reopens where it was) and to
 * the host as `viewState` (tests, bookmarks, links, a comparison's mirror, the rows remembered per
 * trace), with what ViewReports adds (moved on its own, last sync applied). Pans and zooms are
 * reported once they settle; a change of rows (map, height, shown rows) is one action, reported at
 * once: an editor closed within the delay reopened with the rows before it (a 4096-row trace
 * fitting every row again, read without its row index).
 */
import type { WebviewToHost } from '../../src/protocol/webview';
import type { PersistedView, TimelineView } from './viewState';
import { ViewReports } from './viewReports';

const PERSIST_DELAY_MS = 250;

export class ViewPersistence {
  readonly reports = new ViewReports();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** rowsKey() of the view last persisted. */
  private persistedRowsKey: string | undefined;

  constructor(
    private readonly view: TimelineView,
    private readonly persist: (s: PersistedView) => void,
    private readonly post: (m: WebviewToHost) => void,
  ) {}

  /** The view changed: save and report it when it settles (at once for a change of rows). */
  schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const rowsChanged = this.view.rowsKey() !== this.persistedRowsKey;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const init = this.view.init;
        if (!init) return;
        const state = this.view.state();
        this.persistedRowsKey = this.view.rowsKey();
        this.persist({ ...state, fileName: init.fileName });
        this.post({ kind: 'viewState', state, ...this.reports.report(state) });
      },
      rowsChanged ? 0 : PERSIST_DELAY_MS,
    );
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}
