/**
 * The timeline's shell: wires the parts together and is what the Preact chrome calls. The parts,
 * one job each: `TimelineView` (view state and navigation), `TimelineInput` (keyboard, pointer,
 * wheel → intents), `Picking` (selection, hit testing for clicks and the tooltip), `TimelineLayers`
 * (canvases drawn from state), two `WindowLoader`s (timeline and overview payloads) and the frame
 * scheduler. Nothing here re-renders Preact except the small `onViewChange` notification
 * (coalesced to one per frame).
 */
import { markOpenStage } from './openTimings';
import { NO_SITE_MARKS, siteMarksKey, type SiteStyle } from './siteStyle';
import type {
  PeerCursorMessage,
  CommandMessage,
  DetailsMessage,
  InitMessage,
  SearchHit,
  SiteMarksMessage,
  ViewState,
  WebviewToHost,
  WindowFailedMessage,
  WindowMessage,
} from '../../src/protocol/webview';
import { FrameScheduler, type LayerName } from './scheduler';
import { WindowLoader } from './windowLoader';
import type { TimeWindow } from './timeScale';
import { watchTheme, type CategoryStyle } from './theme';
import type { Selection } from './selection';
import type { TimelineElements } from './elements';
import { TimelineView, type PersistedView, type RowActions } from './viewState';
import { TimelineInput, ZOOM_STEP, type TimelineIntents } from './input';
import { PeerCursor } from './peerCursor';
import { ViewPersistence } from './viewPersistence';
import { DEFAULT_ROW_PX, MIN_AUTO_FIT_PX } from './rowLayout';
import type { FirstViewHint } from '../../src/core/query/windowKey';
import { timelineIntents } from './intents';
import { Picking, type Pick } from './picking';
import { TimelineLayers } from './layers';
import { TimelineMarks } from './timelineMarks';
import { TimesliceFeed, type Timeslice } from './timesliceFeed';
import type { ArrowMode } from './drawArrows';

export type { Pick, TimelineElements, PersistedView, Timeslice, ViewSummary };
import { viewSummary, type ViewSummary } from './viewSummary';

const ALL_LAYERS: LayerName[] = ['grid', 'data', 'labels', 'overview', 'overlay'];

export class TimelineController {
  private readonly view: TimelineView;
  private readonly main: WindowLoader;
  private readonly overview: WindowLoader;
  /** The site marks the windows asked for are built with (siteMarksKey). */
  private siteMarks = NO_SITE_MARKS;
  private readonly scheduler: FrameScheduler;
  private readonly input: TimelineInput;
  private readonly picking: Picking;
  private readonly layers: TimelineLayers;
  /** Range, markers, search marks, analysis and chain: what the chrome sets over the data. */
  readonly marks: TimelineMarks;
  /** Saves the view and reports it to the host. */
  private readonly persistence: ViewPersistence;
  private readonly cleanups: (() => void)[] = [];
  private summaryPending = false;
  private readonly slices: TimesliceFeed;
  private readonly onTimesliceToggle: () => void;
  private readonly peer: PeerCursor;

  constructor(
    private readonly el: TimelineElements,
    post: (m: WebviewToHost) => void,
    persist: (s: PersistedView) => void,
    private readonly restored: PersistedView | undefined,
    private readonly onViewChange: (s: ViewSummary) => void,
    onPick: (p: Pick | undefined) => void = () => undefined,
    onTimesliceToggle: () => void = () => undefined,
  ) {
    this.onTimesliceToggle = onTimesliceToggle;
    this.view = new TimelineView(
      {
        changed: (layers) => this.viewChanged(layers),
        syncScroll: (scrollPx, contentPx) => {
          el.vspacer.style.height = `${contentPx}px`;
          el.vscroll.scrollTop = scrollPx;
        },
      },
      restored,
    );
    this.persistence = new ViewPersistence(this.view, persist, post);
    this.main = new WindowLoader('main', post);
    this.overview = new WindowLoader('overview', post);
    this.scheduler = new FrameScheduler(
      (l) => this.layers.draw(l),
      (cb) => requestAnimationFrame(cb),
      () => performance.now(),
    );
    this.picking = new Picking({
      view: this.view,
      loader: this.main,
      root: el.root,
      post,
      onPick,
      hidden: () => this.layers.categoryStyle.hidden,
      redrawOverlay: () => this.scheduler.mark('overlay'),
    });
    this.marks = new TimelineMarks({
      root: el.root,
      view: this.view,
      post,
      mark: (...layers) => this.scheduler.mark(...layers),
      rangeChanged: () => {
        this.layers.refreshActivity();
        this.summary();
      },
    });
    this.peer = new PeerCursor(post, el.root, (cb) => requestAnimationFrame(cb));
    this.input = new TimelineInput(el, this.intents());
    this.slices = new TimesliceFeed(
      this.view,
      this.main,
      () => this.input.hoverX,
      () => this.layers.categoryStyle.hidden,
    );
    this.cleanups.push(() => this.input.dispose());
    const toggleActivity = (): void => this.layers.toggleActivityMode();
    el.activityLabel.addEventListener('click', toggleActivity);
    this.cleanups.push(() => el.activityLabel.removeEventListener('click', toggleActivity));
    this.layers = new TimelineLayers({
      el,
      view: this.view,
      main: this.main,
      overview: this.overview,
      input: this.input,
      picking: this.picking,
      decorations: this.marks.decorations,
      peer: this.peer,
      post,
      mark: (l) => this.scheduler.mark(l),
    });
    const resize = new ResizeObserver(() => this.resize());
    resize.observe(el.plot);
    resize.observe(el.overview);
    this.cleanups.push(() => resize.disconnect());
    this.cleanups.push(
      watchTheme(() => {
        this.layers.invalidateColours();
        this.markAll();
      }),
    );
    this.resize();
  }

  /**
   * For `ready`: the plot's size and 'auto' row heights, so the host can push the first window of
   * a fresh view (none when a saved view will be restored, or the plot has no size yet).
   */
  firstViewHint(): FirstViewHint | undefined {
    if (this.restored !== undefined || !(this.view.width > 0) || !(this.view.height > 0)) return undefined;
    return { pixelWidth: this.view.width, heightPx: this.view.height, minFitRowPx: MIN_AUTO_FIT_PX, rowPx: DEFAULT_ROW_PX };
  }

  dispose(): void {
    for (const c of this.cleanups) c();
    this.persistence.dispose();
    this.layers.dispose();
  }

  // ---- host messages ------------------------------------------------------------------------

  setInit(m: InitMessage): void {
    // A preview's successor (the conversion's next snapshot, or its end) draws over the last
    // picture until its own windows come: the view fills in without going blank.
    const successor = this.view.init?.preview !== undefined && this.view.init.fileName === m.fileName;
    this.layers.newDocument();
    this.main.reset(m.generation, successor);
    this.overview.reset(m.generation, successor);
    this.view.setInit(m);
    this.persistence.reports.reset(this.view.state());
    this.clearSelection();
    this.viewChanged();
  }

  /** The document is reloading or failed: drop what is loaded (it is no longer current). */
  suspend(): void {
    this.main.reset(-1);
    this.overview.reset(-1);
    this.layers.invalidateOverview();
    this.markAll();
    this.summary();
  }

  onWindow(m: WindowMessage): void {
    const h = m.payload.header;
    const stage = `${m.final ? 'final' : 'coarse'} rows ${h.rowStart}-${h.rowEnd}`;
    const detail = `build ${Math.round(h.buildMs)} ms, ${h.nodesRead} nodes${h.viaRowIndex === true ? ', row index' : ''}`;
    if (this.main.receive(m)) {
      markOpenStage(`main ${stage}`, m.pushedKey !== undefined ? `${detail}, pushed` : detail);
      this.scheduler.mark('data', 'overlay');
    } else if (this.overview.receive(m)) {
      markOpenStage(`overview ${stage}`, detail);
      this.layers.invalidateOverview();
      this.scheduler.mark('overview');
    }
    this.summary();
  }

  /** The answer to a details request of a click. */
  onDetails(m: DetailsMessage): void {
    this.picking.onDetails(m);
  }

  onWindowFailed(m: WindowFailedMessage): void {
    if (this.main.failed(m) || this.overview.failed(m)) this.scheduler.mark('overlay');
    this.summary();
  }

  command(c: CommandMessage['command']): void {
    const commands: Partial<Record<CommandMessage['command'], () => void>> = {
      zoomIn: () => this.zoomCentre(ZOOM_STEP),
      zoomOut: () => this.zoomCentre(1 / ZOOM_STEP),
      home: () => this.showAll(),
      undoZoom: () => this.undo(),
      redoZoom: () => this.redo(),
    };
    commands[c]?.();
  }

  // ---- selection, site marks ----------------------------------------------------------------

  get selection(): Selection | undefined {
    return this.picking.selection;
  }

  clearSelection(): void {
    this.picking.clear();
  }

  /** Selects and frames a search match. */
  showHit(hit: SearchHit): void {
    this.picking.showHit(hit);
  }

  /** Frames the selected drawable (F). */
  frameSelection(): void {
    this.picking.frame();
  }

  /** The legend's hidden categories and colours; everything is redrawn with them. */
  setCategoryStyle(style: CategoryStyle): void {
    this.layers.categoryStyle = style;
    this.layers.invalidateColours();
    this.markAll();
  }

  /**
   * Site marks from the host: new palette keys, and the windows fetched again with their new flags
   * when the marks differ from those the loaded and requested windows were built with. The host
   * sends its marks after every init; fetching again for the same marks cancelled and rebuilt the
   * first window of every open.
   */
  setSiteMarks(m: SiteMarksMessage): void {
    const style: SiteStyle = { dim: m.highlight !== undefined, colours: m.colourings.map((x) => x.rgb) };
    this.layers.siteStyle = style;
    this.el.root.dataset.siteColourings = String(style.colours.length);
    this.layers.invalidateColours();
    const key = siteMarksKey(m);
    if (key !== this.siteMarks) {
      this.siteMarks = key;
      this.main.invalidate();
      this.overview.invalidate();
      this.viewChanged();
    }
    this.markAll();
  }

  // ---- navigation (also called from the toolbar) --------------------------------------------

  setWindow(w: TimeWindow, record = true): void {
    this.view.setWindow(w, record);
  }

  /** A view from the host: a link's (recorded in the zoom history) or, with `syncSeq`, a comparison's. */
  showView(v: ViewState, syncSeq?: number): void {
    this.view.showView(v, syncSeq !== undefined);
    if (syncSeq !== undefined) this.persistence.reports.synced(syncSeq, this.view.state());
  }

  setMap(i: number): void {
    this.view.setMap(i);
  }

  showAll(): void {
    this.view.showAll();
  }

  /** Zooms around the pointer when it is over the plot, else around the centre. */
  zoomCentre(factor: number): void {
    this.view.zoomAround(factor, this.input.hoverX);
  }

  undo(): void {
    this.view.undo();
  }

  redo(): void {
    this.view.redo();
  }

  /** Scrolls the row into view (centred when it is off-screen). */
  revealRow(row: number): void {
    this.view.revealRow(row);
  }

  // ---- rows (also called from the toolbar) ----------------------------------------------------

  setArrowMode(m: ArrowMode): void {
    this.layers.arrowMode = m;
    this.scheduler.mark('data');
    this.summary();
  }

  /** What the row controls act on: the view's rows. */
  get rowControls(): RowActions {
    return this.view;
  }

  /** Receives the timeslice at the cursor's time while set (the panel is open). */
  setTimesliceListener(f: ((s: Timeslice | undefined) => void) | undefined): void {
    this.slices.listen(f);
  }

  /** What every shown row is doing at `t` (the visible rows first). */
  timesliceAt(t: number): Timeslice | undefined {
    return this.slices.at(t);
  }

  // ---- internals -------------------------------------------------------------------------------

  /** What input may ask of the timeline. */
  private intents(): TimelineIntents {
    return timelineIntents({
      view: this.view,
      picking: this.picking,
      range: () => this.marks.selectedRange,
      setRange: (r, ys) => this.marks.setRange(r, ys),
      zoomCentre: (f) => this.zoomCentre(f),
      summary: () => this.summary(),
      hoverChanged: (labels) => {
        if (labels) this.scheduler.mark('overlay', 'labels');
        else this.scheduler.mark('overlay');
        this.slices.schedule();
        this.reportCursor();
      },
      toggleTimeslice: () => this.onTimesliceToggle(),
    });
  }

  /** The time under the pointer, for the other timeline of a comparison. */
  private reportCursor(): void {
    this.peer.report(() => {
      const x = this.input.hoverX;
      return x === undefined || this.view.init === undefined ? undefined : this.view.scale().pxToTime(x);
    });
  }

  /** A comparison linked this timeline, or the other run's cursor moved. */
  setPeerCursor(m: PeerCursorMessage): void {
    this.peer.set(m);
    this.scheduler.mark('overlay');
  }

  private viewChanged(layers: LayerName[] = ALL_LAYERS): void {
    if (!this.view.init) return;
    this.slices.schedule();
    this.reportCursor();
    this.main.update(this.view.visible());
    if (this.view.overviewWidth > 0) this.overview.update(this.view.overviewVisible());
    this.scheduler.mark(...layers);
    this.persistence.schedule();
    this.summary();
  }

  private summary(): void {
    if (this.summaryPending) return;
    this.summaryPending = true;
    queueMicrotask(() => {
      this.summaryPending = false;
      this.onViewChange(viewSummary(this.view, this.main, this.marks.selectedRange, this.layers.arrowMode));
    });
  }

  private markAll(): void {
    this.scheduler.mark(...ALL_LAYERS);
  }

  private resize(): void {
    const before = this.view.state();
    this.layers.resize();
    this.persistence.reports.resized(before, this.view.state());
    this.markAll();
    this.viewChanged();
  }
}
