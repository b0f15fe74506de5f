/**
 * Warms the data layer's code while the view rests, once per webview: the frames a first drag and
 * wheel zoom would draw (pans by whole pixels, zooms in, pans at the deepest zoom, then the view
 * itself) are drawn from the loaded payload into a detached canvas of the plot's size, one frame
 * per idle period. Why: V8 compiles a path when it first runs, and the frames before a first drag
 * are full scans, so the drag's first frame (the kept marks moved, stateMarks.ts) ran cold: 20–32
 * ms in the viewport bench's drag, against ~14 ms for its other frames (README, frames).
 *
 * Nothing a warm-up frame leaves behind shows: the canvas it draws is never shown, and the caches
 * its frames fill (kept marks, heads, the pan anchor) are checked against each frame's view by
 * their owners, as they are between any two frames; its last frame is the view itself. Any real
 * data frame puts it off until the view has rested QUIET_MS again (the user's frames warm the
 * code then), so it never competes with them.
 */
import { TimeScale } from './timeScale';

/** The view must have rested this long (no data frame) before a warm-up frame is drawn. */
export const QUIET_MS = 400;
/** A warm-up frame is drawn only when the idle period has this long left. */
const MIN_IDLE_MS = 20;
/**
 * Pans of PAN_PX each (half of them one way, then back: a drag's frames take other branches in
 * each direction), zooms in by ZOOM_STEP each, DEEP_PAN_FRAMES more pans there, then the view.
 */
const PAN_FRAMES = 12;
const PAN_PX = 8;
const ZOOM_FRAMES = 6;
const ZOOM_STEP = 1.6;
const DEEP_PAN_FRAMES = 4;
export const WARM_UP_FRAMES = PAN_FRAMES + ZOOM_FRAMES + DEEP_PAN_FRAMES + 1;

/**
 * Where pan `i` of `n` leaves the view, px: PAN_PX further each for the first half, then PAN_PX back
 * each (it was one way only, and the bench's drag the other way: its first frame took a branch
 * the warm-up never had, and the data layer's main function was thrown back to unoptimised code).
 */
function panPx(i: number, n: number): number {
  return (i < n >> 1 ? i + 1 : n - 1 - i) * PAN_PX;
}

/** The scale of warm-up frame `step` (0 ≤ step < WARM_UP_FRAMES) for a view at `view`. */
export function warmUpScale(step: number, view: TimeScale): TimeScale {
  const span = view.t1 - view.t0;
  const secPerPx = span / view.widthPx;
  if (step < PAN_FRAMES) {
    const dt = panPx(step, PAN_FRAMES) * secPerPx;
    return new TimeScale(view.t0 - dt, view.t1 - dt, view.widthPx);
  }
  if (step >= WARM_UP_FRAMES - 1) return view;
  const zoom = Math.min(step - PAN_FRAMES + 1, ZOOM_FRAMES);
  const deepSpan = span / ZOOM_STEP ** zoom;
  const deepStep = step - PAN_FRAMES - ZOOM_FRAMES;
  const pan = (deepStep < 0 ? 0 : panPx(deepStep, DEEP_PAN_FRAMES)) * (deepSpan / view.widthPx);
  const mid = (view.t0 + view.t1) / 2 - pan;
  return new TimeScale(mid - deepSpan / 2, mid + deepSpan / 2, view.widthPx);
}

/** What the warm-up draws with: the owner's frames and scratch canvas. */
export interface WarmUpTarget {
  /**
   * Draws warm-up frame `step` of the current payload at warmUpScale(step, the view), as a real
   * frame would be drawn, into a canvas never shown; false when there is nothing to warm now (no
   * final payload, or a painter other than canvas2d).
   */
  draw(step: number): boolean;
  /** The warm-up is done, or waits for a payload: the scratch canvas's pixels may go. */
  release(): void;
}

/** The page's idle callbacks (requestIdleCallback), `fn` given the time left in the idle period. */
export interface IdleCallbacks {
  request(fn: (timeLeftMs: number) => void): number;
  cancel(id: number): void;
}

export class DataWarmUp {
  private step = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private idle: number | undefined;

  constructor(
    private readonly target: WarmUpTarget,
    private readonly idleCallbacks: IdleCallbacks,
  ) {}

  /** Frames still to draw. */
  get remaining(): number {
    return WARM_UP_FRAMES - this.step;
  }

  /** A real data frame was drawn: put the warm-up off until the view has rested QUIET_MS. */
  afterFrame(): void {
    this.pause();
    // a harness may ask for none (`__mpeNoWarmUp`: the viewport bench's baseline)
    if (this.remaining <= 0 || (globalThis as { __mpeNoWarmUp?: boolean }).__mpeNoWarmUp === true) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.whenIdle();
    }, QUIET_MS);
  }

  dispose(): void {
    this.pause();
    this.step = WARM_UP_FRAMES;
    this.target.release();
  }

  private pause(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.idle !== undefined) this.idleCallbacks.cancel(this.idle);
    this.timer = this.idle = undefined;
  }

  private whenIdle(): void {
    this.idle = this.idleCallbacks.request((left) => this.next(left));
  }

  private next(timeLeftMs: number): void {
    this.idle = undefined;
    // a frame takes up to ~30 ms cold: only in a long idle period (up to 50 ms where nothing is due)
    if (timeLeftMs < MIN_IDLE_MS) return this.whenIdle();
    let drawn: boolean;
    try {
      drawn = this.target.draw(this.step);
    } catch (e) {
      // no more warming (the frame would throw as a real one too); the error is reported as any other
      this.dispose();
      throw e;
    }
    if (drawn) this.step++;
    // nothing to warm now (no payload, a GL painter): the next real frame asks again
    if (drawn && this.remaining > 0) this.whenIdle();
    else this.target.release();
  }
}
