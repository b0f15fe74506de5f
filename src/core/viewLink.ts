/**
 * "Copy link to this view": a view (trace, time window, rows, Y map, hidden categories) encoded
 * as `vscode://mpe-trace.mpe-trace-viewer/open?...`, and its strict decoding. Links arrive from
 * anywhere (Markdown, chat), so decoding validates every field and caps every length.
 */

export const EXTENSION_ID = 'mpe-trace.mpe-trace-viewer';
export const VIEW_LINK_PATH = '/open';
export const VIEW_LINK_VERSION = 1;

export interface ViewLink {
  /** Workspace-relative ('/' separated, no '..') unless `absolute`; then an absolute path. */
  readonly trace: string;
  readonly absolute: boolean;
  /** Name of the workspace folder the relative path belongs to (multi-root workspaces). */
  readonly folder?: string;
  readonly t0: number;
  readonly t1: number;
  /** Visible line IDs; undefined = all rows. */
  readonly rows?: readonly number[];
  /** Index of the Y-axis map (LineIDMap) in the file. */
  readonly yMap?: number;
  /** Category indices hidden in the legend. */
  readonly hidden?: readonly number[];
}

export const LIMITS = {
  pathChars: 4096,
  folderChars: 256,
  listItems: 100_000,
  queryChars: 1_000_000,
  yMapIndex: 1000,
} as const;

/** The query string (without '?'): stable parameter order so equal views give equal links. */
export function encodeViewQuery(view: ViewLink): string {
  const parts: [string, string][] = [['v', String(VIEW_LINK_VERSION)]];
  parts.push(textParam(view.absolute ? 'path' : 'trace', view.trace));
  if (view.folder !== undefined) parts.push(textParam('folder', view.folder));
  parts.push(['t0', numberText(view.t0)], ['t1', numberText(view.t1)]);
  if (view.rows !== undefined) parts.push(['rows', compressInts(view.rows)]);
  if (view.yMap !== undefined) parts.push(['map', String(view.yMap)]);
  if (view.hidden !== undefined && view.hidden.length > 0) parts.push(['hide', compressInts(view.hidden)]);
  return parts.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

/** The full link, e.g. for the clipboard. `scheme` is `vscode`, `vscode-insiders`, … (env.uriScheme). */
export function encodeViewLink(view: ViewLink, scheme = 'vscode'): string {
  return `${scheme}://${EXTENSION_ID}${VIEW_LINK_PATH}?${encodeViewQuery(view)}`;
}

export type DecodeResult = { readonly ok: true; readonly view: ViewLink } | { readonly ok: false; readonly error: string };

/**
 * VS Code percent-decodes a URI's query once before the handler sees it, so a value must read
 * the same whether decoded once or twice: text with '%', '&', '=', '#', '+' or '?' goes as
 * base64url under the key + "64" (e.g. trace64=…); numbers and lists never contain them.
 */
function textParam(key: string, value: string): [string, string] {
  // eslint-disable-next-line no-control-regex -- control characters are what this test rejects
  return /^[^%&=#+?\u0000-\u001f]*$/.test(value) ? [key, value] : [key + '64', base64urlEncode(value)];
}

/** Decodes an untrusted query string (as `Uri.query` gives it, or still encoded); never throws. */
export function decodeViewQuery(query: string): DecodeResult {
  try {
    return { ok: true, view: decodeStrict(query) };
  } catch (e) {
    return { ok: false, error: e instanceof LinkError ? e.message : `malformed link (${String(e)})` };
  }
}

class LinkError extends Error {}

const TEXT_KEYS = new Set(['trace', 'path', 'folder']);

function fail(message: string): never {
  throw new LinkError(message);
}

function decodeStrict(query: string): ViewLink {
  if (query.length > LIMITS.queryChars) fail(`link too long (${query.length} characters)`);
  const q = query.startsWith('?') ? query.slice(1) : query;
  const params = new Map<string, string>();
  for (const part of q.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    let value: string;
    try {
      value = decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1));
    } catch {
      fail(`bad percent-encoding in "${key}"`);
    }
    const plainKey = key.endsWith('64') ? key.slice(0, -2) : key;
    if (plainKey !== key && !TEXT_KEYS.has(plainKey)) fail(`unknown parameter "${key.slice(0, 20)}"`);
    if (params.has(plainKey)) fail(`parameter "${plainKey}" given twice`);
    params.set(plainKey, plainKey === key ? value : base64urlDecode(value, key));
  }
  const version = params.get('v');
  if (version !== undefined && version !== String(VIEW_LINK_VERSION)) fail(`unsupported link version ${JSON.stringify(version)}`);

  const rel = params.get('trace');
  const abs = params.get('path');
  if ((rel === undefined) === (abs === undefined)) fail('the link must name the trace with exactly one of "trace" or "path"');
  const trace = (rel ?? abs)!;
  if (trace.length === 0 || trace.length > LIMITS.pathChars) fail('trace path empty or too long');
  // eslint-disable-next-line no-control-regex -- control characters are what this test rejects
  if (/[\u0000-\u001f]/.test(trace)) fail('trace path contains control characters');
  const absolute = abs !== undefined;
  if (absolute && !/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(trace)) fail('"path" must be absolute');
  if (!absolute) {
    if (/^(\/|[A-Za-z]:|\\)/.test(trace)) fail('"trace" must be relative to the workspace');
    if (trace.split(/[\\/]/).some((s) => s === '..')) fail('"trace" may not leave the workspace ("..")');
  }
  const folder = params.get('folder');
  // eslint-disable-next-line no-control-regex -- control characters are what this test rejects
  if (folder !== undefined && (folder.length === 0 || folder.length > LIMITS.folderChars || /[\u0000-\u001f]/.test(folder))) {
    fail('bad workspace folder name');
  }

  const t0 = finite(params.get('t0'), 't0');
  const t1 = finite(params.get('t1'), 't1');
  if (!(t0 < t1)) fail(`empty time window: t0 ${t0} must be below t1 ${t1}`);

  const view: { -readonly [K in keyof ViewLink]: ViewLink[K] } = { trace, absolute, t0, t1 };
  if (folder !== undefined) view.folder = folder;
  const rows = params.get('rows');
  if (rows !== undefined) view.rows = expandInts(rows, 'rows');
  const map = params.get('map');
  if (map !== undefined) {
    if (!/^\d{1,4}$/.test(map) || Number(map) > LIMITS.yMapIndex) fail(`bad Y-map index ${JSON.stringify(map.slice(0, 20))}`);
    view.yMap = Number(map);
  }
  const hide = params.get('hide');
  if (hide !== undefined) view.hidden = expandInts(hide, 'hide');
  return view;
}

function finite(text: string | undefined, name: string): number {
  if (text === undefined) fail(`missing ${name}`);
  if (text.length > 40 || !/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) fail(`${name} is not a number`);
  const v = Number(text);
  if (!Number.isFinite(v)) fail(`${name} is not finite`);
  return v;
}

/** Shortest text that reads back to the same double. */
function numberText(v: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`view time ${v} is not finite`);
  return String(v);
}

/** Sorted, unique integers as ranges: [0,1,2,3,7,9,10] → "0-3,7,9-10". */
export function compressInts(values: readonly number[]): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  for (const v of sorted) if (!Number.isSafeInteger(v)) throw new RangeError(`not an integer: ${v}`);
  const out: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** Inverse of compressInts, with caps: at most LIMITS.listItems values. Negative values allowed (categories). */
function expandInts(text: string, name: string): number[] {
  if (text === '') return [];
  const out: number[] = [];
  for (const item of text.split(',')) {
    const m = /^(-?\d{1,9})(?:-(-?\d{1,9}))?$/.exec(item);
    if (m === null) fail(`bad ${name} item ${JSON.stringify(item.slice(0, 20))}`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) fail(`bad ${name} range ${item}`);
    if (out.length + (b - a + 1) > LIMITS.listItems) fail(`too many ${name} (more than ${LIMITS.listItems})`);
    for (let v = a; v <= b; v++) out.push(v);
  }
  return [...new Set(out)].sort((x, y) => x - y);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function base64urlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

function base64urlDecode(text: string, key: string): string {
  if (text.length > LIMITS.pathChars * 2 || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) fail(`bad base64url in "${key}"`);
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 4) {
    const group = text.slice(i, i + 4);
    let n = 0;
    for (let k = 0; k < 4; k++) n = (n << 6) | (k < group.length ? B64.indexOf(group[k]!) : 0);
    bytes.push((n >> 16) & 255);
    if (group.length > 2) bytes.push((n >> 8) & 255);
    if (group.length > 3) bytes.push(n & 255);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    fail(`"${key}" is not UTF-8 text`);
  }
}
