/**
 * The host's check of every message from a timeline webview (src/protocol/webview.ts): it crosses a
 * trust boundary as `unknown`, so each field is checked for type, range and size before use.
 */
import { TOOLBAR_COMMANDS, type DrawableRef, type Rgb, type SearchRequestQuery, type WebviewToHost } from './webview';
import { isFirstViewHint } from '../core/query/windowKey';

/** Structural check of a message from the other side (it crosses a trust boundary as `unknown`). */
export function isWebviewToHost(x: unknown): x is WebviewToHost {
  if (typeof x !== 'object' || x === null) return false;
  const kind = (x as { kind?: unknown }).kind;
  switch (kind) {
    case 'ready': {
      const { firstView, booted } = x as { firstView?: unknown; booted?: unknown };
      return (firstView === undefined || isFirstViewHint(firstView)) && (booted === undefined || Number.isSafeInteger(booted));
    }
    case 'requestWindow': {
      const m = x as { requestId?: unknown; generation?: unknown; request?: unknown; channel?: unknown };
      if (typeof m.requestId !== 'number' || typeof m.generation !== 'number' || (m.channel !== 'main' && m.channel !== 'overview')) return false;
      const r = m.request as Record<string, unknown> | undefined;
      return (
        typeof r === 'object' &&
        r !== null &&
        ['t0', 't1', 'rowStart', 'rowEnd', 'mapIndex', 'pixelWidth', 'visibleSpan'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k]))
      );
    }
    case 'cancelWindow':
      return typeof (x as { requestId?: unknown }).requestId === 'number';
    case 'viewState': {
      const m = x as { state?: Record<string, unknown>; moved?: unknown; syncSeq?: unknown };
      const s = m.state;
      const view = typeof s === 'object' && s !== null && ['t0', 't1', 'mapIndex', 'scrollRow'].every((k) => typeof s[k] === 'number') && isRowFields(s);
      return view && typeof m.moved === 'boolean' && isCount(m.syncSeq);
    }
    case 'painted': {
      const m = x as { drawables?: unknown; frameMs?: unknown; generation?: unknown };
      return typeof m.drawables === 'number' && typeof m.frameMs === 'number' && typeof m.generation === 'number';
    }
    case 'requestDetails': {
      const m = x as { detailsId?: unknown; generation?: unknown; ref?: unknown };
      return isCount(m.detailsId) && typeof m.generation === 'number' && isDrawableRef(m.ref);
    }
    case 'requestChain': {
      const m = x as { chainId?: unknown; generation?: unknown; ref?: unknown; direction?: unknown };
      return isCount(m.chainId) && typeof m.generation === 'number' && isDrawableRef(m.ref) && (m.direction === 'backward' || m.direction === 'forward');
    }
    case 'searchClosed':
      return true;
    case 'cursor': {
      const t = (x as { time?: unknown }).time;
      return t === undefined || (typeof t === 'number' && Number.isFinite(t));
    }
    case 'legendState': {
      const h = (x as { hidden?: unknown }).hidden;
      return Array.isArray(h) && h.length <= MAX_LIST && h.every((n) => typeof n === 'number' && Number.isSafeInteger(n));
    }
    case 'openOtherEditor': {
      const how = (x as { how?: unknown }).how;
      return how === 'pick' || how === 'text';
    }
    case 'runCommand':
      return (TOOLBAR_COMMANDS as readonly unknown[]).includes((x as { command?: unknown }).command);
    case 'selectRange': {
      const m = x as { range?: unknown; rows?: unknown; mapIndex?: unknown };
      const r = m.range;
      const rangeOk = r === undefined || (Array.isArray(r) && r.length === 2 && r.every((t) => typeof t === 'number' && Number.isFinite(t)) && r[0] < r[1]);
      const rowsOk =
        m.rows === undefined ||
        (Array.isArray(m.rows) &&
          m.rows.length <= MAX_LIST &&
          m.rows.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) &&
          isCount(m.mapIndex));
      return rangeOk && rowsOk && (m.mapIndex === undefined || isCount(m.mapIndex));
    }
    case 'search': {
      const m = x as { searchId?: unknown; generation?: unknown; query?: unknown; direction?: unknown; fromTime?: unknown };
      if (!isCount(m.searchId) || typeof m.generation !== 'number') return false;
      if (m.direction !== 1 && m.direction !== -1 && m.direction !== 0) return false;
      if (m.fromTime !== undefined && !(typeof m.fromTime === 'number' && Number.isFinite(m.fromTime))) return false;
      return isSearchQuery(m.query);
    }
    case 'setCategoryColour': {
      const m = x as { name?: unknown; rgb?: unknown };
      if (typeof m.name !== 'string' || m.name.length === 0 || m.name.length > MAX_CATEGORY_NAME) return false;
      return m.rgb === undefined || isRgb(m.rgb);
    }
    case 'openSource': {
      const m = x as { siteId?: unknown; beside?: unknown };
      return isCount(m.siteId) && typeof m.beside === 'boolean';
    }
    default:
      return false;
  }
}

const MAX_CATEGORY_NAME = 1024;

export function isRgb(v: unknown): v is Rgb {
  return Array.isArray(v) && v.length === 3 && v.every((c) => typeof c === 'number' && Number.isInteger(c) && c >= 0 && c <= 255);
}

const MAX_SEARCH_TEXT = 1000;
const MAX_LIST = 1 << 20;

function isSearchQuery(x: unknown): x is SearchRequestQuery {
  if (typeof x !== 'object' || x === null) return false;
  const q = x as Record<string, unknown>;
  if (typeof q.text !== 'string' || q.text.length > MAX_SEARCH_TEXT) return false;
  if (q.mode !== 'plain' && q.mode !== 'word' && q.mode !== 'regex') return false;
  if (typeof q.caseSensitive !== 'boolean' || !isCount(q.mapIndex)) return false;
  const list = (v: unknown): boolean => Array.isArray(v) && v.length <= MAX_LIST && v.every((n) => typeof n === 'number' && Number.isSafeInteger(n));
  if (q.rows !== undefined && !(list(q.rows) && (q.rows as number[]).every((n) => n >= 0))) return false;
  if (!list(q.unsearchable)) return false;
  const duration = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
  return duration(q.minDuration) && duration(q.maxDuration);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isDrawableRef(x: unknown): x is DrawableRef {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  if (r.drawable !== 'state' && r.drawable !== 'arrow' && r.drawable !== 'event') return false;
  if (![r.mapIndex, r.row, r.toRow, r.lowestDepth].every(isCount)) return false;
  if (typeof r.category !== 'number' || !Number.isSafeInteger(r.category)) return false;
  if (![r.start, r.end, r.tolerance].every((v) => typeof v === 'number' && Number.isFinite(v))) return false;
  if (r.at !== undefined) {
    const at = r.at as Record<string, unknown> | null;
    if (typeof at !== 'object' || at === null || !isCount(at.requestId) || !isCount(at.index) || typeof at.final !== 'boolean') return false;
  }
  return (r.tolerance as number) >= 0 && (r.tolerance as number) <= 1;
}

/** Optional `rows` (row indices) and `rowSizing` of a view state, when present, are well formed. */
export function isRowFields(s: Record<string, unknown>): boolean {
  const rows = s['rows'];
  if (rows !== undefined && !(Array.isArray(rows) && rows.length <= MAX_LIST && rows.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0)))
    return false;
  const z = s['rowSizing'];
  return z === undefined || z === 'auto' || z === 'fit' || (typeof z === 'number' && Number.isFinite(z) && z > 0 && z <= 1000);
}
