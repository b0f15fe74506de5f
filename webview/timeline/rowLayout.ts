/**
 * Vertical virtualisation: rows have a fixed height; only rows intersecting the viewport are
 * drawn or fetched. Thousands of rows need no DOM and no tall canvas — just this arithmetic.
 */

export interface RowViewport {
  readonly rowCount: number;
  readonly rowHeight: number;
  /** Pixels scrolled from the top of row 0. */
  readonly scrollPx: number;
  readonly heightPx: number;
}

/** Rows [first, end) intersecting the viewport. */
export function visibleRows(v: RowViewport): { readonly first: number; readonly end: number } {
  const first = Math.max(0, Math.floor(v.scrollPx / v.rowHeight));
  const end = Math.min(v.rowCount, Math.ceil((v.scrollPx + v.heightPx) / v.rowHeight));
  return { first: Math.min(first, v.rowCount), end: Math.max(end, Math.min(first, v.rowCount)) };
}

export function rowTop(v: RowViewport, row: number): number {
  return row * v.rowHeight - v.scrollPx;
}

export function rowAt(v: RowViewport, y: number): number | undefined {
  const row = Math.floor((y + v.scrollPx) / v.rowHeight);
  return row >= 0 && row < v.rowCount ? row : undefined;
}

export function maxScroll(v: Pick<RowViewport, 'rowCount' | 'rowHeight' | 'heightPx'>): number {
  return Math.max(0, v.rowCount * v.rowHeight - v.heightPx);
}

export function clampScroll(v: RowViewport, scrollPx: number): number {
  return Math.max(0, Math.min(maxScroll(v), scrollPx));
}

/**
 * Vertical inset (each side) of a state at nesting `depth` in a row of height `h`, so nested
 * states are drawn inside their parents and stay at least 3 px tall.
 */
export function nestingInset(depth: number, maxDepth: number, h: number): number {
  if (depth <= 0) return 0;
  const step = Math.min(3, Math.max(0.5, (h / 2 - 1.5) / Math.max(1, maxDepth)));
  return Math.min(depth * step, h / 2 - 1.5);
}
