/**
 * What a search looks for: text in a drawable's category name or popup text (plain, whole word
 * or regular expression; case-sensitive or not), optionally limited to some rows (line IDs), a
 * duration range, and the categories marked searchable in the legend (Jumpshot's "S" column).
 */
import { infoText } from '../model/infoFormat';
import type { Category, Drawable } from '../model/types';
import { drawableAtSites, parseSiteQuery, siteMatcher } from './siteQuery';

export type SearchMode = 'plain' | 'word' | 'regex';

export interface SearchQuery {
  /** Empty text matches every drawable that passes the filters. */
  readonly text: string;
  readonly mode: SearchMode;
  readonly caseSensitive: boolean;
  /** Where to look; both by default. */
  readonly inName?: boolean;
  readonly inInfo?: boolean;
  /** Only drawables with a vertex on one of these line IDs. */
  readonly rows?: ReadonlySet<number> | readonly number[];
  /** Duration limits in seconds (inclusive). */
  readonly minDuration?: number;
  readonly maxDuration?: number;
  /** Category indices switched off for search in the legend. */
  readonly unsearchable?: ReadonlySet<number> | readonly number[];
}

export const MAX_QUERY_CHARS = 1000;

export type MatchPlace = 'name' | 'info' | 'filter' | 'site';

export interface DrawableMatcher {
  /** Where the drawable matched, or undefined. */
  test(d: Drawable): MatchPlace | undefined;
  readonly query: SearchQuery;
  /** The same test without a drawable object, for counting from columns; undefined where it needs one (rows, site terms). */
  readonly plan?: MatchPlan;
}

/** `test` taken apart for a count from decoded columns (columnCount.ts): the same verdicts. */
export interface MatchPlan {
  /** Inclusive duration limits in seconds. */
  readonly minDuration: number;
  readonly maxDuration: number;
  /**
   * What a drawable of this category (inside the duration limits) does: NONE, ALL (every one
   * matches, by name or with no text), or INFO (its popup text decides: `testInfo`).
   */
  verdict(category: number): PlanVerdict;
  /** A drawable of an INFO category with these info bytes (undefined: none) matches. */
  testInfo(category: number, info: Uint8Array | undefined): boolean;
}

export const enum PlanVerdict {
  None = 0,
  All = 1,
  Info = 2,
}

export type CompileResult = { readonly ok: true; readonly matcher: DrawableMatcher } | { readonly ok: false; readonly error: string };

/** Builds the predicate once per search; a bad regular expression is an error, not an exception. */
export function compileQuery(query: SearchQuery, categories: ReadonlyMap<number, Category>): CompileResult {
  if (query.text.length > MAX_QUERY_CHARS) return { ok: false, error: `search text longer than ${MAX_QUERY_CHARS} characters` };
  if (query.minDuration !== undefined && query.maxDuration !== undefined && query.minDuration > query.maxDuration) {
    return { ok: false, error: 'the minimum duration is above the maximum' };
  }
  let pattern: RegExp | undefined;
  // `file:line` / `file:line-line` terms (not in regex mode): drawables from those source lines.
  const siteTerms = query.mode === 'regex' ? undefined : parseSiteQuery(query.text);
  const atSites = siteTerms !== undefined ? siteMatcher(siteTerms) : undefined;
  if (query.text !== '' && atSites === undefined) {
    const flags = query.caseSensitive ? 'u' : 'iu';
    try {
      pattern = new RegExp(sourceFor(query.text, query.mode), flags);
    } catch (e) {
      return { ok: false, error: `invalid regular expression: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const inName = query.inName ?? true;
  const inInfo = query.inInfo ?? true;
  const rows = query.rows === undefined ? undefined : new Set(query.rows);
  const unsearchable = new Set(query.unsearchable ?? []);
  const minDuration = query.minDuration ?? -Infinity;
  const maxDuration = query.maxDuration ?? Infinity;

  // Per category: does the name match (constant), and can the popup text match at all?
  const nameHit = new Map<number, boolean>();
  const nameMatches = (index: number, c: Category | undefined): boolean => {
    let hit = nameHit.get(index);
    if (hit === undefined) {
      hit = c !== undefined && pattern !== undefined && testPattern(pattern, c.name);
      nameHit.set(index, hit);
    }
    return hit;
  };

  const test = (d: Drawable): MatchPlace | undefined => {
    if (d.category < 0 || unsearchable.has(d.category)) return undefined;
    const duration = d.latest - d.earliest;
    if (duration < minDuration || duration > maxDuration) return undefined;
    if (rows !== undefined && !onRows(d, rows)) return undefined;
    if (atSites !== undefined) return drawableAtSites(d, atSites) ? 'site' : undefined;
    if (pattern === undefined) return 'filter';
    const c = categories.get(d.category);
    if (inName && nameMatches(d.category, c)) return 'name';
    if (inInfo && c !== undefined && (c.infoKeys.length > 0 || c.infoTypes.length > 0 || d.info !== undefined)) {
      if (testPattern(pattern, infoText(c.infoKeys, c.infoTypes, d.info))) return 'info';
    }
    return undefined;
  };
  const plan: MatchPlan | undefined =
    rows !== undefined || atSites !== undefined
      ? undefined
      : {
          minDuration,
          maxDuration,
          verdict: (index) => {
            if (index < 0 || unsearchable.has(index)) return PlanVerdict.None;
            if (pattern === undefined) return PlanVerdict.All;
            const c = categories.get(index);
            if (inName && nameMatches(index, c)) return PlanVerdict.All;
            return inInfo && c !== undefined ? PlanVerdict.Info : PlanVerdict.None;
          },
          testInfo: (index, info) => {
            const c = categories.get(index);
            if (pattern === undefined || c === undefined) return false;
            if (c.infoKeys.length === 0 && c.infoTypes.length === 0 && info === undefined) return false;
            return testPattern(pattern, infoText(c.infoKeys, c.infoTypes, info));
          },
        };
  return { ok: true, matcher: { test, query, plan } };
}

function sourceFor(text: string, mode: SearchMode): string {
  if (mode === 'regex') return text;
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (mode === 'plain') return escaped;
  // Whole word: no word character right before or after (only where the text itself starts/ends with one).
  const before = /^[\p{L}\p{N}_]/u.test(text) ? '(?<![\\p{L}\\p{N}_])' : '';
  const after = /[\p{L}\p{N}_]$/u.test(text) ? '(?![\\p{L}\\p{N}_])' : '';
  return before + escaped + after;
}

function testPattern(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}

function onRows(d: Drawable, rows: ReadonlySet<number>): boolean {
  if (d.kind === 'primitive') return d.vertices.some((v) => rows.has(v.lineID));
  return d.primitives.some((p) => p.vertices.some((v) => rows.has(v.lineID)));
}

/** Start and end line IDs of a drawable (equal for events). */
export function drawableRows(d: Drawable): readonly number[] {
  const vs = d.kind === 'primitive' ? d.vertices : d.primitives.flatMap((p) => p.vertices);
  const first = vs[0]?.lineID ?? 0;
  const last = vs[vs.length - 1]?.lineID ?? first;
  return first === last ? [first] : [first, last];
}
