/**
 * Lexical handling of file paths recorded in traces (CLOG2 SRCLOC, old CLOG srclocs, info text).
 * They were written on another machine, may use POSIX or Windows syntax, and are never touched
 * on disk here: everything is string work with '/' as the separator.
 */

/** CLOG/CLOG2 store `__FILE__` in char[40]: a name of exactly this many bytes may have been cut. */
export const RECORDED_NAME_MAX_BYTES = 39;

export interface ParsedPath {
  /** '' (relative), '/' (POSIX), 'C:/' (drive) or '//server/share/' (UNC). */
  readonly root: string;
  /** Segments after the root, with '.' removed and '..' folded where possible. */
  readonly segments: readonly string[];
  /** Drive letters, UNC roots or backslashes: compare case-insensitively like Windows does. */
  readonly windowsStyle: boolean;
}

const DRIVE = /^[A-Za-z]:/;

/** Splits a recorded path into root and clean segments; never throws. */
export function parsePath(text: string): ParsedPath {
  const windowsStyle = text.includes('\\') || DRIVE.test(text);
  let rest = text.replace(/\\/g, '/');
  let root = '';
  if (DRIVE.test(rest)) {
    root = rest[0]!.toUpperCase() + ':/';
    rest = rest.slice(2);
  } else if (rest.startsWith('//') && !rest.startsWith('///')) {
    const parts = rest.slice(2).split('/');
    const server = parts[0] ?? '';
    const share = parts[1] ?? '';
    if (server !== '' && share !== '') {
      root = `//${server}/${share}/`;
      rest = parts.slice(2).join('/');
    }
  }
  if (root === '' && rest.startsWith('/')) root = '/';
  const segments: string[] = [];
  for (const s of rest.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..' && segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else if (s === '..' && root !== '')
      continue; // '..' above a root stays at the root
    else segments.push(s);
  }
  return { root, segments, windowsStyle: windowsStyle || root.startsWith('//') };
}

export function isAbsolute(p: ParsedPath): boolean {
  return p.root !== '';
}

/** The path in '/' form: root + segments. */
export function formatPath(p: ParsedPath): string {
  return p.root + p.segments.join('/');
}

/** Normalises a path given by the editor or the user (workspace root, mapping) to '/' form. */
export function normalizePath(text: string): string {
  const p = parsePath(text);
  const s = formatPath(p);
  return s === '' ? '.' : s;
}

export function baseName(text: string): string {
  const p = parsePath(text);
  return p.segments[p.segments.length - 1] ?? '';
}

/** UTF-8 byte length, the unit of CLOG's 39-byte limit. */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * True when the recorded name fills the whole field, so its end may be cut (mid-name possibly).
 * Readers decode the field as Latin-1 (one char per byte) or UTF-8; either count can hit 39.
 */
export function mayBeTruncated(recorded: string): boolean {
  return recorded.length === RECORDED_NAME_MAX_BYTES || utf8Length(recorded) === RECORDED_NAME_MAX_BYTES;
}

export function sameSegment(a: string, b: string, ignoreCase: boolean): boolean {
  return ignoreCase ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Number of trailing segments equal in both lists (from the end). */
export function commonSuffixLength(a: readonly string[], b: readonly string[], ignoreCase: boolean): number {
  let n = 0;
  while (n < a.length && n < b.length && sameSegment(a[a.length - 1 - n]!, b[b.length - 1 - n]!, ignoreCase)) n++;
  return n;
}

/** True when `path` equals `prefix` or lies below it (segment boundary), both in '/' form. */
export function isUnder(path: string, prefix: string, ignoreCase: boolean): boolean {
  const p = ignoreCase ? path.toLowerCase() : path;
  let q = ignoreCase ? prefix.toLowerCase() : prefix;
  if (p === q) return true;
  if (!q.endsWith('/')) q += '/';
  return p.startsWith(q);
}

/** Joins a '/'-form base with a relative path (which may contain '..'). */
export function joinPath(base: string, relative: string): string {
  const b = base.endsWith('/') ? base : base + '/';
  return formatPath(parsePath(b + relative.replace(/\\/g, '/')));
}
