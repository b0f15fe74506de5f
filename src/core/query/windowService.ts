/**
 * Answering a window request, as pure functions so the extension host, the bench and the browser
 * harness share them: level of detail from the pixel width → tree depth → columnar payload.
 * (The description of an opened file is `describe.ts`.)
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import type { SiteMarker } from '../model/siteFlags';
import { chooseLowestDepth } from '../formats/slog2/levelOfDetail';
import type { WindowRequest } from './windowRequest';
import { encodeWindow, type WireWindow } from './windowColumns';
import { buildWindow, type WindowIdentities } from './buildWindow';
import { coarseDepth, nodeBudget } from './lod';
import type { RowLayout } from './rows';
import { isFormatError } from '../bytes/formatError';
import type { RowIndex } from '../index/rowIndex';
import { fileKeysOf, ScannedWindowSource } from './scannedSource';
import { IndexedWindowSource, type RowKeyMapper } from './indexedSource';

/** A trace's row index as the window service uses it; `damaged` hears a refused read (the caller drops the index). */
export interface IndexedRows {
  readonly index: RowIndex;
  readonly mapper: RowKeyMapper;
  readonly damaged: (e: Error) => void;
}

/**
 * Tree depth a request reads: the node budget follows the pixels that the fetched span covers
 * inside the trace (over-fetching beyond the trace's ends costs nothing and must not lower it).
 */
export function depthFor(file: Slog2File, r: WindowRequest): number {
  const t0 = Math.max(r.t0, file.timeRange[0]);
  const t1 = Math.min(r.t1, file.timeRange[1]);
  if (!(t0 <= t1)) return 0;
  return chooseLowestDepth(file, t0, t1, nodeBudget(r.pixelWidth, r.visibleSpan, t1 - t0));
}

/** Depth of a quick first answer for a request whose full answer reads `depth` (equal: none needed). */
export function coarseDepthFor(file: Slog2File, r: WindowRequest, depth: number): number {
  return coarseDepth(file, Math.max(r.t0, file.timeRange[0]), Math.min(r.t1, file.timeRange[1]), depth);
}

/** Cache key of a request once its depth is known (identical payloads share it). */
export function payloadKey(r: WindowRequest, rowEnd: number, depth: number): string {
  return `${r.mapIndex}|${r.t0}|${r.t1}|${r.rowStart}|${rowEnd}|${depth}`;
}

/** Validates a request against the file; undefined when it is malformed. */
export function checkRequest(layouts: readonly RowLayout[], r: WindowRequest): RowLayout | undefined {
  const layout = layouts[r.mapIndex];
  if (layout === undefined || !(r.t0 < r.t1) || r.rowStart < 0 || r.rowEnd < r.rowStart || !(r.pixelWidth > 0)) return undefined;
  return layout;
}

/**
 * The payload of a request. With a row index and a request for part of the rows, the drawables
 * are read through the index (the same payload, at a cost that follows the rows asked); a
 * damaged index is reported through `rows.damaged` and the plain query answers instead.
 */
export async function buildRequestedWindow(
  file: Slog2File,
  layout: RowLayout,
  r: WindowRequest,
  depth: number,
  signal?: AbortSignal,
  rows?: IndexedRows,
  marks?: SiteMarker,
  identities?: { set(ids: WindowIdentities): void },
): Promise<WireWindow> {
  const rowEnd = Math.min(r.rowEnd, layout.labels.length);
  const spec = {
    t0: r.t0,
    t1: r.t1,
    rowStart: r.rowStart,
    rowEnd,
    mapIndex: r.mapIndex,
    lowestDepth: depth,
    rowOfLine: layout.rowOfLine,
    ...(marks ? { marks } : {}),
  };
  const ranges = rows !== undefined && rowEnd - r.rowStart < layout.labels.length ? rows.mapper.keyRanges(layout, r.mapIndex, r.rowStart, rowEnd) : undefined;
  if (rows !== undefined && ranges !== undefined) {
    try {
      const w = await buildWindow(new IndexedWindowSource(rows.index, ranges), spec, signal, identities);
      return encodeWindow({ ...w, header: { ...w.header, viaRowIndex: true } });
    } catch (e) {
      if (!isFormatError(e)) throw e;
      rows.damaged(e);
    }
  }
  // A wide trace without its row index (the first open, while it is built): only the asked rows'
  // entries are parsed, from scanned node bytes (the plain query parses every row's).
  if (layout.labels.length >= SCAN_MIN_ROWS && (rowEnd - r.rowStart) * SCAN_MAX_SHARE <= layout.labels.length) {
    const keys = fileKeysOf(file);
    const keyRanges = keys.keyRanges(layout, r.mapIndex, r.rowStart, rowEnd);
    if (keyRanges !== undefined) return encodeWindow(await buildWindow(new ScannedWindowSource(file, keys, keyRanges), spec, signal, identities));
  }
  return encodeWindow(await buildWindow(file, spec, signal, identities));
}

/**
 * Whether buildRequestedWindow answers with the plain query over a wide map: it then parses every
 * row's drawables of the nodes it reads (seconds at 10^4 rows, in synchronous stretches of a node
 * each). Few rows go through the row index or scanned node bytes instead.
 */
export function readsEveryRow(rows: number, rowStart: number, rowEnd: number, indexed: boolean): boolean {
  if (rows < SCAN_MIN_ROWS) return false;
  const asked = Math.min(rowEnd, rows) - rowStart;
  return indexed ? asked >= rows : asked * SCAN_MAX_SHARE > rows;
}

/** Scanned windows (see above) for maps of at least this many rows… */
const SCAN_MIN_ROWS = 256;
/** …asking at most 1/SCAN_MAX_SHARE of them (more rows gain little over the plain query's node cache). */
const SCAN_MAX_SHARE = 4;

/**
 * Reads the few top tree nodes (those of a coarse whole-trace answer) right after open, while the
 * webview is still starting, so its first request finds them parsed.
 */
export async function prewarmTopNodes(file: Slog2File, signal?: AbortSignal): Promise<void> {
  const [t0, t1] = file.timeRange;
  const depth = coarseDepth(file, t0, t1, 0);
  try {
    for await (const _slice of file.query(t0, t1, { lowestDepth: depth, ...(signal ? { signal } : {}) })) {
      // reading is the point: the reader keeps the parsed nodes in its cache
    }
  } catch (e) {
    // the window request that reads the same node reports it to the user; keep a note here
    if (!signal?.aborted) file.warnings.push(`reading the top tree nodes: ${e instanceof Error ? e.message : String(e)}`);
  }
}
