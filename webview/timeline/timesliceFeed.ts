/**
 * The timeslice panel's feed: what every shown row is doing at the cursor's time, recomputed at
 * most once per frame while the panel listens (the visible rows first, at most TIMESLICE_MAX_ROWS).
 */
import type { WindowLoader } from './windowLoader';
import type { TimelineView } from './viewState';
import { formatTime, niceTicks } from './timeScale';
import { timesliceAt, type SliceRow } from './timeslice';

/** What every shown row is doing at one time (the timeslice panel). */
export interface Timeslice {
  readonly time: number;
  readonly timeText: string;
  readonly rows: readonly SliceRow[];
  readonly more: number;
}

/** The timeslice lists at most this many rows (the visible ones first). */
const TIMESLICE_MAX_ROWS = 200;

export class TimesliceFeed {
  private listener: ((s: Timeslice | undefined) => void) | undefined;
  private pending = false;

  constructor(
    private readonly view: TimelineView,
    private readonly main: WindowLoader,
    /** The pointer's x over the plot (undefined: not over it). */
    private readonly hoverX: () => number | undefined,
    private readonly hidden: () => ReadonlySet<number>,
  ) {}

  listen(f: ((s: Timeslice | undefined) => void) | undefined): void {
    this.listener = f;
    this.schedule();
  }

  /** The cursor or the view moved: recompute in the next frame (once), if someone listens. */
  schedule(): void {
    if (!this.listener || this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      const x = this.hoverX();
      if (!this.listener || x === undefined) return;
      this.listener(this.at(this.view.scale().pxToTime(x)));
    });
  }

  /** What every shown row is doing at `t`. */
  at(t: number): Timeslice | undefined {
    const loaded = this.main.drawableFor(this.view.visible());
    if (!loaded) return undefined;
    const rows = this.view.rowViewport();
    const first = Math.max(0, Math.floor(rows.scrollPx / rows.rowHeight));
    const shown = this.view.rows.shownRows();
    const list = shown.slice(first, first + TIMESLICE_MAX_ROWS);
    const ticks = niceTicks(this.view.scale(), 90);
    return {
      time: t,
      timeText: formatTime(t, ticks.step, ticks.step / 100),
      rows: timesliceAt(loaded.columns, t, list, this.hidden()),
      more: shown.length - list.length,
    };
  }
}
