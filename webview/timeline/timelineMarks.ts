/**
 * What the timeline draws over its data besides the pointer: the selected range (or region), the
 * pinned popups' time markers, search marks on the overview, the wait-state analysis and a
 * dependence chain. Holds them (`decorations`, read by the layers), mirrors them into the root's
 * data attributes for the UI tests, and asks for the layers they touch to be redrawn.
 */
import type { AnalysisOverlayMessage, ChainInfo, WebviewToHost } from '../../src/protocol/webview';
import type { LayerName } from './scheduler';
import type { AnalysisOverlay } from './analysisOverlay';
import type { TimelineView } from './viewState';
import { rowsBetween } from './rowLayout';

/** What is drawn over the data besides the selection: pinned-popup times, the range, search hits. */
export interface Decorations {
  /** Times of pinned popups, drawn as markers. */
  markers: readonly number[];
  /** The selected time range (Ctrl/Cmd+drag), reported to the host for the statistics panel. */
  range: readonly [number, number] | undefined;
  /** The rows of a region selection (Ctrl/Cmd+Shift+drag), in slot order; undefined: all rows. */
  rangeRows: readonly number[] | undefined;
  /** Search matches per bin of `range` (drawn on the overview strip). */
  searchMarks: { readonly histogram: readonly number[]; readonly range: readonly [number, number] } | undefined;
  /** Wait states and critical path from the host's analysis (drawn when toggled on). */
  analysis: AnalysisOverlay;
  /** The dependence chain shown (the rest greyed out), with the document generation it belongs to. */
  chain: { readonly info: ChainInfo; readonly generation: number } | undefined;
}

export interface MarkSinks {
  readonly root: HTMLElement;
  readonly view: TimelineView;
  readonly post: (m: WebviewToHost) => void;
  readonly mark: (...layers: LayerName[]) => void;
  /** The range changed: the activity strip counts it, the chrome shows it. */
  readonly rangeChanged: () => void;
}

export class TimelineMarks {
  readonly decorations: Decorations = {
    markers: [],
    range: undefined,
    searchMarks: undefined,
    analysis: { data: undefined, showWaits: true, showPath: false },
    chain: undefined,
    rangeRows: undefined,
  };

  constructor(private readonly s: MarkSinks) {}

  get selectedRange(): readonly [number, number] | undefined {
    return this.decorations.range;
  }

  /**
   * Sets (or clears) the selected time range and tells the host; with `ys` (plot px of a
   * Ctrl/Cmd+Shift+drag) a region: the range over the shown rows between them.
   */
  setRange(range: readonly [number, number] | undefined, ys?: readonly [number, number]): void {
    const { view } = this.s;
    const rows = range && ys ? rowsBetween(view.rowViewport(), ys[0], ys[1]) : undefined;
    this.decorations.range = range;
    this.decorations.rangeRows = rows;
    const ds = this.s.root.dataset;
    if (range) {
      ds.rangeStart = String(range[0]);
      ds.rangeEnd = String(range[1]);
    } else {
      delete ds.rangeStart;
      delete ds.rangeEnd;
    }
    if (rows) ds.rangeRows = rows.join(',');
    else delete ds.rangeRows;
    this.s.post(range ? { kind: 'selectRange', range: [range[0], range[1]], ...(rows ? { rows, mapIndex: view.mapIndex } : {}) } : { kind: 'selectRange' });
    this.s.mark('overlay');
    this.s.rangeChanged();
  }

  /** Where the matches are, per bin of `range` (undefined: no search). */
  setSearchMarks(marks: Decorations['searchMarks']): void {
    this.decorations.searchMarks = marks;
    this.s.mark('overview');
  }

  /** The host's wait-state analysis (kept only for the current document generation). */
  setAnalysisOverlay(m: AnalysisOverlayMessage): void {
    const init = this.s.view.init;
    if (init !== undefined && m.generation !== init.generation) return;
    this.decorations.analysis.data = m;
    this.s.mark('overlay');
  }

  /** Toggles of the analysis overlay (hatched waits, critical path); returns the new state. */
  toggleAnalysis(which: 'waits' | 'path'): boolean {
    const a = this.decorations.analysis;
    if (which === 'waits') a.showWaits = !a.showWaits;
    else a.showPath = !a.showPath;
    this.s.mark('overlay');
    const ds = this.s.root.dataset;
    ds.showWaits = String(a.showWaits);
    ds.showPath = String(a.showPath);
    return which === 'waits' ? a.showWaits : a.showPath;
  }

  /** Shows a dependence chain (the rest greyed out) or, undefined, stops showing it. */
  setChain(chain: ChainInfo | undefined): void {
    const generation = this.s.view.init?.generation;
    this.decorations.chain = chain !== undefined && generation !== undefined ? { info: chain, generation } : undefined;
    const ds = this.s.root.dataset;
    if (chain !== undefined && this.decorations.chain) ds.chainNodes = String(chain.nodes.length);
    else delete ds.chainNodes;
    this.s.mark('overlay');
  }

  /** Times drawn as markers (the pinned popups). */
  setMarkers(times: readonly number[]): void {
    this.decorations.markers = times;
    this.s.mark('overlay');
  }
}
