/**
 * The timeline's canvas layers, each drawn from state: grid and axis, row labels, data (the
 * loaded payload), the overview strip (cached offscreen; the window box is a DOM element) and the
 * overlay (crosshair, drag band, selection, markers, range, status note, tooltip). Also sizes the
 * canvases to the plot. Called by the frame scheduler, one layer at a time.
 */
import { headsComposer } from './eventHeads';
import { webAssemblyBytes } from './headsKernel';
import { markOpenStage } from './openTimings';
import type { InitMessage, WebviewToHost } from '../../src/protocol/webview';
import type { Decorations } from './timelineMarks';
import type { ArrowMode } from './drawArrows';
import { rowPad } from './rowLayout';
import type { LayerName } from './scheduler';
import type { TimelineElements } from './elements';
import type { WindowLoader } from './windowLoader';
import type { TimelineInput } from './input';
import type { Picking } from './picking';
import type { TimelineView } from './viewState';
import { DEFAULT_STYLE, readPalette, type CategoryStyle, type Palette } from './theme';
import { withSiteStyle, type SiteStyle } from './siteStyle';
import { drawAnalysisOverlay } from './analysisOverlay';
import { drawAxis, drawData, drawGrid, drawLabels, drawOverlay, drawOverviewData, hatchNotConverted, type DataOptions } from './draw';
import { drawMarks } from './drawMarks';
import { drawChain, drawChainVeil } from './drawChain';
import { drawActivityStrip } from './drawActivity';
import type { PeerCursor } from './peerCursor';
import { tooltipText } from './tooltipText';
import { DataSurface } from './gl/dataSurface';
import { beginFramePhases, endFramePhases, endPhase, phaseClock } from './framePhases';
import { DataWarmUp, warmUpScale } from './warmUp';
import { ScratchCanvas, pageIdle } from './warmUpPage';

export interface LayerSources {
  readonly el: TimelineElements;
  readonly view: TimelineView;
  readonly main: WindowLoader;
  readonly overview: WindowLoader;
  readonly input: TimelineInput;
  readonly picking: Picking;
  readonly decorations: Decorations;
  readonly peer: PeerCursor;
  readonly post: (m: WebviewToHost) => void;
  /** Asks for a layer to be drawn again. */
  readonly mark: (layer: LayerName) => void;
}

/** Fallback heights (CSS px) of the axis and the overview strip before layout. */
const AXIS_HEIGHT_PX = 24;
const OVERVIEW_HEIGHT_PX = 40;
const ACTIVITY_HEIGHT_PX = 18;
/** The statistics strip is recomputed this long after the last data frame. */
const ACTIVITY_DELAY_MS = 120;
const LABEL_WIDTH_PX = 140;

/** Data-frame durations are appended here when a harness (bench) provides the array. */
function frameLog(): number[] | undefined {
  const g = globalThis as { __mpeFrameLog?: number[]; __mpeWasmBytes?: number };
  // a harness that logs frames also reads the memory outside the JS heap (the heads kernel's)
  if (g.__mpeFrameLog) g.__mpeWasmBytes = webAssemblyBytes();
  return g.__mpeFrameLog;
}

export class TimelineLayers {
  categoryStyle: CategoryStyle = DEFAULT_STYLE;
  /** Site marks (shown sites, code colourings); undefined: none. */
  siteStyle: SiteStyle | undefined;
  /** How arrows are drawn: lines, density (summarised), off, or auto (density when too dense). */
  arrowMode: ArrowMode = 'auto';
  /** What the activity strip counts: states by category, or by code colouring (when there are colourings). */
  activityMode: 'states' | 'codes' = 'states';
  private categoryNames: { readonly init: InitMessage; readonly names: ReadonlyMap<number, string> } | undefined;
  private palette: Palette | undefined;
  private overviewCache: HTMLCanvasElement | undefined;
  private overviewDirty = true;
  private overviewMap = -1;
  private paintedRequest = -1;

  /** The data layer's canvas and painter (WebGL2 or canvas2d). */
  private readonly data: DataSurface;

  /** The data layer's code warmed while the view rests (warmUp.ts), into a canvas never shown. */
  private readonly scratch = new ScratchCanvas();
  private readonly warmUp = new DataWarmUp({ draw: (step) => this.drawWarmUpFrame(step), release: () => this.scratch.release() }, pageIdle);

  constructor(private readonly s: LayerSources) {
    this.data = new DataSurface(s.el.data, s.el.root, () => s.mark('data'));
  }

  /** The webview goes: no warm-up frame after it. */
  dispose(): void {
    this.warmUp.dispose();
  }

  /** Colours changed (theme, legend): read the palette again and repaint the overview. */
  invalidateColours(): void {
    this.palette = undefined;
    this.overviewDirty = true;
  }

  /** The overview payload changed (or was dropped). */
  invalidateOverview(): void {
    this.overviewDirty = true;
  }

  /** A new document: its first final frame is reported as painted again. */
  newDocument(): void {
    this.invalidateColours();
    this.paintedRequest = -1;
  }

  /** Sizes every canvas to its box (device pixels) and records the sizes in the view. */
  resize(): void {
    const { el, view } = this.s;
    const dpr = window.devicePixelRatio || 1;
    const size = (c: HTMLCanvasElement, w: number, h: number): void => {
      c.width = Math.max(1, Math.round(w * dpr));
      c.height = Math.max(1, Math.round(h * dpr));
      c.style.width = `${w}px`;
      c.style.height = `${h}px`;
    };
    const plot = el.plot.getBoundingClientRect();
    view.width = Math.max(1, Math.floor(plot.width));
    view.height = Math.max(1, Math.floor(plot.height));
    for (const c of [el.grid, this.data.element, el.overlay]) size(c, view.width, view.height);
    size(el.axis, view.width, el.axis.parentElement?.clientHeight ?? AXIS_HEIGHT_PX);
    view.labelWidth = Math.max(1, el.labels.parentElement?.clientWidth ?? LABEL_WIDTH_PX);
    size(el.labels, view.labelWidth, view.height);
    const ov = el.overview.parentElement?.getBoundingClientRect();
    view.overviewWidth = Math.max(1, Math.floor(ov?.width ?? view.width));
    size(el.overview, view.overviewWidth, Math.max(1, Math.floor(ov?.height ?? OVERVIEW_HEIGHT_PX)));
    this.overviewDirty = true;
    size(el.activity, view.width, Math.max(1, el.activity.parentElement?.clientHeight ?? ACTIVITY_HEIGHT_PX));
  }

  draw(layer: LayerName): void {
    const { el, view } = this.s;
    const init = view.init;
    if (!init) return;
    const p = (this.palette ??= withSiteStyle(readPalette(init.categories, this.categoryStyle), this.siteStyle));
    const scale = view.scale();
    const rows = view.rowViewport();
    switch (layer) {
      case 'grid':
        drawGrid(this.ctx(el.grid), view.width, view.height, scale, rows, p);
        drawAxis(this.ctx(el.axis), view.width, el.axis.clientHeight || AXIS_HEIGHT_PX, scale, p);
        return;
      case 'labels':
        drawLabels(this.ctx(el.labels), view.labelWidth, view.height, rows, init.yMaps[view.mapIndex]?.rows ?? [], p, this.s.input.hoverRow);
        return;
      case 'data':
        return this.drawDataLayer(p);
      case 'overview':
        return this.drawOverview(p);
      case 'overlay':
        return this.drawOverlayLayer(p);
    }
  }

  private drawDataLayer(p: Palette): void {
    const { el, view, main } = this.s;
    const init = view.init!;
    const started = performance.now();
    beginFramePhases();
    const loaded = main.drawableFor(view.visible());
    const rows = view.rowViewport();
    const paint = this.data.painter();
    const frame = drawData(paint, view.width, view.height, view.scale(), rows, loaded, p, this.dataOptions(init));
    hatchNotConverted(paint, init, view.scale(), view.width, view.height, p);
    const t = phaseClock();
    this.data.present();
    endPhase('raster', t);
    // Geometry of the drawn frame, for UI tests that look for colours at times and rows:
    // x = (t − t0) / (t1 − t0) · width and y = slot · rowHeight − scrollPx + rowHeight / 2 in `.plot`,
    // slot = the row's index in data-rows (every row in file order when empty).
    // A state's box in its row: rowPad(rowHeight) from the row's top, nestingInset(depth) more per side.
    const ds = el.root.dataset;
    ds.t0 = String(view.window.t0);
    ds.t1 = String(view.window.t1);
    ds.rowHeight = String(rows.rowHeight);
    ds.rowCount = String(rows.rowCount);
    ds.rowPad = String(rowPad(rows.rowHeight));
    ds.rows = view.rows.customised ? view.rows.shownRows().join(',') : '';
    ds.maxNesting = String(loaded?.columns.header.maxNesting ?? '');
    ds.arrows = frame.arrows;
    ds.scrollPx = String(view.scrollPx);
    ds.mapIndex = String(view.mapIndex);
    ds.lowestDepth = String(loaded?.columns.header.lowestDepth ?? '');
    ds.drawables = String(frame.drawn);
    ds.heads = this.data.cpuRaster ? headsComposer() : 'paths';
    frameLog()?.push(performance.now() - started);
    endFramePhases();
    this.warmUp.afterFrame();
    this.scheduleActivity();
    el.root.dataset.complete = String(frame.complete);
    // Complete may be a coarse first answer (drawn at once, refined after): `final` says it is not.
    el.root.dataset.final = String(loaded?.final === true);
    el.root.dataset.viaRowIndex = String(loaded?.columns.header.viaRowIndex === true);
    if (frame.complete) markOpenStage('first complete', `${frame.drawn} drawables${loaded?.final === true ? '' : ', coarse'}`);
    if (frame.complete && loaded?.final === true) markOpenStage('complete', `${frame.drawn} drawables`);
    if (loaded && loaded.final && loaded.requestId !== this.paintedRequest) {
      this.paintedRequest = loaded.requestId;
      document.body.dataset.state = 'painted';
      this.s.post({ kind: 'painted', generation: init.generation, drawables: frame.drawn, frameMs: performance.now() - started });
    }
  }

  /**
   * Warm-up frame `step` (warmUp.ts) of the payload shown, into a canvas of the data layer's size
   * never shown, drawn as drawDataLayer draws; only with canvas2d (a GL painter's code is not the
   * one warmed) and a final payload.
   */
  private drawWarmUpFrame(step: number): boolean {
    const { view, main } = this.s;
    const init = view.init;
    const p = this.palette;
    const loaded = main.drawableFor(view.visible());
    if (!init || !p || this.data.usesGl || loaded?.final !== true) return false;
    const ctx = this.scratch.contextLike(this.data.element);
    drawData(ctx, view.width, view.height, warmUpScale(step, view.scale()), view.rowViewport(), loaded, p, this.dataOptions(init));
    // how many warm-up frames were drawn (the viewport bench reports it with the frames)
    this.s.el.root.dataset.warmUpFrames = String(step + 1);
    return true;
  }

  /** How the data layer's frames are drawn (names, arrows; pixels where canvas2d rasterises on the CPU). */
  private dataOptions(init: InitMessage): DataOptions {
    return { names: this.names(init), arrows: this.arrowMode, headPixels: this.data.cpuRaster, boxPixels: this.data.cpuRaster };
  }

  /** Category names by index (for the names inside states), per document. */
  private names(init: InitMessage): ReadonlyMap<number, string> {
    if (this.categoryNames?.init !== init) this.categoryNames = { init, names: new Map(init.categories.map((c) => [c.index, c.name])) };
    return this.categoryNames.names;
  }

  private drawOverlayLayer(p: Palette): void {
    const { el, view, main, input, picking, decorations } = this.s;
    const header = main.loaded?.columns.header;
    const note = main.lastError
      ? `⚠ ${main.lastError}`
      : main.loading
        ? 'loading…'
        : header?.truncated
          ? 'too many drawables: partial view'
          : this.siteStyle?.dim && header !== undefined && header.lowestDepth > 0 && (main.loaded?.columns.shadows.start.length ?? 0) > 0
            ? 'previews carry no source sites: zoom in to see which drawables came from them'
            : undefined;
    el.root.dataset.note = note ?? '';
    const octx = this.ctx(el.overlay);
    const scale = view.scale();
    const chain = decorations.chain?.generation === view.init?.generation ? decorations.chain?.info : undefined;
    if (chain) {
      // Wait hatches under the veil: off the chain they are greyed out with the rest (drawn over
      // the veil they showed through it), on the chain's states the cut-outs show the states.
      octx.clearRect(0, 0, view.width, view.height);
      drawAnalysisOverlay(octx, view.width, scale, view.rowViewport(), view.mapIndex, p, decorations.analysis);
      drawChainVeil(octx, view.width, view.height, scale, view.rowViewport(), view.mapIndex, p, chain, true);
    }
    drawOverlay(octx, view.width, view.height, scale, p, input.hoverX, input.band(), note, chain !== undefined);
    if (chain) drawChain(octx, view.width, scale, view.rowViewport(), view.mapIndex, chain);
    const maxNesting = main.drawableFor(view.visible())?.columns.header.maxNesting ?? 0;
    const selected = picking.selection?.mapIndex === view.mapIndex ? picking.selection : undefined;
    if (!chain) drawAnalysisOverlay(octx, view.width, scale, view.rowViewport(), view.mapIndex, p, decorations.analysis);
    drawMarks(octx, view.width, view.height, scale, view.rowViewport(), p, selected, maxNesting, decorations.markers, decorations.range, decorations.rangeRows);
    const regionY = input.bandY();
    if (regionY) {
      // a region being dragged: its rows
      const b = input.band()!;
      octx.strokeStyle = p.accent;
      octx.strokeRect(Math.min(b[0], b[1]) + 0.5, regionY[0] + 0.5, Math.abs(b[1] - b[0]), regionY[1] - regionY[0]);
    }
    this.s.peer.draw(octx, view.width, view.height, scale, p);
    // the cursor's time on the axis (the axis is cheap to redraw: a few ticks)
    drawAxis(this.ctx(el.axis), view.width, el.axis.clientHeight || AXIS_HEIGHT_PX, scale, p, input.hoverX);
    const drag = input.rowDrag();
    if (drag) {
      // where a dragged row label will land: a line between rows
      const rows = view.rowViewport();
      const slot = Math.max(0, Math.min(rows.rowCount, Math.round((drag.y + rows.scrollPx) / rows.rowHeight)));
      octx.fillStyle = p.accent;
      octx.fillRect(0, slot * rows.rowHeight - rows.scrollPx - 1, view.width, 2);
    }
    this.updateTooltip(input.tooltipAt);
  }

  /** A light tooltip for what is under the pointer (DOM, so hover never repaints the canvases). */
  private updateTooltip(at: { readonly x: number; readonly y: number } | undefined): void {
    const { el, view, picking } = this.s;
    const tip = el.tooltip;
    const found = at && view.init ? picking.hitAt(at.x, at.y) : undefined;
    if (!at || !found) {
      tip.hidden = true;
      return;
    }
    tip.textContent = tooltipText(found.hit, found.columns, view.init!, view.mapIndex, view.window.t1 - view.window.t0);
    tip.hidden = false;
    const left = Math.min(at.x + 14, Math.max(0, view.width - tip.offsetWidth - 4));
    const top = at.y + 18 + tip.offsetHeight > view.height ? at.y - tip.offsetHeight - 8 : at.y + 18;
    tip.style.transform = `translate(${left}px, ${top}px)`;
  }

  private drawOverview(p: Palette): void {
    const { el, view, decorations } = this.s;
    const w = view.overviewWidth;
    const h = el.overview.clientHeight || OVERVIEW_HEIGHT_PX;
    const fullScale = view.overviewScale();
    if (this.overviewDirty || this.overviewMap !== view.mapIndex) {
      const off = (this.overviewCache ??= document.createElement('canvas'));
      const dpr = window.devicePixelRatio || 1;
      off.width = Math.max(1, Math.round(w * dpr));
      off.height = Math.max(1, Math.round(h * dpr));
      const octx = off.getContext('2d')!;
      octx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const loaded = this.s.overview.drawableFor({ mapIndex: view.mapIndex });
      drawOverviewData(octx, w, h, fullScale, view.overviewRows(), loaded, p);
      if (view.init) hatchNotConverted(octx, view.init, fullScale, w, h, p);
      this.overviewDirty = loaded === undefined;
      // The rows the strip summarises (UI tests: every row, however many).
      if (loaded) el.root.dataset.overviewRows = `${loaded.columns.header.rowStart}-${loaded.columns.header.rowEnd}`;
      this.overviewMap = view.mapIndex;
    }
    const ctx = el.overview.getContext('2d')!;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, el.overview.width, el.overview.height);
    if (this.overviewCache) ctx.drawImage(this.overviewCache, 0, 0);
    const marks = decorations.searchMarks;
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
    const x0 = Math.max(0, fullScale.timeToPx(view.window.t0));
    const x1 = Math.min(w, fullScale.timeToPx(view.window.t1));
    const box = el.overviewWindow.style;
    box.left = `${x0}px`;
    box.width = `${Math.max(3, x1 - x0)}px`;
  }

  private activityTimer: ReturnType<typeof setTimeout> | undefined;

  /** The selection changed (a region counts only its rows in the strip). */
  refreshActivity(): void {
    this.scheduleActivity();
  }

  /** The strip label's click: count by code colouring or by state (the codes only while there are colourings). */
  toggleActivityMode(): void {
    this.activityMode = this.activityMode === 'codes' ? 'states' : 'codes';
    this.scheduleActivity();
  }

  /**
   * The statistics strip follows the data layer once the view rests (ACTIVITY_DELAY_MS after the
   * last data frame), so panning and zooming keep their frame time.
   */
  private scheduleActivity(): void {
    if (this.activityTimer !== undefined) clearTimeout(this.activityTimer);
    this.activityTimer = setTimeout(() => {
      this.activityTimer = undefined;
      this.drawActivity();
    }, ACTIVITY_DELAY_MS);
  }

  private drawActivity(): void {
    const { el, view, main } = this.s;
    const ctx = this.ctx(el.activity);
    const h = el.activity.parentElement?.clientHeight || ACTIVITY_HEIGHT_PX;
    ctx.clearRect(0, 0, view.width, h);
    const colourings = this.siteStyle?.colours.length ?? 0;
    drawActivityStrip(ctx, h, el, view, main.drawableFor(view.visible()), this.palette, this.s.decorations.rangeRows, colourings, this.activityMode);
  }

  private ctx(c: HTMLCanvasElement): CanvasRenderingContext2D {
    const ctx = c.getContext('2d', { alpha: c !== this.s.el.grid })!;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }
}
