/**
 * Site marks of a trace's timeline: the sites being shown ("Show in timeline": their drawables
 * highlighted, the rest greyed) and the code colourings (TraceVis §2.5: drawables from chosen
 * source lines drawn in a chosen colour). Both are `file:line` site queries (siteQuery.ts); the
 * marker gives the window builder the flag bits of one located drawable.
 */
import { FLAG_SITE_MATCH, MAX_SITE_COLOURINGS, SITE_COLOUR_SHIFT, type SiteMarker } from '../model/siteFlags';
import { parseSiteQuery, siteMatcher } from './siteQuery';

export type Rgb = readonly [number, number, number];

/** One code colouring: the drawables from `sites` (a `file:line[-line]` list) drawn in `rgb`. */
export interface SiteColouring {
  readonly sites: string;
  readonly rgb: Rgb;
}

export interface SiteMarks {
  /** Site query whose drawables are highlighted (others greyed); undefined: none. */
  readonly highlight?: string;
  readonly colourings: readonly SiteColouring[];
}

export function isSiteColouring(x: unknown): x is SiteColouring {
  const c = x as SiteColouring | undefined;
  return (
    typeof c?.sites === 'string' &&
    parseSiteQuery(c.sites) !== undefined &&
    Array.isArray(c.rgb) &&
    c.rgb.length === 3 &&
    c.rgb.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)
  );
}

/** Flag bits per drawable, or undefined when there is nothing to mark. The first colouring that matches wins. */
export function siteMarker(marks: SiteMarks): SiteMarker | undefined {
  const terms = marks.highlight !== undefined ? parseSiteQuery(marks.highlight) : undefined;
  const highlight = terms !== undefined ? siteMatcher(terms) : undefined;
  const colours = marks.colourings.slice(0, MAX_SITE_COLOURINGS).map((c) => {
    const t = parseSiteQuery(c.sites);
    return t !== undefined ? siteMatcher(t) : () => false;
  });
  if (highlight === undefined && colours.length === 0) return undefined;
  return (start, end) => {
    let bits = 0;
    if (highlight !== undefined && (highlight(start) || highlight(end))) bits |= FLAG_SITE_MATCH;
    for (let i = 0; i < colours.length; i++) {
      if (colours[i]!(start) || colours[i]!(end)) {
        bits |= (i + 1) << SITE_COLOUR_SHIFT;
        break;
      }
    }
    return bits;
  };
}
