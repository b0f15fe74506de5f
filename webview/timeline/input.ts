/**
 * Timeline input: keyboard, pointer (pan, select-to-zoom, range, click), wheel and the overview
 * strip's drag, turned into intents on a small interface. Holds only gesture state (the drag in
 * progress, the hover position, the wheel gesture); what the intents do is the shell's business.
 */
import type { TimelineElements } from './elements';
import { panBy, zoomAt, type TimeScale, type TimeWindow } from './timeScale';
import { rowAt, slotAt, type RowViewport } from './rowLayout';
import { timelineKey } from './keys';
import type { SelectionMove } from './picking';

export { ZOOM_STEP } from './keys';
/** Rows can be dragged by their label while at least this tall. */
const ROW_DRAG_MIN_PX = 8;
const WHEEL_ZOOM_PER_PX = 0.002;
const DRAG_THRESHOLD_PX = 3;
/** A drag narrower than this is a click. */
const MIN_BAND_PX = 4;
const WHEEL_GESTURE_MS = 400;
/** Wheel delta units: lines (deltaMode 1) in px. */
const WHEEL_LINE_PX = 16;

/** What input reads of the view (never changes it directly). */
export interface InputView {
  readonly ready: boolean;
  readonly window: TimeWindow;
  readonly full: TimeWindow;
  readonly scrollPx: number;
  readonly width: number;
  readonly height: number;
  readonly overviewWidth: number;
  readonly scale: TimeScale;
  readonly rows: RowViewport;
  readonly overviewScale: TimeScale;
}

/** What input asks for. */
export interface TimelineIntents {
  view(): InputView;
  /** Show `w`; `record` adds the current window to the zoom history first. */
  setWindow(w: TimeWindow, record: boolean): void;
  /** A gesture (drag, wheel) that moved the window without recording ends or starts at `w`. */
  recordHistory(w: TimeWindow): void;
  zoom(factor: number): void;
  scrollRows(deltaPx: number): void;
  scrollTo(px: number): void;
  showAll(): void;
  undo(): void;
  redo(): void;
  pick(x: number, y: number, toSource: boolean, beside: boolean): void;
  /** A range; with `rows` (the rows between the drag's ends) a region of rows × time. */
  selectRange(range: readonly [number, number], rows?: readonly [number, number]): void;
  moveSelection(move: SelectionMove): boolean;
  /** F: frame the selection; false when nothing is selected. */
  frameSelection(): boolean;
  /** Esc: clear the selection, else the range; false when there was neither. */
  escape(): boolean;
  /** Pointer state changed: `labels` when the hovered row changed. */
  hoverChanged(labels: boolean): void;
  /** Vertical zoom by `factor` around plot y `anchorY` (the middle when undefined). */
  zoomRows(factor: number, anchorY: number | undefined): void;
  hideRow(row: number): void;
  showAllRows(): void;
  /** Moves `row` to display position `slot`. */
  moveRow(row: number, slot: number): void;
  toggleTimeslice(): void;
}

type Drag =
  | { readonly kind: 'pan'; readonly x: number; readonly y: number; readonly view: TimeWindow; readonly scroll: number; moved: boolean }
  | { readonly kind: 'select'; readonly x: number; cur: number }
  | { readonly kind: 'range'; readonly x: number; cur: number; readonly y?: number; curY?: number }
  | { readonly kind: 'overview'; readonly x: number; readonly view: TimeWindow }
  | { readonly kind: 'row'; readonly row: number; readonly y: number; cur: number };

export class TimelineInput {
  /** Pointer x over the plot (zoom anchor, crosshair). */
  hoverX: number | undefined;
  /** The row under the pointer (its label is highlighted). */
  hoverRow: number | undefined;
  /** The pointer is over the time axis (the cursor's time shows there either way). */
  overAxis = false;
  /** Where the tooltip is wanted (undefined while dragging or after a wheel). */
  tooltipAt: { readonly x: number; readonly y: number } | undefined;
  private drag: Drag | undefined;
  private lastWheelAt = -Infinity;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly el: TimelineElements,
    private readonly intents: TimelineIntents,
  ) {
    this.attach();
  }

  /** A row label being dragged: the row and the pointer's y in the plot. */
  rowDrag(): { readonly row: number; readonly y: number } | undefined {
    const d = this.drag;
    return d?.kind === 'row' ? { row: d.row, y: d.cur } : undefined;
  }

  /** The band being dragged (select-to-zoom or range), in plot px. */
  band(): readonly [number, number] | undefined {
    const d = this.drag;
    return d?.kind === 'select' || d?.kind === 'range' ? [d.x, d.cur] : undefined;
  }

  /** The vertical extent of a region being dragged (Ctrl/Cmd+Shift), in plot px. */
  bandY(): readonly [number, number] | undefined {
    const d = this.drag;
    return d?.kind === 'range' && d.y !== undefined ? [Math.min(d.y, d.curY ?? d.y), Math.max(d.y, d.curY ?? d.y)] : undefined;
  }

  dispose(): void {
    for (const c of this.cleanups) c();
  }

  private on<K extends keyof HTMLElementEventMap>(t: HTMLElement, type: K, f: (e: HTMLElementEventMap[K]) => void, opts?: AddEventListenerOptions): void {
    t.addEventListener(type, f, opts);
    this.cleanups.push(() => t.removeEventListener(type, f, opts));
  }

  private attach(): void {
    const { overlay, root, vscroll, overview, labels, axis } = this.el;
    this.on(overlay, 'wheel', (e) => this.onWheel(e), { passive: false });
    this.on(
      labels,
      'wheel',
      (e) => {
        e.preventDefault();
        if (e.ctrlKey || e.metaKey) this.intents.zoomRows(Math.exp(-e.deltaY * WHEEL_ZOOM_PER_PX), e.offsetY);
        else this.intents.scrollRows(e.deltaY);
      },
      { passive: false },
    );
    this.attachLabelDrag(labels);
    // the time readout follows the pointer over the axis too (and the timeslice with it)
    this.on(axis, 'pointermove', (e) => {
      this.hoverX = e.offsetX;
      this.overAxis = true;
      this.intents.hoverChanged(false);
    });
    this.on(axis, 'pointerleave', () => {
      this.hoverX = undefined;
      this.overAxis = false;
      this.intents.hoverChanged(false);
    });
    this.on(overlay, 'pointerdown', (e) => this.onPointerDown(e));
    this.on(overlay, 'pointermove', (e) => this.onPointerMove(e));
    this.on(overlay, 'pointerup', (e) => this.onPointerUp(e));
    this.on(overlay, 'pointerleave', () => {
      this.tooltipAt = undefined;
      this.el.tooltip.hidden = true;
      this.hoverX = undefined;
      this.hoverRow = undefined;
      this.intents.hoverChanged(true);
    });
    this.on(vscroll, 'scroll', () => {
      if (Math.abs(vscroll.scrollTop - this.intents.view().scrollPx) < 0.5) return;
      this.intents.scrollTo(vscroll.scrollTop);
    });
    this.on(root, 'keydown', (e) => this.onKey(e));
    this.on(overview, 'pointerdown', (e) => {
      const v = this.intents.view();
      if (!v.ready) return;
      const t = v.overviewScale.pxToTime(e.offsetX);
      if (t < v.window.t0 || t > v.window.t1) {
        // click outside the window box: centre the window there
        const half = (v.window.t1 - v.window.t0) / 2;
        this.intents.setWindow({ t0: t - half, t1: t + half }, true);
      }
      overview.setPointerCapture(e.pointerId);
      this.drag = { kind: 'overview', x: e.offsetX, view: this.intents.view().window };
    });
    this.on(overview, 'pointermove', (e) => {
      if (this.drag?.kind !== 'overview') return;
      const v = this.intents.view();
      const dt = ((e.offsetX - this.drag.x) / v.overviewWidth) * (v.full.t1 - v.full.t0);
      this.intents.setWindow({ t0: this.drag.view.t0 + dt, t1: this.drag.view.t1 + dt }, false);
    });
    this.on(overview, 'pointerup', (e) => {
      if (this.drag?.kind === 'overview') {
        this.intents.recordHistory(this.drag.view);
        this.drag = undefined;
        overview.releasePointerCapture(e.pointerId);
      }
    });
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    this.tooltipAt = undefined;
    const v = this.intents.view();
    const unit = e.deltaMode === 1 ? WHEEL_LINE_PX : e.deltaMode === 2 ? v.height : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    if (e.ctrlKey || e.metaKey) return this.intents.zoomRows(Math.exp(-dy * WHEEL_ZOOM_PER_PX), e.offsetY);
    if (e.altKey) return this.intents.scrollRows(dy);
    if (e.shiftKey || Math.abs(dx) > Math.abs(dy)) {
      const d = e.shiftKey && dx === 0 ? dy : dx;
      return this.intents.setWindow(panBy(v.window, d / v.width, v.full), false);
    }
    // One history entry per wheel gesture (a pause of WHEEL_GESTURE_MS starts a new one).
    const now = performance.now();
    if (now - this.lastWheelAt > WHEEL_GESTURE_MS) this.intents.recordHistory(v.window);
    this.lastWheelAt = now;
    const anchor = v.scale.pxToTime(e.offsetX);
    this.intents.setWindow(zoomAt(v.window, Math.exp(-dy * WHEEL_ZOOM_PER_PX), anchor, v.full), false);
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    this.el.root.focus();
    this.el.overlay.setPointerCapture(e.pointerId);
    const v = this.intents.view();
    // Ctrl/Cmd+drag: a time range over all rows; with Shift, a region of the rows dragged over.
    if (e.ctrlKey || e.metaKey) this.drag = { kind: 'range', x: e.offsetX, cur: e.offsetX, ...(e.shiftKey ? { y: e.offsetY, curY: e.offsetY } : {}) };
    else if (e.shiftKey || e.altKey) this.drag = { kind: 'select', x: e.offsetX, cur: e.offsetX };
    else this.drag = { kind: 'pan', x: e.offsetX, y: e.offsetY, view: v.window, scroll: v.scrollPx, moved: false };
  }

  private onPointerMove(e: PointerEvent): void {
    this.hoverX = e.offsetX;
    const row = rowAt(this.intents.view().rows, e.offsetY);
    const rowChanged = row !== this.hoverRow;
    this.hoverRow = row;
    const d = this.drag;
    // The hit test runs once per frame (in the overlay pass), not once per pointer event.
    this.tooltipAt = d === undefined ? { x: e.offsetX, y: e.offsetY } : undefined;
    if (d?.kind === 'pan') {
      const dx = e.offsetX - d.x;
      const dy = e.offsetY - d.y;
      if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return this.intents.hoverChanged(rowChanged);
      d.moved = true;
      this.el.overlay.style.cursor = 'grabbing';
      const dt = (dx / this.intents.view().width) * (d.view.t1 - d.view.t0);
      this.intents.scrollRows(d.scroll - dy - this.intents.view().scrollPx);
      this.intents.setWindow({ t0: d.view.t0 - dt, t1: d.view.t1 - dt }, false);
    } else if (d?.kind === 'select' || d?.kind === 'range') {
      d.cur = e.offsetX;
      if (d.kind === 'range' && d.y !== undefined) d.curY = e.offsetY;
    }
    this.intents.hoverChanged(rowChanged);
  }

  private onPointerUp(e: PointerEvent): void {
    const d = this.drag;
    this.drag = undefined;
    this.el.overlay.style.cursor = '';
    if (this.el.overlay.hasPointerCapture(e.pointerId)) this.el.overlay.releasePointerCapture(e.pointerId);
    const click = (): void => this.intents.pick(e.offsetX, e.offsetY, e.ctrlKey || e.metaKey, e.altKey);
    if (d?.kind === 'pan' && d.moved) {
      this.intents.recordHistory(d.view);
    } else if (d?.kind === 'pan') {
      click();
    } else if (d?.kind === 'select' || d?.kind === 'range') {
      const a = Math.min(d.x, d.cur);
      const b = Math.max(d.x, d.cur);
      if (b - a >= MIN_BAND_PX) {
        const s = this.intents.view().scale;
        if (d.kind === 'select') this.intents.setWindow({ t0: s.pxToTime(a), t1: s.pxToTime(b) }, true);
        else
          this.intents.selectRange(
            [s.pxToTime(a), s.pxToTime(b)],
            d.kind === 'range' && d.y !== undefined ? [Math.min(d.y, d.curY ?? d.y), Math.max(d.y, d.curY ?? d.y)] : undefined,
          );
      } else click();
    }
    this.intents.hoverChanged(false);
  }

  /** Dragging a row's label moves the row (drop position = the slot under the pointer). */
  private attachLabelDrag(labels: HTMLCanvasElement): void {
    this.on(labels, 'pointerdown', (e) => {
      const rows = this.intents.view().rows;
      const row = rowAt(rows, e.offsetY);
      if (e.button !== 0 || row === undefined || rows.rowHeight < ROW_DRAG_MIN_PX) return;
      labels.setPointerCapture(e.pointerId);
      this.drag = { kind: 'row', row, y: e.offsetY, cur: e.offsetY };
      labels.style.cursor = 'grabbing';
    });
    this.on(labels, 'pointermove', (e) => {
      if (this.drag?.kind !== 'row') return;
      this.drag.cur = e.offsetY;
      this.intents.hoverChanged(true);
    });
    this.on(labels, 'pointerup', (e) => {
      const d = this.drag;
      if (d?.kind !== 'row') return;
      this.drag = undefined;
      labels.style.cursor = '';
      if (labels.hasPointerCapture(e.pointerId)) labels.releasePointerCapture(e.pointerId);
      const rows = this.intents.view().rows;
      const to = slotAt(rows, Math.max(0, Math.min(e.offsetY, rows.rowCount * rows.rowHeight - rows.scrollPx - 1)));
      if (Math.abs(e.offsetY - d.y) >= DRAG_THRESHOLD_PX && to !== undefined) this.intents.moveRow(d.row, to);
      else this.intents.hoverChanged(true);
    });
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
    if (e.ctrlKey || e.metaKey) return;
    if (timelineKey(e.key, e.altKey, this.intents, { row: this.hoverRow, y: this.hoverRowY() })) e.preventDefault();
  }

  /** The pointer's y over the plot while it hovers a row (the vertical zoom keeps that row in place). */
  private hoverRowY(): number | undefined {
    return this.tooltipAt?.y;
  }
}
