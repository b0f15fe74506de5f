/**
 * The time offset a data frame is drawn at (drawData.ts). A pan by whole pixels should move the
 * last frame's pixels rigidly, so that the kept parts (the states' marks, stateMarks.ts; the event
 * heads' layer, headsView.ts) can be moved instead of drawn again. But a dragged window is
 * recomputed from its times, whose last bits are thousandths of a pixel when zoomed in on a
 * trace with large times (the viewport bench: 8.0000058 px a move), so the view's shift is never
 * the last one plus whole pixels. Here a shift within PAN_SLACK_PX of that is taken as exactly
 * that; any other is put on a grid of 2⁻¹⁶ px, so that the kept shift plus whole pixels is exact.
 * The frame is then drawn up to PAN_SLACK_PX from the view's own shift: nothing a pixel shows.
 * No DOM (node tests).
 */
import type { OffsetMap } from './timeScale';

/** How far the drawn shift may be from the view's while a pan is taken as whole pixels (CSS px). */
export const PAN_SLACK_PX = 1 / 64;
/** The same scale: k recomputed from a panned window may differ in its last bits (moving nothing by this much over the view). */
const SAME_SCALE_PX = 1e-6;

/** `shift` on a grid of 2⁻¹⁶ CSS px (a whole number of pixels added to it stays on the grid, exactly). */
export function gridShift(shift: number): number {
  return Math.round(shift * 65536) / 65536;
}

export class PanAnchor {
  private last: { readonly payload: object; readonly k: number; readonly shift: number } | undefined;

  /** The offset map to draw `payload` at for the view's `map`, `width` CSS px wide. */
  drawnMap(payload: object, map: OffsetMap, width: number): OffsetMap {
    const last = this.last;
    let shift = gridShift(map.shift);
    if (last !== undefined && last.payload === payload && Math.abs(map.k - last.k) * ((Math.abs(map.shift) + width) / Math.abs(map.k)) <= SAME_SCALE_PX) {
      const dx = Math.round(map.shift - last.shift);
      if (Math.abs(map.shift - (last.shift + dx)) <= PAN_SLACK_PX) shift = last.shift + dx;
    }
    this.last = { payload, k: map.k, shift };
    return { shift, k: map.k };
  }
}
