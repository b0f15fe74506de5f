/**
 * Turns a path recorded in a trace into ranked local files for "Go to source".
 * Order of preference (CLOG2.md §10 rule 4, plus user mappings):
 *   1. the user's path mapping (longest prefix) when the mapped file exists;
 *   2. the recorded path itself when it is absolute and exists (or relative to a workspace folder);
 *   3. workspace files ending with the longest part of the recorded path (suffix ≥ 2 segments);
 *   4. workspace files with the same file name;
 *   5. for a name cut at 39 bytes: files whose name starts with the cut text.
 * Ties are broken by fewer path segments, then by code-unit order, so results are deterministic.
 */
import { applyMappings, type PathMapping } from './mappings';
import { commonSuffixLength, formatPath, isUnder, joinPath, mayBeTruncated, parsePath, type ParsedPath } from './recordedPath';

/** What the resolver needs from the file system (the host implements it with vscode.workspace). */
export interface SourceFileSystem {
  /** True when the file at this '/'-form absolute path exists. */
  exists(path: string): Promise<boolean>;
  /**
   * Absolute paths ('/' or native form) of workspace files whose name equals `name`, or starts
   * with it when `prefix` is true; letter case is ignored when `ignoreCase` (Windows-recorded
   * paths). The implementation caps the count.
   */
  findFiles(name: string, match: { readonly prefix: boolean; readonly ignoreCase: boolean }): Promise<readonly string[]>;
}

export type MatchKind = 'mapped' | 'absolute' | 'relative' | 'suffix' | 'basename' | 'truncated';

export interface SourceCandidate {
  /** Local path in '/' form. */
  readonly path: string;
  readonly kind: MatchKind;
  /** How many trailing path segments agree with the recorded path (1 = only the file name). */
  readonly matchedSegments: number;
  /** The agreeing tail, e.g. "src/user_states.c" (for messages). */
  readonly matchedSuffix: string;
  /** The workspace folder containing the file, if any. */
  readonly root?: string;
  /** For 'mapped' candidates: the mapping that produced it. */
  readonly mapping?: PathMapping;
}

export interface ResolveFound {
  readonly found: true;
  readonly best: SourceCandidate;
  /** All candidates, best first (capped). */
  readonly candidates: readonly SourceCandidate[];
  /** More than one candidate is as good as the best: the UI may let the user choose. */
  readonly ambiguous: boolean;
  /** One line for the UI: "matched by suffix src/user_states.c". */
  readonly reason: string;
}

export interface ResolveNotFound {
  readonly found: false;
  readonly reason: string;
  /** A mapping the user could add, when the recorded path is absolute. */
  readonly suggestion?: { readonly from: string; readonly to: string };
}

export type Resolution = ResolveFound | ResolveNotFound;

export interface ResolveOptions {
  /** Workspace folder paths (any form; normalised here). */
  readonly roots: readonly string[];
  /** Parsed `mpeTrace.sourcePathMappings`, longest first (see parseMappings). */
  readonly mappings: readonly PathMapping[];
  readonly fs: SourceFileSystem;
  /** Override the 39-byte truncation guess (e.g. for info-text paths, which are never cut). */
  readonly truncated?: boolean;
  /** Maximum number of candidates returned (default 20). */
  readonly maxCandidates?: number;
}

const KIND_RANK: Record<MatchKind, number> = { mapped: 0, absolute: 1, relative: 2, suffix: 3, basename: 4, truncated: 5 };

export async function resolveSourcePath(recorded: string, options: ResolveOptions): Promise<Resolution> {
  const parsed = parsePath(recorded.trim());
  const name = parsed.segments[parsed.segments.length - 1];
  if (name === undefined || name === '..' || name === '.') {
    return { found: false, reason: `the trace records no usable file name ("${recorded}")` };
  }
  if (/[\\/]$/.test(recorded.trim())) {
    // A name cut right after a separator (old CLOG's "/sandbox/.../mpe/"): only a directory is left.
    return { found: false, reason: `the trace records only the directory "${recorded}"; the file name was cut off` };
  }
  const roots = options.roots.map((r) => formatPath(parsePath(r)));
  const ignoreCase = parsed.windowsStyle;
  const recordedPath = formatPath(parsed);
  const truncated = options.truncated ?? mayBeTruncated(recorded);
  const found: SourceCandidate[] = [];
  const add = (path: string, kind: MatchKind, matched: number, mapping?: PathMapping): void => {
    if (found.some((c) => c.path === path)) return;
    const root = roots.find((r) => isUnder(path, r, ignoreCase || /^[A-Za-z]:\//.test(r)));
    const local = parsePath(path);
    const c: { -readonly [K in keyof SourceCandidate]: SourceCandidate[K] } = {
      path,
      kind,
      matchedSegments: matched,
      matchedSuffix: local.segments.slice(local.segments.length - matched).join('/'),
    };
    if (root !== undefined) c.root = root;
    if (mapping !== undefined) c.mapping = mapping;
    found.push(c);
  };

  // 1. User mappings.
  const mapped = applyMappings(recordedPath, options.mappings, roots);
  let mappedMiss: string | undefined;
  if (mapped !== undefined) {
    for (const p of mapped.paths) {
      if (await options.fs.exists(p)) add(p, 'mapped', parsed.segments.length, mapped.mapping);
    }
    if (found.length === 0) mappedMiss = mapped.paths[0];
  }

  // 2. The recorded path as it stands.
  if (parsed.root !== '') {
    if (await options.fs.exists(recordedPath)) add(recordedPath, 'absolute', parsed.segments.length);
  } else {
    const rel = parsed.segments.filter((s) => s !== '..');
    if (rel.length === parsed.segments.length) {
      for (const r of roots) {
        const p = joinPath(r, rel.join('/'));
        if (await options.fs.exists(p)) add(p, 'relative', rel.length);
      }
    }
  }

  // 3 + 4. Same file name somewhere in the workspace, ranked by the longest common suffix.
  if (found.length === 0) {
    const tail = parsed.segments.filter((s) => s !== '..');
    for (const file of await options.fs.findFiles(name, { prefix: false, ignoreCase })) {
      const local = parsePath(file);
      const n = commonSuffixLength(tail, local.segments, ignoreCase);
      if (n >= 2) add(formatPath(local), 'suffix', n);
      else if (n === 1) add(formatPath(local), 'basename', 1);
    }
  }

  // 5. Cut names: the last segment is only the beginning of the real file name.
  if (found.length === 0 && truncated) {
    const dirs = parsed.segments.slice(0, -1).filter((s) => s !== '..');
    for (const file of await options.fs.findFiles(name, { prefix: true, ignoreCase })) {
      const local = parsePath(file);
      const localName = local.segments[local.segments.length - 1] ?? '';
      if (!startsWith(localName, name, ignoreCase)) continue;
      // The directories before the cut are complete: count how many agree above the file.
      const n = commonSuffixLength(dirs, local.segments.slice(0, -1), ignoreCase);
      add(formatPath(local), 'truncated', n + 1);
    }
  }

  if (found.length === 0) return notFound(recorded, parsed, truncated, mappedMiss);

  found.sort(compareCandidates);
  const best = found[0]!;
  const ties = found.filter((c) => compareQuality(c, best) === 0).length;
  const candidates = found.slice(0, Math.max(1, options.maxCandidates ?? 20));
  return { found: true, best, candidates, ambiguous: ties > 1, reason: describe(best, ties, recorded) };
}

function startsWith(text: string, prefix: string, ignoreCase: boolean): boolean {
  return ignoreCase ? text.toLowerCase().startsWith(prefix.toLowerCase()) : text.startsWith(prefix);
}

/** Quality only: kind, then more agreeing segments. */
function compareQuality(a: SourceCandidate, b: SourceCandidate): number {
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || b.matchedSegments - a.matchedSegments;
}

function compareCandidates(a: SourceCandidate, b: SourceCandidate): number {
  const q = compareQuality(a, b);
  if (q !== 0) return q;
  const da = a.path.split('/').length;
  const db = b.path.split('/').length;
  if (da !== db) return da - db; // shallower first: "src/a.c" over "third_party/x/src/a.c"
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function describe(c: SourceCandidate, ties: number, recorded: string): string {
  const more = ties > 1 ? ` (1 of ${ties} equally good matches)` : '';
  switch (c.kind) {
    case 'mapped':
      return `mapped by "${c.mapping!.from}" → "${c.mapping!.to}"`;
    case 'absolute':
      return 'the recorded path exists';
    case 'relative':
      return `found relative to the workspace folder ${c.root ?? ''}`.trimEnd();
    case 'suffix':
      return `matched by suffix ${c.matchedSuffix}${more}`;
    case 'basename':
      return `matched by file name ${c.matchedSuffix}${more}`;
    case 'truncated':
      return `the recorded name "${recorded}" was cut at 39 bytes; matched by its beginning: ${c.matchedSuffix}${more}`;
  }
}

function notFound(recorded: string, parsed: ParsedPath, truncated: boolean, mappedMiss: string | undefined): ResolveNotFound {
  const parts = [`no file in the workspace matches "${recorded}"`];
  if (mappedMiss !== undefined) parts.push(`(the path mapping gives ${mappedMiss}, which does not exist)`);
  if (truncated) parts.push('(the name fills the 39-byte CLOG field and may be cut)');
  const reason = parts.join(' ');
  if (parsed.root === '' || parsed.segments.length < 2) return { found: false, reason };
  // Suggest mapping the recorded directory onto the workspace; the user edits the target.
  const dir = formatPath({ ...parsed, segments: parsed.segments.slice(0, -1) });
  return { found: false, reason, suggestion: { from: dir, to: '${workspaceFolder}' } };
}
