/**
 * The timeline's keys (see the README's key list): each one an intent on TimelineIntents, so the
 * bindings are in one place and input.ts keeps to gestures.
 */
import { panBy, type TimeWindow } from './timeScale';
import { slotOfRow, type RowViewport } from './rowLayout';
import type { SelectionMove } from './selection';

export const ZOOM_STEP = 1.6;
/** Vertical zoom per Shift+W/S (Ctrl/Cmd+wheel zooms continuously). */
export const ROW_ZOOM_STEP = 1.25;
/** Arrow keys scroll by a row, but at least this much. */
const MIN_SCROLL_STEP_PX = 16;
/** A/D and the arrow keys pan by this fraction of the window. */
const PAN_STEP = 0.2;

/** What the keys ask of the timeline: the part of input.ts's TimelineIntents they use. */
export interface KeyIntents {
  view(): { readonly window: TimeWindow; readonly full: TimeWindow; readonly height: number; readonly rows: RowViewport };
  setWindow(w: TimeWindow, record: boolean): void;
  zoom(factor: number): void;
  scrollRows(deltaPx: number): void;
  showAll(): void;
  undo(): void;
  redo(): void;
  moveSelection(move: SelectionMove): boolean;
  frameSelection(): boolean;
  escape(): boolean;
  zoomRows(factor: number, anchorY: number | undefined): void;
  hideRow(row: number): void;
  showAllRows(): void;
  moveRow(row: number, slot: number): void;
  toggleTimeslice(): void;
}

/** The row under the pointer (undefined: none) and the pointer's y over the plot. */
export interface Hover {
  readonly row: number | undefined;
  readonly y: number | undefined;
}

/** One key of the timeline, as an intent; true when it was handled. `hover`: the row under the pointer and its y. */
export function timelineKey(key: string, alt: boolean, it: KeyIntents, hover: Hover): boolean {
  const step = Math.max(MIN_SCROLL_STEP_PX, it.view().rows.rowHeight);
  const pan = (fraction: number): void => {
    const v = it.view();
    it.setWindow(panBy(v.window, fraction, v.full), true);
  };
  switch (key) {
    case 'Escape':
      // the selected drawable first, then the selected range
      return it.escape();
    case '.':
      return it.moveSelection('next');
    case ',':
      return it.moveSelection('previous');
    case 'e':
    case 'E':
      return it.moveSelection('otherEnd');
    case 'f':
    case 'F':
      return it.frameSelection();
    case 'w':
    case '+':
    case '=':
      it.zoom(ZOOM_STEP);
      return true;
    case 's':
    case '-':
    case '_':
      it.zoom(1 / ZOOM_STEP);
      return true;
    case 'W':
      it.zoomRows(ROW_ZOOM_STEP, hover.y);
      return true;
    case 'S':
      it.zoomRows(1 / ROW_ZOOM_STEP, hover.y);
      return true;
    case 'h':
      if (hover.row === undefined) return false;
      it.hideRow(hover.row);
      return true;
    case 'H':
      it.showAllRows();
      return true;
    case '[':
    case ']': {
      // move the row under the pointer up / down by one
      const rows = it.view().rows;
      const slot = hover.row === undefined ? -1 : slotOfRow(rows, hover.row);
      if (slot < 0) return false;
      it.moveRow(hover.row!, slot + (key === '[' ? -1 : 1));
      return true;
    }
    case 't':
    case 'T':
      it.toggleTimeslice();
      return true;
    case 'a':
    case 'A':
    case 'ArrowLeft':
      pan(-PAN_STEP);
      return true;
    case 'd':
    case 'D':
    case 'ArrowRight':
      pan(PAN_STEP);
      return true;
    case 'ArrowUp':
      if (!(alt && it.moveSelection('up'))) it.scrollRows(-step);
      return true;
    case 'ArrowDown':
      if (!(alt && it.moveSelection('down'))) it.scrollRows(step);
      return true;
    case 'PageUp':
      it.scrollRows(-it.view().height + step);
      return true;
    case 'PageDown':
      it.scrollRows(it.view().height - step);
      return true;
    case 'Home':
      it.showAll();
      return true;
    case 'z':
      it.undo();
      return true;
    case 'Z':
      it.redo();
      return true;
    default:
      return false;
  }
}
