/**
 * The `mpeTrace.sourcePathMappings` setting: recorded path prefix → local path prefix, for traces
 * made on a cluster or another machine. The longest matching prefix (on a segment boundary) wins.
 * Targets may use `${workspaceFolder}` / `${workspaceFolder:name}` or be relative to a folder.
 */
import { formatPath, isUnder, joinPath, normalizePath, parsePath } from './recordedPath';

export interface PathMapping {
  /** Recorded prefix in '/' form, e.g. "/scratch/alice/proj" or "C:/build". */
  readonly from: string;
  /** Local prefix as written by the user (variables not yet substituted). */
  readonly to: string;
  readonly ignoreCase: boolean;
}

export interface ParsedMappings {
  /** Longest `from` first. */
  readonly mappings: readonly PathMapping[];
  /** One line per ignored entry, for the output channel. */
  readonly problems: readonly string[];
}

/** Validates the raw setting value (any JSON the user typed); never throws. */
export function parseMappings(raw: unknown): ParsedMappings {
  const problems: string[] = [];
  const mappings: PathMapping[] = [];
  if (raw === undefined || raw === null) return { mappings, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { mappings, problems: ['mpeTrace.sourcePathMappings must be an object { "recorded prefix": "local prefix" }'] };
  }
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`mapping "${key}" ignored: its target must be a non-empty string`);
      continue;
    }
    const parsed = parsePath(key.trim());
    if (parsed.root === '' && parsed.segments.length === 0) {
      problems.push(`mapping "${key}" ignored: empty recorded prefix`);
      continue;
    }
    mappings.push({ from: formatPath(parsed), to: value.trim(), ignoreCase: parsed.windowsStyle });
  }
  // Longest prefix first; equal lengths by text so the order never depends on the object's key order.
  mappings.sort((a, b) => b.from.length - a.from.length || (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  return { mappings, problems };
}

export interface MappedPath {
  readonly mapping: PathMapping;
  /** Local candidates in '/' form, in the order to try (one per workspace folder for relative targets). */
  readonly paths: readonly string[];
}

/**
 * Applies the longest mapping whose prefix covers `recorded` (already in '/' form).
 * `roots` are the workspace folder paths in '/' form, used for variables and relative targets.
 */
export function applyMappings(recorded: string, mappings: readonly PathMapping[], roots: readonly string[]): MappedPath | undefined {
  const mapping = mappings.find((m) => isUnder(recorded, m.from, m.ignoreCase));
  if (mapping === undefined) return undefined;
  const rest = recorded.slice(mapping.from.length).replace(/^\/+/, '');
  const paths: string[] = [];
  for (const base of expandTarget(mapping.to, roots)) {
    const p = rest === '' ? base : joinPath(base, rest);
    if (!paths.includes(p)) paths.push(p);
  }
  return { mapping, paths };
}

const FOLDER_VAR = /^\$\{workspaceFolder(?::([^}]*))?\}/;

/** Local prefixes a mapping target stands for. */
export function expandTarget(target: string, roots: readonly string[]): string[] {
  const m = FOLDER_VAR.exec(target);
  if (m !== null) {
    const tail = target.slice(m[0].length).replace(/^[\\/]+/, '');
    const named = m[1];
    const chosen = named === undefined ? roots : roots.filter((r) => lastSegment(r) === named);
    return chosen.map((r) => (tail === '' ? r : joinPath(r, tail)));
  }
  const parsed = parsePath(target);
  if (parsed.root !== '') return [normalizePath(target)];
  return roots.map((r) => joinPath(r, target));
}

function lastSegment(path: string): string {
  const p = parsePath(path);
  return p.segments[p.segments.length - 1] ?? '';
}

/**
 * A mapping that would have turned `recorded` into `local`: strips their common trailing
 * segments, e.g. /home/alice/proj/src/a.c + /work/proj/src/a.c → "/home/alice" → "/work".
 * Used after the user picked the file by hand ("remember this mapping").
 */
export function mappingFromPick(recorded: string, local: string): { from: string; to: string } | undefined {
  const r = parsePath(recorded);
  const l = parsePath(local);
  if (r.root === '') return undefined; // relative names need no mapping: suffix matching finds them
  const ignoreCase = r.windowsStyle || l.windowsStyle;
  let n = 0;
  while (
    n < r.segments.length &&
    n < l.segments.length &&
    (ignoreCase
      ? r.segments[r.segments.length - 1 - n]!.toLowerCase() === l.segments[l.segments.length - 1 - n]!.toLowerCase()
      : r.segments[r.segments.length - 1 - n] === l.segments[l.segments.length - 1 - n])
  )
    n++;
  if (n === 0) return undefined;
  const from = formatPath({ ...r, segments: r.segments.slice(0, r.segments.length - n) });
  const to = formatPath({ ...l, segments: l.segments.slice(0, l.segments.length - n) });
  if (from === '' || to === '' || from === to) return undefined;
  return { from, to };
}
