/**
 * The timeline's view state and navigation: the document's init message, the time window, the
 * Y map, the vertical scroll, the plot's size and the zoom history. Every change goes through
 * `changed` (the shell reloads windows, marks layers and persists); the DOM scroll box is kept
 * in step through `syncScroll`. No drawing and no input handling here.
 */
import type { InitMessage, ViewState } from '../../src/protocol/webview';
import type { VisibleWindow } from '../../src/core/query/windowKey';
import type { LayerName } from './scheduler';
import { TimeScale, clampWindow, zoomAt, type TimeWindow } from './timeScale';
import { slotOfRow, visibleRowSpan, type RowSizing, type RowViewport } from './rowLayout';
import { ZoomHistory } from './zoomHistory';
import { RowView, sizingOf, sizingState } from './rowView';
import { RankListError, formatRankList, parseRankList } from './rowOrder';
/** Browsers cap element heights; the scroll spacer stays below it. */
const MAX_SPACER_PX = 30_000_000;

export interface PersistedView extends ViewState {
  readonly fileName: string;
}

export interface ViewHooks {
  /** The view changed: reload what it needs and redraw `layers` (all when omitted). */
  readonly changed: (layers?: LayerName[]) => void;
  /** The row content height or the scroll offset changed: update the DOM scroll box. */
  readonly syncScroll: (scrollPx: number, contentPx: number) => void;
}

const ROWS_ONLY: LayerName[] = ['grid', 'data', 'labels', 'overlay'];

/** What the row controls (toolbar) act on. */
export type RowActions = Pick<TimelineView, 'fitRows' | 'zoomRows' | 'filterRows' | 'showAllRows'>;

export class TimelineView {
  init: InitMessage | undefined;
  window: TimeWindow = { t0: 0, t1: 1 };
  mapIndex = 0;
  /** Shown rows, their order and height, and the vertical scroll. */
  readonly rows = new RowView();
  /** Plot size (CSS px), label column width and overview strip width. */
  width = 0;
  labelWidth = 0;
  overviewWidth = 0;
  readonly history = new ZoomHistory();

  constructor(
    private readonly hooks: ViewHooks,
    private readonly restored: PersistedView | undefined,
  ) {}

  get scrollPx(): number {
    return this.rows.scrollPx;
  }

  get height(): number {
    return this.rows.heightPx;
  }

  set height(px: number) {
    this.rows.setHeight(px);
  }

  /**
   * A new (or reloaded) document: restore the saved view, start whole, or keep the view (reload).
   * Rows: those of the saved view, else those last chosen for this trace (`rowChoice`).
   */
  setInit(m: InitMessage): void {
    const sameFile = this.init?.fileName === m.fileName;
    const first = this.init === undefined;
    // A preview seen whole gives way to its successor seen whole: the next snapshot of the
    // conversion (all it has drawn), or the whole finished trace, as if that had been opened.
    const previewSeenWhole = this.init?.preview !== undefined && covers(this.window, this.dataRange());
    const runSeenWhole = previewSeenWhole && covers(this.window, this.fullRange());
    this.init = m;
    const full = this.fullRange();
    const saved = first ? (this.restored?.fileName === m.fileName ? this.restored : m.initialView) : undefined;
    const choice = m.rowChoice;
    if (saved) {
      this.mapIndex = saved.mapIndex >= 0 && saved.mapIndex < m.yMaps.length ? saved.mapIndex : m.defaultMap;
      this.window = clampWindow({ t0: saved.t0, t1: saved.t1 }, full);
      const remembered = choice?.mapIndex === this.mapIndex ? choice : undefined;
      this.rows.reset(this.rowCount(), saved.rows ?? remembered?.rows, saved.rowSizing ?? remembered?.rowSizing ?? 'auto');
      this.rows.scrollRow = saved.scrollRow;
    } else if (!sameFile) {
      this.mapIndex = choice && choice.mapIndex >= 0 && choice.mapIndex < m.yMaps.length ? choice.mapIndex : m.defaultMap;
      // a preview opens on what it has drawn, not on the whole run (its first moments would be a sliver)
      this.window = clampWindow(this.dataRange(), full);
      this.rows.reset(this.rowCount(), choice?.rows, choice?.rowSizing ?? 'auto');
      this.rows.scrollRow = 0;
    } else {
      // reloaded after a change on disk (or the conversion behind a preview is done): keep the view, clamped to the new trace
      if (this.mapIndex >= m.yMaps.length) this.mapIndex = m.defaultMap;
      const successor = m.preview !== undefined && !runSeenWhole ? this.dataRange() : full;
      this.window = clampWindow(previewSeenWhole ? successor : this.window, full);
      this.rows.reset(this.rowCount(), this.rows.customised ? this.rows.shownRows() : undefined);
    }
    this.rowsChanged();
  }

  // ---- navigation ------------------------------------------------------------------------------

  setWindow(w: TimeWindow, record = true): void {
    if (!this.init) return;
    const next = clampWindow(w, this.fullRange());
    if (next.t0 === this.window.t0 && next.t1 === this.window.t1) return;
    if (record) this.history.push(this.window);
    this.window = next;
    this.hooks.changed();
  }

  /**
   * A view from the host: Y map (when valid) and window. A link's view is recorded in the history;
   * a synchronised one (the other editor of a comparison moved) is not, and brings the row scroll too.
   */
  showView(v: ViewState, sync = false): void {
    if (!this.init) return;
    if (v.mapIndex >= 0 && v.mapIndex < this.init.yMaps.length) this.setMap(v.mapIndex);
    if (v.rows !== undefined || v.rowSizing !== undefined) {
      if (v.rows !== undefined) this.rows.setOrder(v.rows);
      if (v.rowSizing !== undefined) this.rows.setSizing(sizingOf(v.rowSizing));
      this.rowsChanged();
      this.hooks.changed();
    }
    this.setWindow({ t0: v.t0, t1: v.t1 }, !sync);
    if (sync && Number.isFinite(v.scrollRow)) this.scrollTo(v.scrollRow * this.rows.rowHeight);
  }

  /** Another Y map: its rows all shown, in file order (the row height is kept). */
  setMap(i: number): void {
    if (!this.init || i === this.mapIndex || i < 0 || i >= this.init.yMaps.length) return;
    this.mapIndex = i;
    this.rows.reset(this.rowCount());
    this.rowsChanged();
    this.hooks.changed();
  }

  // ---- rows ------------------------------------------------------------------------------------

  /** Vertical zoom by `factor` around plot y `anchorY` (the middle when undefined). */
  zoomRows(factor: number, anchorY?: number): void {
    this.rows.zoom(factor, anchorY ?? this.height / 2);
    this.rowsChanged();
    this.hooks.changed();
  }

  setRowSizing(s: RowSizing): void {
    this.rows.setSizing(s);
    this.rowsChanged();
    this.hooks.changed();
  }

  /** The toolbar's Fit: every row in the plot, or back to auto sizing. */
  fitRows(): void {
    this.setRowSizing(this.rows.sizingMode.mode === 'fit' ? { mode: 'auto' } : { mode: 'fit' });
  }

  /** Shows only the ranks of a list like "0-15,64,128-"; returns an error message or undefined. */
  filterRows(text: string): string | undefined {
    let spec;
    try {
      spec = parseRankList(text);
    } catch (e) {
      return e instanceof RankListError ? e.message : String(e);
    }
    if (!this.rows.filter(spec, this.labels())) return `no row matches "${text.slice(0, 40)}"`;
    this.rowsChanged();
    this.hooks.changed();
    return undefined;
  }

  hideRows(rows: readonly number[]): void {
    this.rows.hide(rows);
    this.rowsChanged();
    this.hooks.changed();
  }

  /** Moves `row` to display position `slot`. */
  moveRow(row: number, slot: number): void {
    this.rows.move(row, slot);
    this.rowsChanged();
    this.hooks.changed();
  }

  showAllRows(): void {
    this.rows.showAll();
    this.rowsChanged();
    this.hooks.changed();
  }

  /** The shown rows as a rank list ("" when every row is shown in file order). */
  rowFilterText(): string {
    return this.rows.customised ? formatRankList(this.rows.shownRows(), this.labels()) : '';
  }

  labels(): readonly string[] {
    return this.init?.yMaps[this.mapIndex]?.rows ?? [];
  }

  showAll(): void {
    this.setWindow(this.fullRange());
  }

  /** Zooms by `factor` around the time at plot x `anchorPx` (the centre when undefined). */
  zoomAround(factor: number, anchorPx: number | undefined): void {
    const anchor = anchorPx !== undefined ? this.scale().pxToTime(anchorPx) : (this.window.t0 + this.window.t1) / 2;
    this.setWindow(zoomAt(this.window, factor, anchor, this.fullRange()));
  }

  undo(): void {
    const w = this.history.undo(this.window);
    if (w) {
      this.window = clampWindow(w, this.fullRange());
      this.hooks.changed();
    }
  }

  redo(): void {
    const w = this.history.redo(this.window);
    if (w) {
      this.window = clampWindow(w, this.fullRange());
      this.hooks.changed();
    }
  }

  scrollRows(deltaPx: number): void {
    this.scrollTo(this.scrollPx + deltaPx);
  }

  /** Scrolls to `px` (clamped); `fromScrollBox` when the DOM scroll box itself moved. */
  scrollTo(px: number, fromScrollBox = false): void {
    if (!this.rows.scrollTo(px)) return;
    if (!fromScrollBox) this.hooks.syncScroll(this.scrollPx, this.contentPx());
    this.hooks.changed(ROWS_ONLY);
  }

  /** Scrolls the row into view (centred when it is off-screen); a hidden row stays hidden. */
  revealRow(row: number): void {
    const slot = slotOfRow(this.rowViewport(), row);
    if (slot < 0) return;
    const h = this.rows.rowHeight;
    const top = slot * h;
    if (top >= this.scrollPx && top + h <= this.scrollPx + this.height) return;
    this.scrollRows(top - this.height / 2 - this.scrollPx);
  }

  /** Top of `row` in the plot (CSS px; NaN when hidden) and the row height. */
  rowGeometry(row: number): { readonly top: number; readonly height: number } {
    const slot = slotOfRow(this.rowViewport(), row);
    const h = this.rows.rowHeight;
    return { top: slot < 0 ? Number.NaN : slot * h - this.scrollPx, height: h };
  }

  /** Centres the window on `t` (same span) unless [t, tEnd] is already in view. */
  bringIntoView(t: number, tEnd = t): void {
    if (tEnd >= this.window.t0 && t <= this.window.t1) return;
    const half = (this.window.t1 - this.window.t0) / 2;
    const mid = (t + tEnd) / 2;
    this.setWindow({ t0: mid - half, t1: mid + half });
  }

  // ---- geometry --------------------------------------------------------------------------------

  /** The whole trace; for a preview that knows when its run ends, the whole run. */
  fullRange(): TimeWindow {
    const data = this.dataRange();
    const runEnd = this.init?.preview?.runEnd;
    return runEnd !== undefined && runEnd > data.t1 ? { t0: data.t0, t1: runEnd } : data;
  }

  /** Where the trace has drawables: for a preview, the part converted so far. */
  dataRange(): TimeWindow {
    const r = this.init?.timeRange ?? [0, 1];
    return { t0: r[0], t1: r[1] > r[0] ? r[1] : r[0] + 1e-6 };
  }

  rowCount(): number {
    return this.init?.yMaps[this.mapIndex]?.rows.length ?? 0;
  }

  /** The overview strip summarises every row, aggregated per pixel row (a wide run reads as a whole). */
  overviewRows(): number {
    return this.rowCount();
  }

  rowViewport(): RowViewport {
    return this.rows.viewport();
  }

  scale(): TimeScale {
    return new TimeScale(this.window.t0, this.window.t1, Math.max(1, this.width));
  }

  /** The whole trace across the overview strip. */
  overviewScale(): TimeScale {
    const full = this.fullRange();
    return new TimeScale(full.t0, full.t1, this.overviewWidth);
  }

  visible(): VisibleWindow {
    const { start, end } = visibleRowSpan(this.rowViewport());
    const w = this.window;
    return { t0: w.t0, t1: w.t1, rowStart: start, rowEnd: end, rowCount: this.rowCount(), mapIndex: this.mapIndex, pixelWidth: this.width };
  }

  /** What the overview strip shows: the whole trace, all rows. */
  overviewVisible(): VisibleWindow {
    const full = this.fullRange();
    const rc = this.overviewRows();
    return { t0: full.t0, t1: full.t1, rowStart: 0, rowEnd: rc, rowCount: rc, mapIndex: this.mapIndex, pixelWidth: this.overviewWidth };
  }

  /** What the reopened view keeps of the rows (map, height, whether customised), as one comparable string. */
  rowsKey(): string {
    return `${this.mapIndex}|${String(sizingState(this.rows.sizingMode))}|${this.rows.customised}`;
  }

  state(): ViewState {
    const sizing = sizingState(this.rows.sizingMode);
    return {
      t0: this.window.t0,
      t1: this.window.t1,
      mapIndex: this.mapIndex,
      scrollRow: this.rows.scrollRow,
      ...(this.rows.customised ? { rows: this.rows.shownRows() } : {}),
      ...(sizing !== 'auto' ? { rowSizing: sizing } : {}),
    };
  }

  private contentPx(): number {
    return Math.min(this.rows.contentPx(), MAX_SPACER_PX);
  }

  /** The rows changed (document, Y map, shown rows, height): clamp the scroll and resize the scroll box. */
  rowsChanged(): void {
    this.rows.scrollTo(this.rows.scrollPx);
    this.hooks.syncScroll(this.scrollPx, this.contentPx());
  }
}

function covers(w: TimeWindow, range: TimeWindow): boolean {
  return w.t0 <= range.t0 && w.t1 >= range.t1;
}
