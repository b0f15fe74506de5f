/**
 * When the event heads' pixel layer (eventHeads.ts) is kept from the last frame: what its pixels
 * depend on besides the view's time offset, and how far a pan moved them. No DOM (node tests).
 */

/**
 * What the heads' pixels depend on besides the time offset of the view: while all of it stays
 * the same and the view moves by whole pixels, the last frame's heads are moved, not redrawn.
 */
export interface HeadsView {
  /** The payload (its columns) and palette (colours, hidden categories) drawn: by identity. */
  readonly payload: object;
  readonly palette: object;
  readonly width: number;
  readonly heightPx: number;
  readonly scale: number;
  /** The visible slot of each payload row (rowLayout.visibleSlots: the rows' order and which are shown), by content. */
  readonly slots: Int32Array;
  /** Rows: first visible, end, scroll offset and height (CSS px). */
  readonly first: number;
  readonly end: number;
  readonly scrollPx: number;
  readonly rowHeight: number;
  /** x = shift + offset · k (CSS px): the same k (to rounding), and shift moved by a whole number of device pixels. */
  readonly k: number;
  readonly shift: number;
}

/**
 * The same scale: k recomputed from a panned window may differ in its last bits, moving nothing by
 * more than 1e-6 px over the view (x = shift + offset · k; also panAnchor.ts, stateMarks.ts).
 */
export function sameScale(k0: number, k: number, shift: number, width: number): boolean {
  return Math.abs(k - k0) * ((Math.abs(shift) + width) / Math.abs(k)) <= 1e-6;
}

/** How far (device px) the heads of `last` moved to be those of `next`, if only the view's time offset changed by whole pixels. */
export function headsMovedBy(last: HeadsView | undefined, next: HeadsView): number | undefined {
  if (last === undefined) return undefined;
  if (
    last.payload !== next.payload ||
    last.palette !== next.palette ||
    last.width !== next.width ||
    last.heightPx !== next.heightPx ||
    last.scale !== next.scale ||
    last.first !== next.first ||
    last.end !== next.end ||
    last.scrollPx !== next.scrollPx ||
    last.rowHeight !== next.rowHeight ||
    !sameScale(last.k, next.k, next.shift, next.width) ||
    !sameSlots(last.slots, next.slots)
  )
    return undefined;
  // whole CSS px (a head's column, rounded in CSS px, moves with it) and whole device px (its mask's sub-pixel offset stays)
  const css = next.shift - last.shift;
  const dev = css * next.scale;
  const tolerance = 1e-6;
  if (Math.abs(css - Math.round(css)) > tolerance || Math.abs(dev - Math.round(dev)) > tolerance) return undefined;
  const dx = Math.round(dev);
  return Math.abs(dx) < Math.ceil(next.width * next.scale) ? dx : undefined;
}

/** Rows reordered, hidden or shown move heads up and down: the slots must be the same (also stateMarks.ts). */
export function sameSlots(a: Int32Array, b: Int32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
