/**
 * The time offset a data frame is drawn at (drawData.ts). A pan by whole pixels moves the last
 * frame's state marks (stateMarks.ts) instead of scanning every state again, and that must give
 * the marks a full scan of the same view gives. A dragged window is recomputed from its times, so
 * its shift is the last one plus whole pixels only to rounding (a few ulps here; a time's last bit
 * is ulp(t)·k px, ~0.002 px at t ≈ 10⁴ s zoomed to a nanosecond a pixel), and a state's column is a
 * floor: one starting exactly on a pixel's edge (nice times at a nice scale) falls on either side
 * of it with a shift a few ulps off. So a shift within PAN_SLACK_PX of the last one plus whole
 * pixels is drawn at exactly that, and any other on a grid of 2⁻¹⁶ px, where whole pixels added
 * stay exact. The frame is then drawn up to PAN_SLACK_PX from the view's own shift: nothing a
 * pixel shows. No DOM (node tests).
 */
import type { OffsetMap } from './timeScale';
import { sameScale } from './headsView';

/** How far the drawn shift may be from the view's while a pan is taken as whole pixels (CSS px). */
export const PAN_SLACK_PX = 1 / 64;

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
    if (last !== undefined && last.payload === payload && sameScale(last.k, map.k, map.shift, width)) {
      const dx = Math.round(map.shift - last.shift);
      if (Math.abs(map.shift - (last.shift + dx)) <= PAN_SLACK_PX) shift = last.shift + dx;
    }
    this.last = { payload, k: map.k, shift };
    return { shift, k: map.k };
  }
}
