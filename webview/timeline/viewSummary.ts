/** What the toolbar shows of a timeline: its window, map, history, loading state, range and rows. */
import type { ArrowMode } from './drawArrows';
import type { TimeWindow } from './timeScale';
import type { TimelineView } from './viewState';
import type { WindowLoader } from './windowLoader';
import type { RowSummary } from '../RowControls';

export interface ViewSummary {
  readonly view: TimeWindow;
  readonly mapIndex: number;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  readonly loading: boolean;
  readonly error: string | undefined;
  readonly lowestDepth: number | undefined;
  readonly range: readonly [number, number] | undefined;
  readonly rows: RowSummary;
  readonly arrowMode: ArrowMode;
}

export function viewSummary(view: TimelineView, main: WindowLoader, range: readonly [number, number] | undefined, arrowMode: ArrowMode): ViewSummary {
  return {
    view: view.window,
    mapIndex: view.mapIndex,
    canUndo: view.history.canUndo,
    canRedo: view.history.canRedo,
    loading: main.loading,
    error: main.lastError,
    lowestDepth: main.loaded?.columns.header.lowestDepth,
    range,
    arrowMode,
    rows: {
      shown: view.rows.slots,
      total: view.rows.rowCount,
      rowHeight: view.rows.rowHeight,
      mode: view.rows.sizingMode.mode,
      filterText: view.rowFilterText(),
    },
  };
}
