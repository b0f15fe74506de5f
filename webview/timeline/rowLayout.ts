/**
 * Vertical layout of the timeline (pure arithmetic, no DOM). Rows of the Y map are shown in
 * display slots: `order` lists the shown rows top to bottom (rows can be hidden and moved), every
 * slot has the same height, and only slots intersecting the viewport are drawn or fetched.
 * Slots may be thinner than a pixel ("fit all rows" of a 10 000-rank run): the painters then
 * aggregate them per pixel row (see density.ts).
 */
// The 'auto' row heights live with the window keys: the host predicts a page's first window from them.
import { DEFAULT_ROW_PX, MIN_AUTO_FIT_PX } from '../../src/core/query/windowKey';

export { DEFAULT_ROW_PX, MIN_AUTO_FIT_PX };

export interface RowViewport {
  /** Number of display slots (shown rows). */
  readonly rowCount: number;
  /** CSS px per slot; may be < 1 (aggregated). */
  readonly rowHeight: number;
  /** Pixels scrolled from the top of slot 0. */
  readonly scrollPx: number;
  readonly heightPx: number;
  /** Slot → row of the Y map; absent = identity (every row, in file order). */
  readonly order?: ArrayLike<number>;
  /** Row of the Y map → slot, −1 when hidden; absent = identity. */
  readonly slotOf?: ArrayLike<number>;
}

/** Slots [first, end) intersecting the viewport. */
export function visibleRows(v: RowViewport): { readonly first: number; readonly end: number } {
  const first = Math.max(0, Math.floor(v.scrollPx / v.rowHeight));
  const end = Math.min(v.rowCount, Math.ceil((v.scrollPx + v.heightPx) / v.rowHeight));
  return { first: Math.min(first, v.rowCount), end: Math.max(end, Math.min(first, v.rowCount)) };
}

/** The slot of row `row`, or −1 when it is hidden or out of range. */
export function slotOfRow(v: RowViewport, row: number): number {
  if (v.slotOf) return row >= 0 && row < v.slotOf.length ? v.slotOf[row]! : -1;
  return row >= 0 && row < v.rowCount ? row : -1;
}

export function rowOfSlot(v: RowViewport, slot: number): number {
  return v.order ? v.order[slot]! : slot;
}

/** Top of row `row` in the viewport (CSS px); NaN when the row is hidden. */
export function rowTop(v: RowViewport, row: number): number {
  const slot = slotOfRow(v, row);
  return slot < 0 ? Number.NaN : slot * v.rowHeight - v.scrollPx;
}

export function slotAt(v: RowViewport, y: number): number | undefined {
  const slot = Math.floor((y + v.scrollPx) / v.rowHeight);
  return slot >= 0 && slot < v.rowCount ? slot : undefined;
}

/** The shown rows whose slots lie between plot y0 and y1 (a region's rows), in slot order. */
export function rowsBetween(v: RowViewport, y0: number, y1: number): number[] {
  const first = Math.max(0, Math.floor((Math.min(y0, y1) + v.scrollPx) / v.rowHeight));
  const last = Math.min(v.rowCount - 1, Math.floor((Math.max(y0, y1) + v.scrollPx) / v.rowHeight));
  const out: number[] = [];
  for (let s = first; s <= last; s++) out.push(rowOfSlot(v, s));
  return out;
}

/** The row of the Y map at `y`. */
export function rowAt(v: RowViewport, y: number): number | undefined {
  const slot = slotAt(v, y);
  return slot === undefined ? undefined : rowOfSlot(v, slot);
}

export function maxScroll(v: Pick<RowViewport, 'rowCount' | 'rowHeight' | 'heightPx'>): number {
  return Math.max(0, v.rowCount * v.rowHeight - v.heightPx);
}

export function clampScroll(v: RowViewport, scrollPx: number): number {
  return Math.max(0, Math.min(maxScroll(v), scrollPx));
}

/** Rows of the Y map [start, end) spanning the visible slots (what a window request must cover). */
export function visibleRowSpan(v: RowViewport): { readonly start: number; readonly end: number } {
  const { first, end } = visibleRows(v);
  if (!v.order) return { start: first, end };
  let lo = Infinity;
  let hi = -Infinity;
  for (let s = first; s < end; s++) {
    const r = v.order[s]!;
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  return lo > hi ? { start: 0, end: 0 } : { start: lo, end: hi + 1 };
}

// ---- row height -----------------------------------------------------------------------------

/**
 * How rows are sized: `auto` fits all rows when each gets at least MIN_AUTO_FIT_PX (else
 * DEFAULT_ROW_PX with scrolling); `fit` always fits every row (sub-pixel rows are aggregated);
 * `fixed` is a chosen height with scrolling.
 */
export type RowSizing = { readonly mode: 'auto' } | { readonly mode: 'fit' } | { readonly mode: 'fixed'; readonly px: number };

/** One row alone does not need the whole editor (Jumpshot's rows stop growing too). */
export const MAX_FIT_ROW_PX = 220;
export const MIN_ROW_PX = 1 / 64;
export const MAX_ROW_PX = 400;
/** Below this slot height the painters aggregate slots per pixel row. */
export const AGGREGATE_BELOW_PX = 2;

export function rowHeightFor(sizing: RowSizing, slots: number, heightPx: number): number {
  const fit = slots > 0 ? heightPx / slots : MAX_FIT_ROW_PX;
  switch (sizing.mode) {
    case 'fit':
      return clampRowPx(Math.min(MAX_FIT_ROW_PX, fit));
    case 'fixed':
      return clampRowPx(sizing.px);
    case 'auto':
      return fit >= MIN_AUTO_FIT_PX ? Math.min(MAX_FIT_ROW_PX, fit) : DEFAULT_ROW_PX;
  }
}

function clampRowPx(px: number): number {
  return Math.max(MIN_ROW_PX, Math.min(MAX_ROW_PX, Number.isFinite(px) ? px : DEFAULT_ROW_PX));
}

/**
 * Vertical zoom by `factor` from the current height. Zooming out never goes below "all rows fit"
 * (then the sizing becomes `fit`), zooming in past the fit height gives a fixed height.
 */
export function zoomRows(current: number, factor: number, slots: number, heightPx: number): RowSizing {
  const fit = slots > 0 ? heightPx / slots : MAX_FIT_ROW_PX;
  const next = current * factor;
  if (next <= fit * 1.0001) return { mode: 'fit' };
  return { mode: 'fixed', px: clampRowPx(Math.round(next * 1000) / 1000) };
}

/** Keeps the slot under `anchorY` (viewport px) in place when the row height changes. */
export function scrollForZoom(oldHeight: number, newHeight: number, scrollPx: number, anchorY: number): number {
  return ((scrollPx + anchorY) / oldHeight) * newHeight - anchorY;
}

// ---- boxes inside a row ---------------------------------------------------------------------

/** Jumpshot's STATE_HEIGHT_FACTOR (a state fills 90 % of its row) and NESTING_HEIGHT_FACTOR. */
export const STATE_HEIGHT_FACTOR = 0.9;
export const NESTING_HEIGHT_FACTOR = 0.8;
/** The innermost level keeps at least this share of the row box, however deep the nesting. */
export const MIN_INNER_FRACTION = 0.35;
/** Rows lower than this draw nested states full height (the innermost paints over). */
const MIN_NESTING_ROW_PX = 6;

/** Space above and below the state box in a row of `rowH` px. */
export function rowPad(rowH: number): number {
  if (rowH < MIN_NESTING_ROW_PX) return 0;
  return Math.min(6, Math.max(1, Math.round((rowH * (1 - STATE_HEIGHT_FACTOR)) / 2)));
}

/** Height of the box of depth-0 states in a row of `rowH` px. */
export function boxHeight(rowH: number): number {
  return rowH - 2 * rowPad(rowH);
}

/**
 * Vertical inset (each side) of a state at nesting `depth` in a box of height `h`: each level is
 * NESTING_HEIGHT_FACTOR of its parent (or less shrinkage when the nesting is deep, so the
 * innermost keeps MIN_INNER_FRACTION), so outer levels show as bands and the innermost state is
 * the largest readable area.
 */
export function nestingInset(depth: number, maxDepth: number, h: number): number {
  if (depth <= 0 || h < MIN_NESTING_ROW_PX) return 0;
  const levels = Math.max(1, maxDepth);
  const f = Math.max(NESTING_HEIGHT_FACTOR, MIN_INNER_FRACTION ** (1 / levels));
  const inner = h * f ** Math.min(depth, levels);
  return (h - inner) / 2;
}

/** The y part of a 2D transform (device y = user y · d + f): a context's getTransform(). */
export interface YTransform {
  readonly d: number;
  readonly f: number;
}

/** User y `v` moved to the nearest device pixel edge under `m`. */
export function snapY(m: YTransform, v: number): number {
  return (Math.round(v * m.d + m.f) - m.f) / m.d;
}

/**
 * A box over user y [top, top + height) with its edges on the nearest device pixel edges (at
 * least one device row tall), as [top, bottom]: states are drawn so, as preview boxes are, so
 * that a box's fill and its border (drawn on whole pixels) agree and no edge is a half-covered
 * row, and the column strips paint one line a row (columnStrips.ts).
 */
export function deviceBand(m: YTransform, top: number, height: number, out: [number, number]): [number, number] {
  const y0 = Math.round(top * m.d + m.f);
  const y1 = Math.max(y0 + 1, Math.round((top + height) * m.d + m.f));
  out[0] = (y0 - m.f) / m.d;
  out[1] = (y1 - m.f) / m.d;
  return out;
}

/** Slot of each row for a drawing loop (−1: not shown), without a per-row search. */
export function slotLookup(rows: RowViewport): (row: number) => number {
  const so = rows.slotOf;
  const n = rows.rowCount;
  return so ? (row) => (row < so.length ? so[row]! : -1) : (row) => (row < n ? row : -1);
}

/**
 * The visible slot of each row in [rowStart, rowEnd) (index row − rowStart), −1 for rows hidden
 * or out of view: a table for loops over a payload's drawables.
 */
export function visibleSlots(rows: RowViewport, rowStart: number, rowEnd: number): Int32Array {
  const { first, end } = visibleRows(rows);
  const slotOf = slotLookup(rows);
  const out = new Int32Array(Math.max(0, rowEnd - rowStart)).fill(-1);
  for (let r = Math.max(0, rowStart); r < rowEnd; r++) {
    const s = slotOf(r);
    if (s >= first && s < end) out[r - rowStart] = s;
  }
  return out;
}
