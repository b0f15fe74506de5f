/**
 * Search by source site: a query text made only of `file:line` and `file:line-line` terms
 * (separated by commas or spaces) finds the drawables whose recorded start or end location is one
 * of those lines. A term's file matches a recorded name that equals it or ends with `/` + it
 * (so `user_states.c:80` finds `/home/u/src/user_states.c`), compared with `/` for `\`.
 */
import type { Drawable, Primitive, SourceLocation } from '../model/types';

export interface SiteTerm {
  readonly file: string;
  readonly first: number;
  readonly last: number;
}

const TERM = /^(.+):(\d{1,9})(?:-(\d{1,9}))?$/;

/** The terms of `text`, or undefined when it is not a site query. */
export function parseSiteQuery(text: string): SiteTerm[] | undefined {
  const parts = text
    .trim()
    .split(/[\s,]+/)
    .filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  const terms: SiteTerm[] = [];
  for (const p of parts) {
    const m = TERM.exec(p);
    if (m === null) return undefined;
    const first = Number(m[2]);
    const last = m[3] !== undefined ? Number(m[3]) : first;
    if (last < first) return undefined;
    terms.push({ file: slashes(m[1]!), first, last });
  }
  return terms;
}

/** `file:80,file:83` for a list of sites (several lines of one file: `file:80,file:83`). */
export function siteQueryText(sites: readonly { readonly file: string; readonly line: number }[]): string {
  return sites.map((s) => `${s.file.includes(' ') || s.file.includes(',') ? baseName(s.file) : s.file}:${s.line}`).join(',');
}

function baseName(p: string): string {
  const s = slashes(p);
  return s.slice(s.lastIndexOf('/') + 1);
}

function slashes(p: string): string {
  return p.replace(/\\/g, '/');
}

/** Does a recorded location fall on one of the terms? */
export function siteMatcher(terms: readonly SiteTerm[]): (loc: SourceLocation | undefined) => boolean {
  const fileHit = new Map<string, readonly SiteTerm[]>();
  const termsOf = (file: string): readonly SiteTerm[] => {
    let t = fileHit.get(file);
    if (t === undefined) {
      const f = slashes(file);
      t = terms.filter((x) => f === x.file || f.endsWith(`/${x.file}`));
      fileHit.set(file, t);
    }
    return t;
  };
  return (loc) => loc !== undefined && termsOf(loc.file).some((t) => loc.line >= t.first && loc.line <= t.last);
}

/** A drawable (or one of a composite's members) starts or ends at one of the sites. */
export function drawableAtSites(d: Drawable, at: (loc: SourceLocation | undefined) => boolean): boolean {
  const one = (p: Primitive): boolean => at(p.source?.start) || at(p.source?.end);
  return d.kind === 'composite' ? d.primitives.some(one) : one(d);
}
