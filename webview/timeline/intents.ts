/**
 * What input may ask of the timeline (TimelineIntents): each intent on the view, the selection or
 * the range, so input.ts knows nothing of the controller's parts.
 */
import type { InputView, TimelineIntents } from './input';
import type { Picking } from './picking';
import type { TimelineView } from './viewState';

/** The parts of the controller the intents act on. */
export interface IntentTargets {
  readonly view: TimelineView;
  readonly picking: Picking;
  readonly range: () => readonly [number, number] | undefined;
  readonly setRange: (range: readonly [number, number] | undefined, ys?: readonly [number, number]) => void;
  readonly zoomCentre: (factor: number) => void;
  /** The toolbar's summary is out of date. */
  readonly summary: () => void;
  readonly hoverChanged: (labels: boolean) => void;
  readonly toggleTimeslice: () => void;
}

export function timelineIntents(t: IntentTargets): TimelineIntents {
  const v = t.view;
  return {
    view: (): InputView => ({
      ready: v.init !== undefined,
      window: v.window,
      full: v.fullRange(),
      scrollPx: v.scrollPx,
      width: v.width,
      height: v.height,
      overviewWidth: v.overviewWidth,
      scale: v.scale(),
      overviewScale: v.overviewScale(),
      rows: v.rowViewport(),
    }),
    setWindow: (w, record) => v.setWindow(w, record),
    recordHistory: (w) => {
      v.history.push(w);
      t.summary();
    },
    zoom: (factor) => t.zoomCentre(factor),
    scrollRows: (d) => v.scrollRows(d),
    scrollTo: (px) => v.scrollTo(px, true),
    showAll: () => v.showAll(),
    undo: () => v.undo(),
    redo: () => v.redo(),
    pick: (x, y, toSource, beside) => t.picking.pickAt(x, y, toSource, beside),
    selectRange: (range, ys) => t.setRange(range, ys),
    moveSelection: (move) => t.picking.move(move),
    frameSelection: () => {
      const had = t.picking.selection !== undefined;
      t.picking.frame();
      return had;
    },
    escape: () => {
      // the selected drawable first, then the selected range
      if (t.picking.selection !== undefined) t.picking.clear();
      else if (t.range() !== undefined) t.setRange(undefined);
      else return false;
      return true;
    },
    hoverChanged: (labels) => t.hoverChanged(labels),
    zoomRows: (factor, anchorY) => v.zoomRows(factor, anchorY),
    hideRow: (row) => v.hideRows([row]),
    showAllRows: () => v.showAllRows(),
    moveRow: (row, slot) => v.moveRow(row, slot),
    toggleTimeslice: () => t.toggleTimeslice(),
  };
}
