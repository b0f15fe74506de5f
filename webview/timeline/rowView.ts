/**
 * The timeline's vertical state: which rows are shown in which order, how tall they are
 * (auto / fit all / a chosen height), the scroll offset and the plot height. Pure (no DOM): the
 * controller owns one, asks it for the RowViewport of each frame and persists `state()`.
 */
import type { RowSizingState } from '../../src/protocol/webview';
import { clampScroll, rowHeightFor, scrollForZoom, zoomRows, type RowSizing, type RowViewport } from './rowLayout';
import { allRows, hideRows, moveRow, normaliseOrder, rowsMatching, slotsOf, type RankSpec } from './rowOrder';

export function sizingOf(s: RowSizingState | undefined): RowSizing {
  if (typeof s === 'number' && Number.isFinite(s) && s > 0) return { mode: 'fixed', px: s };
  return s === 'fit' ? { mode: 'fit' } : { mode: 'auto' };
}

export function sizingState(s: RowSizing): RowSizingState {
  return s.mode === 'fixed' ? s.px : s.mode;
}

export class RowView {
  private sizing: RowSizing = { mode: 'auto' };
  /** Shown rows top to bottom; undefined = every row in file order. */
  private order: number[] | undefined;
  private slotOf: Int32Array | undefined;
  private count = 0;
  private scroll = 0;
  private height = 1;

  /** A new Y map (or trace) with `count` rows; keeps order and sizing when given. */
  reset(count: number, order?: readonly number[], sizing?: RowSizingState): void {
    this.count = count;
    this.setOrderInternal(order);
    if (sizing !== undefined) this.sizing = sizingOf(sizing);
    this.scroll = clampScroll(this.viewport(), this.scroll);
  }

  get rowCount(): number {
    return this.count;
  }

  /** Number of shown rows. */
  get slots(): number {
    return this.order ? this.order.length : this.count;
  }

  get rowHeight(): number {
    return rowHeightFor(this.sizing, this.slots, this.height);
  }

  get sizingMode(): RowSizing {
    return this.sizing;
  }

  get scrollPx(): number {
    return this.scroll;
  }

  get heightPx(): number {
    return this.height;
  }

  /** The shown rows in order (a copy). */
  shownRows(): number[] {
    return this.order ? [...this.order] : allRows(this.count);
  }

  /** True when some rows are hidden or moved. */
  get customised(): boolean {
    return this.order !== undefined;
  }

  viewport(): RowViewport {
    const base = { rowCount: this.slots, rowHeight: this.rowHeight, scrollPx: this.scroll, heightPx: this.height };
    return this.order && this.slotOf ? { ...base, order: this.order, slotOf: this.slotOf } : base;
  }

  /** Total height of all rows (the scroll spacer). */
  contentPx(): number {
    return this.slots * this.rowHeight;
  }

  setHeight(px: number): void {
    this.height = Math.max(1, px);
    this.scroll = clampScroll(this.viewport(), this.scroll);
  }

  /** Scrolls to `px` (clamped); returns whether it moved. */
  scrollTo(px: number): boolean {
    const next = clampScroll(this.viewport(), px);
    if (next === this.scroll) return false;
    this.scroll = next;
    return true;
  }

  /** Fractional slot at the top (persisted as `scrollRow`). */
  get scrollRow(): number {
    return this.scroll / this.rowHeight;
  }

  set scrollRow(slot: number) {
    this.scroll = clampScroll(this.viewport(), (Number.isFinite(slot) ? slot : 0) * this.rowHeight);
  }

  setSizing(s: RowSizing): void {
    const top = this.scrollRow;
    this.sizing = s;
    this.scrollRow = top;
  }

  /** Vertical zoom by `factor`, keeping the row under `anchorY` (viewport px) in place. */
  zoom(factor: number, anchorY: number): void {
    const old = this.rowHeight;
    this.sizing = zoomRows(old, factor, this.slots, this.height);
    this.scroll = clampScroll(this.viewport(), scrollForZoom(old, this.rowHeight, this.scroll, anchorY));
  }

  setOrder(order: readonly number[] | undefined): void {
    this.setOrderInternal(order);
    this.scroll = clampScroll(this.viewport(), this.scroll);
  }

  hide(rows: readonly number[]): void {
    const next = hideRows(this.shownRows(), rows);
    // never hide the last row: an empty timeline has nothing to click to bring rows back
    if (next.length > 0) this.setOrder(next);
  }

  move(row: number, toSlot: number): void {
    this.setOrder(moveRow(this.shownRows(), row, toSlot));
  }

  /** Shows only the rows whose rank (label) is in `spec`, in file order; false when none match. */
  filter(spec: RankSpec, labels: readonly string[]): boolean {
    const rows = rowsMatching(spec, labels).filter((r) => r < this.count);
    if (rows.length === 0) return false;
    this.setOrder(rows);
    return true;
  }

  showAll(): void {
    this.setOrder(undefined);
  }

  private setOrderInternal(order: readonly number[] | undefined): void {
    const o = normaliseOrder(order, this.count);
    this.order = o && o.length > 0 ? o : undefined;
    this.slotOf = this.order ? slotsOf(this.order, this.count) : undefined;
  }
}
