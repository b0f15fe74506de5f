/**
 * Code colourings (TraceVis §2.5) in the trace's sidecar `<trace>.mpetrace.json`, next to the
 * bookmarks: a top-level `"colourings": [{ "sites": "user_states.c:80,user_states.c:83",
 * "rgb": [230, 25, 75] }, …]` (one entry per colouring, arrays on one line: short diffs). These
 * functions work on the sidecar's top-level fields other than the bookmarks (SidecarDoc.extra).
 * Entries that do not validate are dropped from the list the timeline uses but kept in the file.
 */
import { isSiteColouring, type SiteColouring } from './siteMarks';

export const COLOURINGS_KEY = 'colourings';

export function colouringsOf(extra: Readonly<Record<string, unknown>>): SiteColouring[] {
  const raw = extra[COLOURINGS_KEY];
  if (!Array.isArray(raw)) return [];
  return raw.filter(isSiteColouring).map((c) => ({ sites: c.sites, rgb: [c.rgb[0], c.rgb[1], c.rgb[2]] as const }));
}

/** `extra` with `colourings` replacing the valid entries (invalid ones kept after them). */
export function withColourings(extra: Readonly<Record<string, unknown>>, colourings: readonly SiteColouring[]): Record<string, unknown> {
  const raw = extra[COLOURINGS_KEY];
  const invalid = Array.isArray(raw) ? raw.filter((c) => !isSiteColouring(c)) : [];
  const list = [...colourings.map((c) => ({ sites: c.sites, rgb: [c.rgb[0], c.rgb[1], c.rgb[2]] })), ...invalid];
  const out: Record<string, unknown> = { ...extra };
  if (list.length > 0) out[COLOURINGS_KEY] = list;
  else delete out[COLOURINGS_KEY];
  return out;
}
