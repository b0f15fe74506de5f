/**
 * The bookmark sidecar `<trace>.mpetrace.json`: a versioned, diff-friendly JSON file meant to be
 * committed next to the trace. Reading validates without ever throwing; fields and entries we do
 * not understand are kept and written back unchanged, so the user's file is never lost.
 *
 *   { "version": 1, "bookmarks": [ { "id", "name", "t0", "t1", "note"?, "rows"?, "yMap"?,
 *     "hidden"?, "created"?, …unknown fields kept } ], …unknown fields kept }
 */

export const SIDECAR_SUFFIX = '.mpetrace.json';
export const SIDECAR_VERSION = 1;

export const BOOKMARK_LIMITS = { nameChars: 1000, noteChars: 100_000, listItems: 100_000, bookmarks: 100_000 } as const;

export interface Bookmark {
  readonly id: string;
  readonly name: string;
  /** Time window in seconds (t0 ≤ t1; equal for a point in time). */
  readonly t0: number;
  readonly t1: number;
  readonly note?: string;
  /** Visible line IDs when the bookmark was made. */
  readonly rows?: readonly number[];
  /** Index of the Y-axis map. */
  readonly yMap?: number;
  /** Hidden category indices. */
  readonly hidden?: readonly number[];
  /** ISO time of creation. */
  readonly created?: string;
  /** Fields this version does not know, in file order (kept on write). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** True when the file gave no id (a hand-written entry): the id is derived and not written back. */
  readonly derivedId?: boolean;
}

/** A bookmark entry that failed validation: kept verbatim so writing never drops it. */
export interface InvalidEntry {
  readonly raw: unknown;
  readonly problem: string;
}

export type SidecarEntry = { readonly bookmark: Bookmark } | { readonly invalid: InvalidEntry };

export interface SidecarDoc {
  readonly entries: readonly SidecarEntry[];
  /** Unknown top-level fields, in file order. */
  readonly extra: Readonly<Record<string, unknown>>;
}

export type ParseResult =
  { readonly ok: true; readonly doc: SidecarDoc; readonly warnings: readonly string[] } | { readonly ok: false; readonly error: string };

export const EMPTY_SIDECAR: SidecarDoc = { entries: [], extra: {} };

export function sidecarPathFor(tracePath: string): string {
  return tracePath + SIDECAR_SUFFIX;
}

export function bookmarksOf(doc: SidecarDoc): Bookmark[] {
  const out: Bookmark[] = [];
  for (const e of doc.entries) if ('bookmark' in e) out.push(e.bookmark);
  return out;
}

const KNOWN_TOP = ['version', 'bookmarks'];
const KNOWN_BOOKMARK = ['id', 'name', 't0', 't1', 'note', 'rows', 'yMap', 'hidden', 'created'];

/** Parses and validates sidecar text. `file` names the file in messages. Never throws. */
export function parseSidecar(text: string, file: string): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `${file}: not valid JSON (${e instanceof Error ? e.message : String(e)}); the file was left unchanged` };
  }
  if (!isPlainObject(json)) return { ok: false, error: `${file}: expected a JSON object with "version" and "bookmarks"` };
  const version = json['version'];
  if (version !== SIDECAR_VERSION) {
    const newer = typeof version === 'number' && version > SIDECAR_VERSION;
    return {
      ok: false,
      error: newer
        ? `${file}: written by a newer version of MPE Trace Viewer (format ${version}); update the extension to edit its bookmarks`
        : `${file}: unknown format version ${JSON.stringify(version)} (expected ${SIDECAR_VERSION})`,
    };
  }
  const list = json['bookmarks'] ?? [];
  if (!Array.isArray(list)) return { ok: false, error: `${file}: "bookmarks" must be an array` };
  if (list.length > BOOKMARK_LIMITS.bookmarks) return { ok: false, error: `${file}: more than ${BOOKMARK_LIMITS.bookmarks} bookmarks` };
  const warnings: string[] = [];
  const entries: SidecarEntry[] = [];
  const seen = new Map<string, number>();
  list.forEach((raw: unknown, i: number) => {
    const r = validateBookmark(raw);
    if (typeof r === 'string') {
      warnings.push(`${file}: bookmark ${i + 1} ignored: ${r}`);
      entries.push({ invalid: { raw, problem: r } });
      return;
    }
    let b = r;
    const n = seen.get(b.id) ?? 0;
    seen.set(b.id, n + 1);
    if (n > 0) {
      if (!b.derivedId) warnings.push(`${file}: bookmark ${i + 1} repeats the id "${b.id}"; kept as a separate bookmark`);
      b = { ...b, id: `${b.id}~${n}`, derivedId: true };
    }
    entries.push({ bookmark: b });
  });
  return { ok: true, doc: { entries, extra: pickExtra(json, KNOWN_TOP) }, warnings };
}

/** A Bookmark from untrusted JSON, or the reason it is not one. */
export function validateBookmark(raw: unknown): Bookmark | string {
  if (!isPlainObject(raw)) return 'not an object';
  const name = raw['name'];
  if (typeof name !== 'string' || name.trim() === '') return '"name" must be a non-empty string';
  if (name.length > BOOKMARK_LIMITS.nameChars) return `"name" longer than ${BOOKMARK_LIMITS.nameChars} characters`;
  const t0 = raw['t0'];
  const t1 = raw['t1'];
  if (typeof t0 !== 'number' || !Number.isFinite(t0)) return '"t0" must be a finite number (seconds)';
  if (typeof t1 !== 'number' || !Number.isFinite(t1)) return '"t1" must be a finite number (seconds)';
  if (t1 < t0) return `"t1" (${t1}) is before "t0" (${t0})`;
  const b: { -readonly [K in keyof Bookmark]: Bookmark[K] } = { id: '', name, t0, t1 };
  const id = raw['id'];
  if (id === undefined) {
    b.id = derivedId(name, t0, t1);
    b.derivedId = true;
  } else if (typeof id === 'string' && id !== '' && id.length <= 200) b.id = id;
  else return '"id" must be a short non-empty string';
  if (raw['note'] !== undefined) {
    const note = raw['note'];
    if (typeof note !== 'string') return '"note" must be a string';
    if (note.length > BOOKMARK_LIMITS.noteChars) return `"note" longer than ${BOOKMARK_LIMITS.noteChars} characters`;
    b.note = note;
  }
  for (const key of ['rows', 'hidden'] as const) {
    if (raw[key] === undefined) continue;
    const list = raw[key];
    if (!Array.isArray(list) || list.length > BOOKMARK_LIMITS.listItems || !list.every((v) => Number.isSafeInteger(v))) {
      return `"${key}" must be a list of integers`;
    }
    b[key] = list as number[];
  }
  if (raw['yMap'] !== undefined) {
    const y = raw['yMap'];
    if (typeof y !== 'number' || !Number.isSafeInteger(y) || y < 0) return '"yMap" must be a non-negative integer';
    b.yMap = y;
  }
  if (raw['created'] !== undefined) {
    if (typeof raw['created'] !== 'string') return '"created" must be a string';
    b.created = raw['created'];
  }
  const extra = pickExtra(raw, KNOWN_BOOKMARK);
  if (Object.keys(extra).length > 0) b.extra = extra;
  return b;
}

/** A stable id for an entry written without one (same content → same id on every read). */
function derivedId(name: string, t0: number, t1: number): string {
  let h = 0x811c9dc5;
  for (const ch of `${name}\u0000${t0}\u0000${t1}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `~${h.toString(36)}`;
}

/** Text of the file: known keys in a fixed order, unknown ones after them in their order, 2-space indent, final newline. */
export function serializeSidecar(doc: SidecarDoc): string {
  const bookmarks: unknown[] = doc.entries.map((e) => ('bookmark' in e ? bookmarkJson(e.bookmark) : e.invalid.raw));
  const top: Record<string, unknown> = { version: SIDECAR_VERSION, bookmarks };
  for (const [k, v] of Object.entries(doc.extra)) if (!Object.hasOwn(top, k)) setOwn(top, k, v);
  return stableStringify(top, '') + '\n';
}

function bookmarkJson(b: Bookmark): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (!b.derivedId) o['id'] = b.id;
  o['name'] = b.name;
  o['t0'] = b.t0;
  o['t1'] = b.t1;
  if (b.note !== undefined) o['note'] = b.note;
  if (b.rows !== undefined) o['rows'] = b.rows;
  if (b.yMap !== undefined) o['yMap'] = b.yMap;
  if (b.hidden !== undefined) o['hidden'] = b.hidden;
  if (b.created !== undefined) o['created'] = b.created;
  for (const [k, v] of Object.entries(b.extra ?? {})) if (!Object.hasOwn(o, k)) setOwn(o, k, v);
  return o;
}

/** JSON with 2-space indent; arrays of numbers/strings/booleans stay on one line (short diffs). */
export function stableStringify(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') {
    const s = JSON.stringify(value);
    return s === undefined ? 'null' : s;
  }
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) return '[' + value.map((v) => stableStringify(v, inner)).join(', ') + ']';
    return '[\n' + value.map((v) => inner + stableStringify(v, inner)).join(',\n') + '\n' + indent + ']';
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return '{\n' + entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stableStringify(v, inner)}`).join(',\n') + '\n' + indent + '}';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pickExtra(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (!known.includes(k)) setOwn(extra, k, v);
  return extra;
}

/** Plain assignment would turn a "__proto__" key from the file into a prototype change. */
function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
