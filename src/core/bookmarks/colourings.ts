/**
 * Code colourings (TraceVis §2.5) in the trace's sidecar `<trace>.mpetrace.json`, next to the
 * bookmarks: a top-level `"colourings": [{ "sites": "user_states.c:80,user_states.c:83",
 * "rgb": [230, 25, 75] }, …]` (one entry per colouring, arrays on one line: short diffs).
 * Entries that do not validate are dropped from the list the timeline uses but kept in the file.
 */
import { isSiteColouring, type SiteColouring } from '../search/siteMarks';
import type { SidecarDoc } from './sidecar';

export const COLOURINGS_KEY = 'colourings';

export function colouringsOf(doc: SidecarDoc): SiteColouring[] {
  const raw = doc.extra[COLOURINGS_KEY];
  if (!Array.isArray(raw)) return [];
  return raw.filter(isSiteColouring).map((c) => ({ sites: c.sites, rgb: [c.rgb[0], c.rgb[1], c.rgb[2]] as const }));
}

/** The document with `colourings` replacing the valid entries (invalid ones kept after them). */
export function withColourings(doc: SidecarDoc, colourings: readonly SiteColouring[]): SidecarDoc {
  const raw = doc.extra[COLOURINGS_KEY];
  const invalid = Array.isArray(raw) ? raw.filter((c) => !isSiteColouring(c)) : [];
  const list = [...colourings.map((c) => ({ sites: c.sites, rgb: [c.rgb[0], c.rgb[1], c.rgb[2]] })), ...invalid];
  const extra: Record<string, unknown> = { ...doc.extra };
  if (list.length > 0) extra[COLOURINGS_KEY] = list;
  else delete extra[COLOURINGS_KEY];
  return { entries: doc.entries, extra };
}
