/**
 * Quantised, over-fetched window keys (Perfetto's BufferedBounds idea, SLOG2.md §13's "read more
 * than the visible range"). The visible span is rounded up to a power-of-two "bucket" of time;
 * the fetched span is the bucket-aligned range around the view padded by one bucket on each side
 * (≥ 3× the visible span). Rows are fetched in aligned blocks with one block of margin. As long
 * as the view stays inside the fetched range at the same bucket size, the key is unchanged, so
 * small pans need no request at all; zooming by less than 2× usually keeps the key too.
 */

export const ROW_BLOCK = 64;
/** Smallest visible span the view allows (1 ns), also limited by float64 precision near `t`. */
export const MIN_SPAN_SEC = 1e-9;

export interface VisibleWindow {
  readonly t0: number;
  readonly t1: number;
  /** Visible rows [rowStart, rowEnd). */
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly rowCount: number;
  readonly mapIndex: number;
  readonly pixelWidth: number;
}

export interface WindowKey {
  /** log2 of the time bucket (seconds). */
  readonly level: number;
  /** Bucket index of the fetched span's start. */
  readonly index: number;
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly mapIndex: number;
  /** log2 bucket of the pixel width (LOD depends on pixels per second). */
  readonly widthLevel: number;
}

/**
 * The smallest span allowed around time `t`: float64 resolves |t|·2^-52, and a view needs a few
 * thousand pixels with several distinct values each, hence |t|·2^-52·2^13.
 */
export function minSpanAt(t: number): number {
  return Math.max(MIN_SPAN_SEC, Math.abs(t) * 2 ** -39);
}

export function windowKeyFor(v: VisibleWindow): WindowKey {
  const span = Math.max(v.t1 - v.t0, minSpanAt(v.t0));
  const level = Math.ceil(Math.log2(span)) + 0; // + 0 turns -0 into 0
  const bucket = 2 ** level;
  const index = Math.floor(v.t0 / bucket) - 1;
  const rowStart = Math.max(0, (Math.floor(v.rowStart / ROW_BLOCK) - 1) * ROW_BLOCK);
  const rowEnd = Math.min(v.rowCount, (Math.ceil(v.rowEnd / ROW_BLOCK) + 1) * ROW_BLOCK);
  const widthLevel = Math.max(0, Math.round(Math.log2(Math.max(1, v.pixelWidth))));
  return { level, index, rowStart, rowEnd: Math.max(rowStart, rowEnd), mapIndex: v.mapIndex, widthLevel };
}

/** Fetched time span of a key: four buckets starting at bucket `index` (covers the view with ≥ 1 bucket margin). */
export function keySpan(k: WindowKey): readonly [number, number] {
  const bucket = 2 ** k.level;
  return [k.index * bucket, (k.index + 4) * bucket];
}

export function keyId(k: WindowKey): string {
  return `${k.mapIndex}:${k.level}:${k.index}:${k.rowStart}-${k.rowEnd}:${k.widthLevel}`;
}

export function sameKey(a: WindowKey, b: WindowKey): boolean {
  return keyId(a) === keyId(b);
}

/** Pixel width a key was computed for (used for the node budget). */
export function keyPixelWidth(k: WindowKey): number {
  return 2 ** k.widthLevel;
}

/** True when data fetched for `[t0,t1] × [rowStart,rowEnd)` covers the whole visible window. */
export function covers(fetched: { readonly t0: number; readonly t1: number; readonly rowStart: number; readonly rowEnd: number }, v: VisibleWindow): boolean {
  return fetched.t0 <= v.t0 && v.t1 <= fetched.t1 && fetched.rowStart <= v.rowStart && v.rowEnd <= fetched.rowEnd;
}

/** The host's payload cache is the one bounded LRU map, keyed by `keyId` (re-exported for it). */
export { LruCache } from '../bytes/lruCache';

/** The request fields of a visible window: its key's fetched span and rows (the webview's loader and the host's first-window push build requests alike). */
export function requestOf(v: VisibleWindow): {
  readonly key: WindowKey;
  readonly request: { t0: number; t1: number; rowStart: number; rowEnd: number; mapIndex: number; pixelWidth: number; visibleSpan: number };
} {
  const key = windowKeyFor(v);
  const [t0, t1] = keySpan(key);
  return { key, request: { t0, t1, rowStart: key.rowStart, rowEnd: key.rowEnd, mapIndex: key.mapIndex, pixelWidth: v.pixelWidth, visibleSpan: v.t1 - v.t0 } };
}

/**
 * What a fresh webview (no saved view) tells the host with `ready`, so the host can build its first
 * timeline window while `init` is on its way: the plot's size and the 'auto' row sizing's two
 * heights (rows fit when each gets `minFitRowPx`, else `rowPx` each, scrolled from the top).
 */
export interface FirstViewHint {
  readonly pixelWidth: number;
  readonly heightPx: number;
  readonly minFitRowPx: number;
  readonly rowPx: number;
}

/**
 * The first visible window of a fresh view of `rowCount` rows: the whole time range, the rows from
 * the top that 'auto' sizing shows. The webview computes the same from its init (viewState.ts,
 * rowLayout.ts); a host prediction that differs only costs the pushed window being unused.
 */
export function predictFirstWindow(h: FirstViewHint, timeRange: readonly [number, number], rowCount: number, mapIndex: number): VisibleWindow {
  const [t0, end] = timeRange;
  const t1 = end > t0 ? end : t0 + 1e-6;
  const fits = rowCount > 0 && h.heightPx / rowCount >= h.minFitRowPx;
  const rowEnd = fits ? rowCount : Math.min(rowCount, Math.ceil(h.heightPx / h.rowPx));
  return { t0, t1, rowStart: 0, rowEnd, rowCount, mapIndex, pixelWidth: h.pixelWidth };
}

/**
 * The timeline's 'auto' row heights (webview rowLayout.ts): rows fit the plot when each gets at
 * least MIN_AUTO_FIT_PX, else they are DEFAULT_ROW_PX and scroll. Kept here, not in the webview,
 * because the host predicts a page's first window from them (DEFAULT_FIRST_VIEW).
 */
export const DEFAULT_ROW_PX = 20;
export const MIN_AUTO_FIT_PX = 14;

/**
 * The plot a fresh page is guessed to have when no page has told its own (the first page since
 * the extension started, with none remembered from earlier sessions): an editor plot of 1024 ×
 * 600 px with the 'auto' row heights. Window keys are coarse — plots 724 to 1448 px wide share
 * one, and up to ROW_BLOCK rows the height does not change it — so the guess mostly holds; a miss
 * costs only the window built for it.
 */
export const DEFAULT_FIRST_VIEW: FirstViewHint = { pixelWidth: 1024, heightPx: 600, minFitRowPx: MIN_AUTO_FIT_PX, rowPx: DEFAULT_ROW_PX };

/** A hint from the wire is used only when every field is a positive finite number. */
export function isFirstViewHint(x: unknown): x is FirstViewHint {
  if (typeof x !== 'object' || x === null) return false;
  const h = x as Record<string, unknown>;
  return ['pixelWidth', 'heightPx', 'minFitRowPx', 'rowPx'].every((k) => typeof h[k] === 'number' && Number.isFinite(h[k]) && (h[k] as number) > 0);
}
