/**
 * What is under the pointer, straight from the columnar payload (pure, no DOM). Order as in
 * Jumpshot's click-through (SLOG2.md §13): events and arrows first, then state shadows, then real
 * states — within a group the last drawn (innermost, for states) wins.
 */
import type { WindowColumns } from '../../src/protocol/wire';
import { boxHeight, nestingInset, rowPad, rowAt, rowTop, type RowViewport } from './rowLayout';

export type Hit =
  | { readonly kind: 'state'; readonly index: number }
  | { readonly kind: 'shadow'; readonly index: number }
  | { readonly kind: 'arrow'; readonly index: number }
  | { readonly kind: 'event'; readonly index: number };

const EVENT_TOLERANCE_PX = 4;
const ARROW_TOLERANCE_PX = 3;

function segmentDistance(px: number, py: number, x0: number, y0: number, x1: number, y1: number): number {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2));
  return Math.hypot(px - (x0 + t * dx), py - (y0 + t * dy));
}

/** `x` maps a payload offset to a pixel (TimeScale.offsetMapper of the payload's base). */
export function hitTest(
  c: WindowColumns,
  x: (offset: number) => number,
  rows: RowViewport,
  px: number,
  py: number,
  hidden: ReadonlySet<number> = new Set(),
): Hit | undefined {
  const row = rowAt(rows, py);
  const boxH = boxHeight(rows.rowHeight);
  const maxNest = c.header.maxNesting;

  if (row !== undefined) {
    const ev = c.events;
    for (let i = ev.time.length - 1; i >= 0; i--) {
      if (ev.row[i] !== row || hidden.has(ev.category[i]!)) continue;
      const a = x(ev.start[i]!) - EVENT_TOLERANCE_PX;
      const b = x(ev.end[i]!) + EVENT_TOLERANCE_PX;
      if (px >= a && px <= b) return { kind: 'event', index: i };
    }
  }
  const ar = c.arrows;
  const mid = rows.rowHeight / 2;
  for (let i = ar.start.length - 1; i >= 0; i--) {
    if (hidden.has(ar.category[i]!)) continue;
    const d = segmentDistance(px, py, x(ar.start[i]!), rowTop(rows, ar.fromRow[i]!) + mid, x(ar.end[i]!), rowTop(rows, ar.toRow[i]!) + mid);
    if (d <= ARROW_TOLERANCE_PX) return { kind: 'arrow', index: i };
  }
  if (row === undefined) return undefined;
  const inBox = (start: number, end: number, depth: number): boolean => {
    const x0 = x(start);
    const x1 = Math.max(x(end), x0 + 1);
    if (px < x0 || px > x1) return false;
    const inset = nestingInset(depth, maxNest, boxH);
    const top = rowTop(rows, row) + rowPad(rows.rowHeight) + inset;
    return py >= top && py <= top + boxH - 2 * inset;
  };
  const sh = c.shadows;
  for (let i = sh.start.length - 1; i >= 0; i--) {
    if (sh.row[i] === row && inBox(sh.start[i]!, sh.end[i]!, sh.depth[i]!)) return { kind: 'shadow', index: i };
  }
  const st = c.states;
  for (let i = st.start.length - 1; i >= 0; i--) {
    if (st.row[i] === row && !hidden.has(st.category[i]!) && inBox(st.start[i]!, st.end[i]!, st.depth[i]!)) return { kind: 'state', index: i };
  }
  return undefined;
}
