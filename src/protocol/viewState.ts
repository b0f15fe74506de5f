/**
 * What one editor shows (time window, map, rows and their height) as the host and the timeline
 * webview exchange it: in view-state, show-view and bookmark messages, and remembered per trace.
 */
/** What one editor shows; persisted by the webview and echoed to the host for tests. */
export interface ViewState {
  readonly t0: number;
  readonly t1: number;
  readonly mapIndex: number;
  readonly scrollRow: number;
  /** Categories to hide (a bookmark or link made with some hidden); only in `showView`. */
  readonly hidden?: readonly number[];
  /** Shown rows of the map, top to bottom (rows hidden or moved); absent = every row in file order. */
  readonly rows?: readonly number[];
  /** Row height: see RowSizingState; absent = 'auto'. */
  readonly rowSizing?: RowSizingState;
}

/** Views equal up to rounding of the window's ends (relative to its span); rows are not compared. */
export function sameView(x: ViewState, y: ViewState): boolean {
  const span = Math.max(Math.abs(x.t1 - x.t0), Math.abs(y.t1 - y.t0), 1e-300);
  const tol = span * 1e-9;
  return Math.abs(x.t0 - y.t0) <= tol && Math.abs(x.t1 - y.t1) <= tol && x.mapIndex === y.mapIndex && Math.abs(x.scrollRow - y.scrollRow) < 0.01;
}

/**
 * How tall timeline rows are: 'auto' (all rows fit when each gets enough height, else a default
 * height with scrolling), 'fit' (every row fits, thinner than a pixel if need be), or a height in px.
 */
export type RowSizingState = 'auto' | 'fit' | number;

/** The rows a user chose for a trace (remembered per trace by the host, restored at reopen). */
export interface RowChoice {
  readonly mapIndex: number;
  readonly rows?: readonly number[];
  readonly rowSizing?: RowSizingState;
}
