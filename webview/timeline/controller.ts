/**
 * The timeline's imperative core: owns the canvases, the view (time window, Y map, vertical
 * scroll), the two window loaders (timeline and overview), input handling and the frame
 * scheduler. Preact renders the chrome around it and calls in; nothing here re-renders Preact
 * except the small `onViewChange` notification (coalesced to one per frame).
 */
import type { CommandMessage, InitMessage, SearchHit, ViewState, WebviewToHost, WindowFailedMessage, WindowMessage } from '../../src/protocol/webview';
import type { VisibleWindow } from '../../src/core/query/windowKey';
import { FrameScheduler, type LayerName } from './scheduler';
import { WindowLoader } from './windowLoader';
import { TimeScale, clampWindow, formatDuration, formatTime, panBy, zoomAt, type TimeWindow } from './timeScale';
import { clampScroll, rowAt, visibleRows, type RowViewport } from './rowLayout';
import { ZoomHistory } from './zoomHistory';
import { DEFAULT_STYLE, readPalette, watchTheme, type CategoryStyle, type Palette } from './theme';
import { drawAxis, drawData, drawGrid, drawLabels, drawOverlay, drawOverviewData } from './draw';
import { hitTest, type Hit } from './hitTest';
import { FLAG_SHADOW, type WindowColumns } from '../../src/protocol/wire';
import { atTimeOnRow, nextOnRow, refOf, selectionOf, shadowSummaryOf, type Selection, type ShadowSummary } from './selection';
import { drawMarks } from './drawMarks';

/** A click on a drawable: what the popup shows (details come from the host under `detailsId`). */
export interface Pick {
  readonly selection: Selection;
  /** Set when details were requested from the host. */
  readonly detailsId: number | undefined;
  /** Set for shadows (summaries): their ratios are in the payload. */
  readonly shadow: ShadowSummary | undefined;
  /** Position in the plot (CSS px) to place the popup at. */
  readonly x: number;
  readonly y: number;
  /** Ctrl/Cmd+click: go straight to the source; Alt: open it beside. */
  readonly toSource: boolean;
  readonly beside: boolean;
}

export interface TimelineElements {
  readonly root: HTMLElement;
  readonly axis: HTMLCanvasElement;
  readonly labels: HTMLCanvasElement;
  readonly grid: HTMLCanvasElement;
  readonly data: HTMLCanvasElement;
  readonly overlay: HTMLCanvasElement;
  readonly plot: HTMLElement;
  readonly vscroll: HTMLElement;
  readonly vspacer: HTMLElement;
  readonly overview: HTMLCanvasElement;
  readonly overviewWindow: HTMLElement;
  readonly tooltip: HTMLElement;
}

export interface PersistedView extends ViewState {
  readonly fileName: string;
}

export interface ViewSummary {
  readonly view: TimeWindow;
  readonly mapIndex: number;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly loading: boolean;
  readonly error: string | undefined;
  readonly lowestDepth: number | undefined;
  readonly range: readonly [number, number] | undefined;
}

export const ROW_HEIGHT_PX = 24;

/** Data-frame durations are appended here when a harness (bench) provides the array. */
function frameLog(): number[] | undefined {
  return (globalThis as { __mpeFrameLog?: number[] }).__mpeFrameLog;
}
const ZOOM_STEP = 1.6;
const PAN_STEP = 0.2;
const WHEEL_ZOOM_PER_PX = 0.002;
const DRAG_THRESHOLD_PX = 3;
const PERSIST_DELAY_MS = 250;
const WHEEL_GESTURE_MS = 400;
const OVERVIEW_MAX_ROWS = 256;

type Drag =
  | { readonly kind: 'pan'; readonly x: number; readonly y: number; readonly view: TimeWindow; readonly scroll: number; moved: boolean }
  | { readonly kind: 'select'; readonly x: number; cur: number }
  | { readonly kind: 'range'; readonly x: number; cur: number }
  | { readonly kind: 'overview'; readonly x: number; readonly view: TimeWindow };

export class TimelineController {
  private init: InitMessage | undefined;
  private view: TimeWindow = { t0: 0, t1: 1 };
  private mapIndex = 0;
  private scrollPx = 0;
  private readonly history = new ZoomHistory();
  private readonly main: WindowLoader;
  private readonly overview: WindowLoader;
  private readonly scheduler: FrameScheduler;
  private palette: Palette | undefined;
  private hoverX: number | undefined;
  private hoverRow: number | undefined;
  private drag: Drag | undefined;
  private width = 0;
  private height = 0;
  private labelWidth = 0;
  private overviewWidth = 0;
  private overviewCache: HTMLCanvasElement | undefined;
  private overviewDirty = true;
  private paintedRequest = -1;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly cleanups: (() => void)[] = [];
  private summaryPending = false;
  private lastWheelAt = -Infinity;
  private tooltipAt: { readonly x: number; readonly y: number } | undefined;
  private selected: Selection | undefined;
  /** Times of pinned popups, drawn as markers. */
  private markers: readonly number[] = [];
  private nextDetailsId = 1;
  private categoryStyle: CategoryStyle = DEFAULT_STYLE;
  /** The selected time range (Ctrl/Cmd+drag), reported to the host for the statistics panel. */
  private range: readonly [number, number] | undefined;
  /** Search matches per bin of `range` (drawn on the overview strip). */
  private searchMarks: { readonly histogram: readonly number[]; readonly range: readonly [number, number] } | undefined;

  constructor(
    private readonly el: TimelineElements,
    private readonly post: (m: WebviewToHost) => void,
    private readonly persist: (s: PersistedView) => void,
    private readonly restored: PersistedView | undefined,
    private readonly onViewChange: (s: ViewSummary) => void,
    private readonly onPick: (p: Pick | undefined) => void = () => undefined,
  ) {
    this.main = new WindowLoader('main', post);
    this.overview = new WindowLoader('overview', post);
    this.scheduler = new FrameScheduler((l) => this.drawLayer(l), (cb) => requestAnimationFrame(cb), () => performance.now());
    this.attachInput();
    const resize = new ResizeObserver(() => this.resize());
    resize.observe(el.plot);
    resize.observe(el.overview);
    this.cleanups.push(() => resize.disconnect());
    this.cleanups.push(
      watchTheme(() => {
        this.palette = undefined;
        this.overviewDirty = true;
        this.markAll();
      }),
    );
    this.resize();
  }

  dispose(): void {
    for (const c of this.cleanups) c();
    if (this.persistTimer !== undefined) clearTimeout(this.persistTimer);
  }

  // ---- host messages ------------------------------------------------------------------------

  setInit(m: InitMessage): void {
    const sameFile = this.init?.fileName === m.fileName;
    const first = this.init === undefined;
    this.init = m;
    this.palette = undefined;
    this.main.reset(m.generation);
    this.overview.reset(m.generation);
    this.overviewDirty = true;
    this.paintedRequest = -1;
    const full = this.fullRange();
    const saved = first ? (this.restored?.fileName === m.fileName ? this.restored : m.initialView) : undefined;
    if (saved) {
      this.mapIndex = saved.mapIndex >= 0 && saved.mapIndex < m.yMaps.length ? saved.mapIndex : m.defaultMap;
      this.view = clampWindow({ t0: saved.t0, t1: saved.t1 }, full);
      this.scrollPx = saved.scrollRow * ROW_HEIGHT_PX;
    } else if (!sameFile) {
      this.mapIndex = m.defaultMap;
      this.view = clampWindow(full, full);
      this.scrollPx = 0;
    } else {
      // reloaded after a change on disk: keep the view, clamped to the new trace
      if (this.mapIndex >= m.yMaps.length) this.mapIndex = m.defaultMap;
      this.view = clampWindow(this.view, full);
    }
    this.updateSpacer();
    this.scrollPx = clampScroll(this.rowViewport(), this.scrollPx);
    this.el.vscroll.scrollTop = this.scrollPx;
    this.clearSelection();
    this.viewChanged();
  }

  // ---- selection and popups -------------------------------------------------------------------

  get selection(): Selection | undefined {
    return this.selected;
  }

  clearSelection(): void {
    if (this.selected === undefined) return;
    this.selected = undefined;
    this.markSelection();
    this.onPick(undefined);
    this.scheduler.mark('overlay');
  }

  /** The legend's hidden categories and colours; everything is redrawn with them. */
  setCategoryStyle(style: CategoryStyle): void {
    this.categoryStyle = style;
    this.palette = undefined;
    this.overviewDirty = true;
    this.markAll();
  }

  get selectedRange(): readonly [number, number] | undefined {
    return this.range;
  }

  /** Sets (or clears) the selected time range and tells the host. */
  setRange(range: readonly [number, number] | undefined): void {
    this.range = range;
    const ds = this.el.root.dataset;
    if (range) {
      ds.rangeStart = String(range[0]);
      ds.rangeEnd = String(range[1]);
    } else {
      delete ds.rangeStart;
      delete ds.rangeEnd;
    }
    this.post(range ? { kind: 'selectRange', range: [range[0], range[1]] } : { kind: 'selectRange' });
    this.scheduler.mark('overlay');
    this.summary();
  }

  /** Selects and frames a search match (it keeps its row; nesting depth unknown: outlined as outermost). */
  showHit(hit: SearchHit): void {
    if (!this.init) return;
    const row = hit.row ?? 0;
    this.selected = {
      kind: hit.drawable,
      start: hit.start,
      end: hit.end,
      row,
      toRow: hit.toRow ?? row,
      depth: 0,
      mapIndex: this.mapIndex,
      category: hit.category,
      summary: false,
    };
    this.frameSelection();
    this.markSelection();
    this.scheduler.mark('overlay');
  }

  /** Where the matches are, per bin of `range` (undefined: no search). */
  setSearchMarks(marks: { readonly histogram: readonly number[]; readonly range: readonly [number, number] } | undefined): void {
    this.searchMarks = marks;
    this.scheduler.mark('overview');
  }

  private markSelection(): void {
    const ds = this.el.root.dataset;
    if (this.selected) {
      ds.selStart = String(this.selected.start);
      ds.selEnd = String(this.selected.end);
      ds.selRow = String(this.selected.row);
    } else {
      delete ds.selStart;
      delete ds.selEnd;
      delete ds.selRow;
    }
  }

  /** Times drawn as markers (the pinned popups). */
  setMarkers(times: readonly number[]): void {
    this.markers = times;
    this.scheduler.mark('overlay');
  }

  /** Frames the selected drawable (F), with a margin of a fifth of its span on each side. */
  frameSelection(): void {
    const s = this.selected;
    if (!s) return;
    const span = Math.max(s.end - s.start, (this.view.t1 - this.view.t0) * 1e-6, 1e-9);
    if (s.mapIndex !== this.mapIndex) this.setMap(s.mapIndex);
    this.setWindow({ t0: s.start - span / 5, t1: s.end + span / 5 });
    this.revealRow(s.row);
  }

  /** Scrolls the row into view (centred when it is off-screen). */
  revealRow(row: number): void {
    const top = row * ROW_HEIGHT_PX;
    if (top >= this.scrollPx && top + ROW_HEIGHT_PX <= this.scrollPx + this.height) return;
    this.scrollRows(top - this.height / 2 - this.scrollPx);
  }

  /** Selects what is at (x, y) of the plot and reports it (a click). */
  private pickAt(x: number, y: number, toSource: boolean, beside: boolean): void {
    const loaded = this.main.drawableFor(this.visible());
    if (!loaded || !this.init) return;
    const hit = hitTest(loaded.columns, this.scale().offsetMapper(loaded.columns.header.baseTime), this.rowViewport(), x, y, this.categoryStyle.hidden);
    if (!hit) return this.clearSelection();
    this.select(hit, loaded.columns, x, y, toSource, beside);
  }

  /**
   * Keyboard moves of the selection: next/previous drawable on its row (`.` / `,`), the drawable
   * at the same time on the row above/below (Alt+↑/↓), an arrow's other end (E).
   */
  private moveSelection(move: 'next' | 'previous' | 'up' | 'down' | 'otherEnd'): boolean {
    const s = this.selected;
    const loaded = this.main.drawableFor(this.visible());
    if (!s || !loaded || s.mapIndex !== this.mapIndex) return false;
    const c = loaded.columns;
    if (move === 'otherEnd') {
      if (s.kind !== 'arrow') return false;
      const t = s.end;
      if (t < this.view.t0 || t > this.view.t1) {
        const half = (this.view.t1 - this.view.t0) / 2;
        this.setWindow({ t0: t - half, t1: t + half });
      }
      this.revealRow(s.toRow);
      return true;
    }
    const hit = move === 'next' || move === 'previous' ? nextOnRow(c, s, move === 'next' ? 1 : -1) : atTimeOnRow(c, s, s.row + (move === 'down' ? 1 : -1));
    if (!hit) return false;
    const next = selectionOf(hit, c, this.mapIndex);
    if (next.end < this.view.t0 || next.start > this.view.t1) {
      const half = (this.view.t1 - this.view.t0) / 2;
      this.setWindow({ t0: (next.start + next.end) / 2 - half, t1: (next.start + next.end) / 2 + half });
    }
    this.revealRow(next.row);
    const x = this.scale().timeToPx(next.start);
    const y = next.row * ROW_HEIGHT_PX - this.scrollPx + ROW_HEIGHT_PX;
    this.select(hit, c, Math.max(0, Math.min(this.width - 20, x)), Math.max(0, y), false, false);
    return true;
  }

  private select(hit: Hit, c: WindowColumns, x: number, y: number, toSource: boolean, beside: boolean): void {
    if (!this.init) return;
    this.selected = selectionOf(hit, c, this.mapIndex);
    this.markSelection();
    const ref = refOf(hit, c, this.mapIndex);
    let detailsId: number | undefined;
    if (ref) {
      detailsId = this.nextDetailsId++;
      this.post({ kind: 'requestDetails', detailsId, generation: this.init.generation, ref });
    }
    const shadow = hit.kind === 'shadow' ? shadowSummaryOf(hit.index, c) : undefined;
    this.onPick({ selection: this.selected, detailsId, shadow, x, y, toSource, beside });
    this.scheduler.mark('overlay');
  }

  /** The document is reloading or failed: drop what is loaded (it is no longer current). */
  suspend(): void {
    this.main.reset(-1);
    this.overview.reset(-1);
    this.overviewDirty = true;
    this.markAll();
    this.summary();
  }

  onWindow(m: WindowMessage): void {
    if (this.main.receive(m)) this.scheduler.mark('data', 'overlay');
    else if (this.overview.receive(m)) {
      this.overviewDirty = true;
      this.scheduler.mark('overview');
    }
    this.summary();
  }

  onWindowFailed(m: WindowFailedMessage): void {
    if (this.main.failed(m) || this.overview.failed(m)) this.scheduler.mark('overlay');
    this.summary();
  }

  command(c: CommandMessage['command']): void {
    switch (c) {
      case 'zoomIn':
        return this.zoomCentre(ZOOM_STEP);
      case 'zoomOut':
        return this.zoomCentre(1 / ZOOM_STEP);
      case 'home':
        return this.showAll();
      case 'undoZoom':
        return this.undo();
      case 'redoZoom':
        return this.redo();
    }
  }

  // ---- navigation (also called from the toolbar) --------------------------------------------

  setWindow(w: TimeWindow, record = true): void {
    if (!this.init) return;
    const next = clampWindow(w, this.fullRange());
    if (next.t0 === this.view.t0 && next.t1 === this.view.t1) return;
    if (record) this.history.push(this.view);
    this.view = next;
    this.viewChanged();
  }

  /** A view from the host (a link): Y map (when valid) and window, recorded in the history. */
  showView(v: ViewState): void {
    if (!this.init) return;
    if (v.mapIndex >= 0 && v.mapIndex < this.init.yMaps.length) this.setMap(v.mapIndex);
    this.setWindow({ t0: v.t0, t1: v.t1 });
  }

  setMap(i: number): void {
    if (!this.init || i === this.mapIndex || i < 0 || i >= this.init.yMaps.length) return;
    this.mapIndex = i;
    this.overviewDirty = true;
    this.updateSpacer();
    this.scrollPx = clampScroll(this.rowViewport(), this.scrollPx);
    this.el.vscroll.scrollTop = this.scrollPx;
    this.viewChanged();
  }

  showAll(): void {
    this.setWindow(this.fullRange());
  }

  zoomCentre(factor: number): void {
    const anchor = this.hoverX !== undefined ? this.scale().pxToTime(this.hoverX) : (this.view.t0 + this.view.t1) / 2;
    this.setWindow(zoomAt(this.view, factor, anchor, this.fullRange()));
  }

  undo(): void {
    const w = this.history.undo(this.view);
    if (w) {
      this.view = clampWindow(w, this.fullRange());
      this.viewChanged();
    }
  }

  redo(): void {
    const w = this.history.redo(this.view);
    if (w) {
      this.view = clampWindow(w, this.fullRange());
      this.viewChanged();
    }
  }

  scrollRows(deltaPx: number): void {
    const next = clampScroll(this.rowViewport(), this.scrollPx + deltaPx);
    if (next === this.scrollPx) return;
    this.scrollPx = next;
    this.el.vscroll.scrollTop = next;
    this.viewChanged(['grid', 'data', 'labels', 'overlay']);
  }

  // ---- internals -------------------------------------------------------------------------------

  private fullRange(): TimeWindow {
    const r = this.init?.timeRange ?? [0, 1];
    return { t0: r[0], t1: r[1] > r[0] ? r[1] : r[0] + 1e-6 };
  }

  private rowCount(): number {
    return this.init?.yMaps[this.mapIndex]?.rows.length ?? 0;
  }

  /** The overview strip summarises the first OVERVIEW_MAX_ROWS rows (it is for moving in time). */
  private overviewRows(): number {
    return Math.min(this.rowCount(), OVERVIEW_MAX_ROWS);
  }

  private rowViewport(): RowViewport {
    return { rowCount: this.rowCount(), rowHeight: ROW_HEIGHT_PX, scrollPx: this.scrollPx, heightPx: this.height };
  }

  private scale(): TimeScale {
    return new TimeScale(this.view.t0, this.view.t1, Math.max(1, this.width));
  }

  private visible(): VisibleWindow {
    const { first, end } = visibleRows(this.rowViewport());
    return { t0: this.view.t0, t1: this.view.t1, rowStart: first, rowEnd: end, rowCount: this.rowCount(), mapIndex: this.mapIndex, pixelWidth: this.width };
  }

  private updateSpacer(): void {
    this.el.vspacer.style.height = `${Math.min(this.rowCount() * ROW_HEIGHT_PX, 30_000_000)}px`;
  }

  private viewChanged(layers: LayerName[] = ['grid', 'data', 'labels', 'overview', 'overlay']): void {
    if (!this.init) return;
    this.main.update(this.visible());
    if (this.overviewWidth > 0) {
      const full = this.fullRange();
      const rc = this.overviewRows();
      this.overview.update({ t0: full.t0, t1: full.t1, rowStart: 0, rowEnd: rc, rowCount: rc, mapIndex: this.mapIndex, pixelWidth: this.overviewWidth });
    }
    this.scheduler.mark(...layers);
    this.schedulePersist();
    this.summary();
  }

  private summary(): void {
    if (this.summaryPending) return;
    this.summaryPending = true;
    queueMicrotask(() => {
      this.summaryPending = false;
      this.onViewChange({
        view: this.view,
        mapIndex: this.mapIndex,
        canUndo: this.history.canUndo,
        canRedo: this.history.canRedo,
        loading: this.main.loading,
        error: this.main.lastError,
        lowestDepth: this.main.loaded?.columns.header.lowestDepth,
        range: this.range,
      });
    });
  }

  private schedulePersist(): void {
    if (this.persistTimer !== undefined) clearTimeout(this.persistTimer);
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      if (!this.init) return;
      const state: ViewState = { t0: this.view.t0, t1: this.view.t1, mapIndex: this.mapIndex, scrollRow: this.scrollPx / ROW_HEIGHT_PX };
      this.persist({ ...state, fileName: this.init.fileName });
      this.post({ kind: 'viewState', state });
    }, PERSIST_DELAY_MS);
  }

  private markAll(): void {
    this.scheduler.mark('grid', 'data', 'labels', 'overview', 'overlay');
  }

  private resize(): void {
    const dpr = window.devicePixelRatio || 1;
    const size = (c: HTMLCanvasElement, w: number, h: number): void => {
      c.width = Math.max(1, Math.round(w * dpr));
      c.height = Math.max(1, Math.round(h * dpr));
      c.style.width = `${w}px`;
      c.style.height = `${h}px`;
    };
    const plot = this.el.plot.getBoundingClientRect();
    this.width = Math.max(1, Math.floor(plot.width));
    this.height = Math.max(1, Math.floor(plot.height));
    for (const c of [this.el.grid, this.el.data, this.el.overlay]) size(c, this.width, this.height);
    size(this.el.axis, this.width, this.el.axis.parentElement?.clientHeight ?? 24);
    this.labelWidth = Math.max(1, this.el.labels.parentElement?.clientWidth ?? 140);
    size(this.el.labels, this.labelWidth, this.height);
    const ov = this.el.overview.parentElement?.getBoundingClientRect();
    this.overviewWidth = Math.max(1, Math.floor(ov?.width ?? this.width));
    size(this.el.overview, this.overviewWidth, Math.max(1, Math.floor(ov?.height ?? 40)));
    this.overviewDirty = true;
    this.markAll();
    this.viewChanged();
  }

  private ctx(c: HTMLCanvasElement): CanvasRenderingContext2D {
    const ctx = c.getContext('2d', { alpha: c !== this.el.grid })!;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  private drawLayer(layer: LayerName): void {
    if (!this.init) return;
    const p = (this.palette ??= readPalette(this.init.categories, this.categoryStyle));
    const scale = this.scale();
    const rows = this.rowViewport();
    switch (layer) {
      case 'grid':
        drawGrid(this.ctx(this.el.grid), this.width, this.height, scale, rows, p);
        drawAxis(this.ctx(this.el.axis), this.width, this.el.axis.clientHeight || 24, scale, p);
        return;
      case 'labels':
        drawLabels(this.ctx(this.el.labels), this.labelWidth, this.height, rows, this.init.yMaps[this.mapIndex]?.rows ?? [], p, this.hoverRow);
        return;
      case 'data': {
        const started = performance.now();
        const loaded = this.main.drawableFor(this.visible());
        const frame = drawData(this.ctx(this.el.data), this.width, this.height, scale, rows, loaded, p);
        // Geometry of the drawn frame, for UI tests that look for colours at times and rows:
        // x = (t − t0) / (t1 − t0) · width and y = row · rowHeight − scrollPx + rowHeight / 2 in `.plot`.
        const ds = this.el.root.dataset;
        ds.t0 = String(this.view.t0);
        ds.t1 = String(this.view.t1);
        ds.rowHeight = String(ROW_HEIGHT_PX);
        ds.scrollPx = String(this.scrollPx);
        ds.mapIndex = String(this.mapIndex);
        ds.lowestDepth = String(loaded?.columns.header.lowestDepth ?? '');
        ds.drawables = String(frame.drawn);
        frameLog()?.push(performance.now() - started);
        this.el.root.dataset.complete = String(frame.complete);
        if (loaded && loaded.final && loaded.requestId !== this.paintedRequest) {
          this.paintedRequest = loaded.requestId;
          document.body.dataset.state = 'painted';
          this.post({ kind: 'painted', generation: this.init.generation, drawables: frame.drawn, frameMs: performance.now() - started });
        }
        return;
      }
      case 'overview':
        this.drawOverview(p);
        return;
      case 'overlay': {
        const select = this.drag?.kind === 'select' || this.drag?.kind === 'range' ? ([this.drag.x, this.drag.cur] as const) : undefined;
        const note = this.main.lastError
          ? `⚠ ${this.main.lastError}`
          : this.main.loading
            ? 'loading…'
            : this.main.loaded?.columns.header.truncated
              ? 'too many drawables: partial view'
              : undefined;
        const octx = this.ctx(this.el.overlay);
        drawOverlay(octx, this.width, this.height, scale, p, this.hoverX, select, note);
        const maxNesting = this.main.drawableFor(this.visible())?.columns.header.maxNesting ?? 0;
        drawMarks(octx, this.width, this.height, scale, rows, p, this.selected?.mapIndex === this.mapIndex ? this.selected : undefined, maxNesting, this.markers, this.range);
        const at = this.tooltipAt;
        this.updateTooltip(at ? { offsetX: at.x, offsetY: at.y } : undefined);
        return;
      }
    }
  }

  private drawOverview(p: Palette): void {
    const w = this.overviewWidth;
    const h = this.el.overview.clientHeight || 40;
    const full = this.fullRange();
    const fullScale = new TimeScale(full.t0, full.t1, w);
    if (this.overviewDirty) {
      const off = (this.overviewCache ??= document.createElement('canvas'));
      const dpr = window.devicePixelRatio || 1;
      off.width = Math.max(1, Math.round(w * dpr));
      off.height = Math.max(1, Math.round(h * dpr));
      const octx = off.getContext('2d')!;
      octx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawOverviewData(octx, w, h, fullScale, this.overviewRows(), this.overview.drawableFor({ mapIndex: this.mapIndex }), p);
      this.overviewDirty = this.overview.drawableFor({ mapIndex: this.mapIndex }) === undefined;
    }
    const ctx = this.el.overview.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.el.overview.width, this.el.overview.height);
    if (this.overviewCache) ctx.drawImage(this.overviewCache, 0, 0);
    const marks = this.searchMarks;
    if (marks && marks.histogram.length > 0) {
      // a tick on top of the strip for every bin with matches (taller for more)
      const dpr = window.devicePixelRatio || 1;
      const max = marks.histogram.reduce((m, v) => Math.max(m, v), 0);
      const binSpan = (marks.range[1] - marks.range[0]) / marks.histogram.length;
      ctx.fillStyle = p.accent;
      marks.histogram.forEach((n, i) => {
        if (n === 0) return;
        const x0 = fullScale.timeToPx(marks.range[0] + i * binSpan);
        const x1 = fullScale.timeToPx(marks.range[0] + (i + 1) * binSpan);
        const bh = 3 + (n / max) * (h / 3);
        ctx.fillRect(Math.floor(x0 * dpr), 0, Math.max(dpr * 2, Math.ceil((x1 - x0) * dpr)), bh * dpr);
      });
    }
    // the current window as a DOM box (cheap to move, draggable)
    const x0 = Math.max(0, fullScale.timeToPx(this.view.t0));
    const x1 = Math.min(w, fullScale.timeToPx(this.view.t1));
    const box = this.el.overviewWindow.style;
    box.left = `${x0}px`;
    box.width = `${Math.max(3, x1 - x0)}px`;
  }

  // ---- input ---------------------------------------------------------------------------------

  private attachInput(): void {
    const { overlay, root, vscroll, overview } = this.el;
    const on = <K extends keyof HTMLElementEventMap>(t: HTMLElement, type: K, f: (e: HTMLElementEventMap[K]) => void, opts?: AddEventListenerOptions): void => {
      t.addEventListener(type, f, opts);
      this.cleanups.push(() => t.removeEventListener(type, f, opts));
    };
    on(overlay, 'wheel', (e) => this.onWheel(e), { passive: false });
    on(this.el.labels, 'wheel', (e) => {
      e.preventDefault();
      this.scrollRows(e.deltaY);
    }, { passive: false });
    on(overlay, 'pointerdown', (e) => this.onPointerDown(e));
    on(overlay, 'pointermove', (e) => this.onPointerMove(e));
    on(overlay, 'pointerup', (e) => this.onPointerUp(e));
    on(overlay, 'pointerleave', () => {
      this.tooltipAt = undefined;
      this.el.tooltip.hidden = true;
      this.hoverX = undefined;
      this.hoverRow = undefined;
      this.scheduler.mark('overlay', 'labels');
    });
    on(vscroll, 'scroll', () => {
      if (Math.abs(vscroll.scrollTop - this.scrollPx) < 0.5) return;
      this.scrollPx = clampScroll(this.rowViewport(), vscroll.scrollTop);
      this.viewChanged(['grid', 'data', 'labels', 'overlay']);
    });
    on(root, 'keydown', (e) => this.onKey(e));
    on(overview, 'pointerdown', (e) => {
      if (!this.init) return;
      const full = this.fullRange();
      const t = new TimeScale(full.t0, full.t1, this.overviewWidth).pxToTime(e.offsetX);
      if (t < this.view.t0 || t > this.view.t1) {
        // click outside the window box: centre the window there
        const half = (this.view.t1 - this.view.t0) / 2;
        this.setWindow({ t0: t - half, t1: t + half });
      }
      overview.setPointerCapture(e.pointerId);
      this.drag = { kind: 'overview', x: e.offsetX, view: this.view };
    });
    on(overview, 'pointermove', (e) => {
      if (this.drag?.kind !== 'overview') return;
      const full = this.fullRange();
      const dt = ((e.offsetX - this.drag.x) / this.overviewWidth) * (full.t1 - full.t0);
      this.setWindow({ t0: this.drag.view.t0 + dt, t1: this.drag.view.t1 + dt }, false);
    });
    on(overview, 'pointerup', (e) => {
      if (this.drag?.kind === 'overview') {
        this.history.push(this.drag.view);
        this.drag = undefined;
        overview.releasePointerCapture(e.pointerId);
        this.summary();
      }
    });
  }

  /** A light tooltip for what is under the pointer (DOM, so hover never repaints the canvases). */
  private updateTooltip(e: { readonly offsetX: number; readonly offsetY: number } | undefined): void {
    const tip = this.el.tooltip;
    const loaded = this.main.drawableFor(this.visible());
    const hit = e && loaded && this.init ? hitTest(loaded.columns, this.scale().offsetMapper(loaded.columns.header.baseTime), this.rowViewport(), e.offsetX, e.offsetY, this.categoryStyle.hidden) : undefined;
    if (!e || !hit || !loaded) {
      tip.hidden = true;
      return;
    }
    tip.textContent = this.describe(hit, loaded.columns);
    tip.hidden = false;
    const left = Math.min(e.offsetX + 14, Math.max(0, this.width - tip.offsetWidth - 4));
    const top = e.offsetY + 18 + tip.offsetHeight > this.height ? e.offsetY - tip.offsetHeight - 8 : e.offsetY + 18;
    tip.style.transform = `translate(${left}px, ${top}px)`;
  }

  private describe(hit: Hit, c: WindowColumns): string {
    const init = this.init!;
    const name = (cat: number): string => init.categories.find((k) => k.index === cat)?.name ?? `category ${cat}`;
    const label = (row: number): string => `${init.yMaps[this.mapIndex]?.columns.join('/') ?? 'row'} ${init.yMaps[this.mapIndex]?.rows[row] ?? row}`;
    const base = c.header.baseTime;
    switch (hit.kind) {
      case 'state': {
        const st = c.states;
        const d = st.end[hit.index]! - st.start[hit.index]!;
        return `${name(st.category[hit.index]!)} · ${formatDuration(d)} · ${label(st.row[hit.index]!)}${st.depth[hit.index]! > 0 ? ` · nesting ${st.depth[hit.index]}` : ''}`;
      }
      case 'shadow': {
        const sh = c.shadows;
        const w = c.shadowWeights;
        const from = sh.weightStart[hit.index]!;
        const parts: string[] = [];
        for (let k = from; k < from + Math.min(3, sh.weightCount[hit.index]!); k++) parts.push(`${name(w.category[k]!)} ${(w.excl[k]! * 100).toFixed(0)}%`);
        return `summary of ${sh.count[hit.index]} drawables · ${label(sh.row[hit.index]!)} · ${parts.join(', ')}`;
      }
      case 'arrow': {
        const ar = c.arrows;
        const shadow = (ar.flags[hit.index]! & FLAG_SHADOW) !== 0;
        const what = shadow ? `summary of ${ar.count[hit.index]} arrows` : name(ar.category[hit.index]!);
        return `${what} · ${formatDuration(ar.end[hit.index]! - ar.start[hit.index]!)} · ${label(ar.fromRow[hit.index]!)} → ${label(ar.toRow[hit.index]!)}`;
      }
      case 'event': {
        const ev = c.events;
        const shadow = (ev.flags[hit.index]! & FLAG_SHADOW) !== 0;
        const what = shadow ? `summary of ${ev.count[hit.index]} events` : name(ev.category[hit.index]!);
        const span = this.view.t1 - this.view.t0;
        return `${what} · ${formatTime(base + ev.time[hit.index]!, span / 10, span / 1000)} · ${label(ev.row[hit.index]!)}`;
      }
    }
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    this.tooltipAt = undefined;
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? this.height : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    if (e.altKey) return this.scrollRows(dy);
    if (e.shiftKey || Math.abs(dx) > Math.abs(dy)) {
      const d = e.shiftKey && dx === 0 ? dy : dx;
      return this.setWindow(panBy(this.view, d / this.width, this.fullRange()), false);
    }
    // One history entry per wheel gesture (a pause of WHEEL_GESTURE_MS starts a new one).
    const now = performance.now();
    if (now - this.lastWheelAt > WHEEL_GESTURE_MS) this.history.push(this.view);
    this.lastWheelAt = now;
    const anchor = this.scale().pxToTime(e.offsetX);
    this.setWindow(zoomAt(this.view, Math.exp(-dy * WHEEL_ZOOM_PER_PX), anchor, this.fullRange()), false);
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    this.el.root.focus();
    this.el.overlay.setPointerCapture(e.pointerId);
    if (e.ctrlKey || e.metaKey) this.drag = { kind: 'range', x: e.offsetX, cur: e.offsetX };
    else if (e.shiftKey || e.altKey) this.drag = { kind: 'select', x: e.offsetX, cur: e.offsetX };
    else this.drag = { kind: 'pan', x: e.offsetX, y: e.offsetY, view: this.view, scroll: this.scrollPx, moved: false };
  }

  private onPointerMove(e: PointerEvent): void {
    this.hoverX = e.offsetX;
    const row = rowAt(this.rowViewport(), e.offsetY);
    if (row !== this.hoverRow) {
      this.hoverRow = row;
      this.scheduler.mark('labels');
    }
    const d = this.drag;
    // The hit test runs once per frame (in the overlay pass), not once per pointer event.
    this.tooltipAt = d === undefined ? { x: e.offsetX, y: e.offsetY } : undefined;
    if (d?.kind === 'pan') {
      const dx = e.offsetX - d.x;
      const dy = e.offsetY - d.y;
      if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return this.scheduler.mark('overlay');
      d.moved = true;
      this.el.overlay.style.cursor = 'grabbing';
      const dt = (dx / this.width) * (d.view.t1 - d.view.t0);
      this.scrollRows(d.scroll - dy - this.scrollPx);
      this.setWindow({ t0: d.view.t0 - dt, t1: d.view.t1 - dt }, false);
    } else if (d?.kind === 'select' || d?.kind === 'range') {
      d.cur = e.offsetX;
    }
    this.scheduler.mark('overlay');
  }

  private onPointerUp(e: PointerEvent): void {
    const d = this.drag;
    this.drag = undefined;
    this.el.overlay.style.cursor = '';
    if (this.el.overlay.hasPointerCapture(e.pointerId)) this.el.overlay.releasePointerCapture(e.pointerId);
    const click = (): void => this.pickAt(e.offsetX, e.offsetY, e.ctrlKey || e.metaKey, e.altKey);
    if (d?.kind === 'pan' && d.moved) {
      this.history.push(d.view);
      this.summary();
    } else if (d?.kind === 'pan') {
      click();
    } else if (d?.kind === 'select') {
      const a = Math.min(d.x, d.cur);
      const b = Math.max(d.x, d.cur);
      if (b - a >= 4) {
        const s = this.scale();
        this.setWindow({ t0: s.pxToTime(a), t1: s.pxToTime(b) });
      } else click();
    } else if (d?.kind === 'range') {
      const a = Math.min(d.x, d.cur);
      const b = Math.max(d.x, d.cur);
      if (b - a >= 4) {
        const s = this.scale();
        this.setRange([s.pxToTime(a), s.pxToTime(b)]);
      } else click();
    }
    this.scheduler.mark('overlay');
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
    if (e.ctrlKey || e.metaKey) return;
    const full = this.fullRange();
    let handled = true;
    switch (e.key) {
      case 'Escape':
        // the selected drawable first, then the selected range
        if (this.selected !== undefined) this.clearSelection();
        else if (this.range !== undefined) this.setRange(undefined);
        else handled = false;
        break;
      case '.':
        handled = this.moveSelection('next');
        break;
      case ',':
        handled = this.moveSelection('previous');
        break;
      case 'e':
      case 'E':
        handled = this.moveSelection('otherEnd');
        break;
      case 'f':
      case 'F':
        if (this.selected === undefined) handled = false;
        this.frameSelection();
        break;
      case 'w':
      case 'W':
      case '+':
      case '=':
        this.zoomCentre(ZOOM_STEP);
        break;
      case 's':
      case 'S':
      case '-':
      case '_':
        this.zoomCentre(1 / ZOOM_STEP);
        break;
      case 'a':
      case 'A':
      case 'ArrowLeft':
        this.setWindow(panBy(this.view, -PAN_STEP, full));
        break;
      case 'd':
      case 'D':
      case 'ArrowRight':
        this.setWindow(panBy(this.view, PAN_STEP, full));
        break;
      case 'ArrowUp':
        if (!(e.altKey && this.moveSelection('up'))) this.scrollRows(-ROW_HEIGHT_PX);
        break;
      case 'ArrowDown':
        if (!(e.altKey && this.moveSelection('down'))) this.scrollRows(ROW_HEIGHT_PX);
        break;
      case 'PageUp':
        this.scrollRows(-this.height + ROW_HEIGHT_PX);
        break;
      case 'PageDown':
        this.scrollRows(this.height - ROW_HEIGHT_PX);
        break;
      case 'Home':
        this.showAll();
        break;
      case 'z':
        this.undo();
        break;
      case 'Z':
        this.redo();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }
}
