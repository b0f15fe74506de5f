/** Window flag bits of site marks (set by core/search/siteMarks, carried in core/query's window columns). */
import type { SourceLocation } from './types';

/** The drawable comes from a source site being shown ("Show in timeline": the others are greyed). */
export const FLAG_SITE_MATCH = 4;
/** Bits 3–7: 1 + the index of the code colouring (TraceVis §2.5) that paints the drawable, 0 none. */
export const SITE_COLOUR_SHIFT = 3;
export const MAX_SITE_COLOURINGS = 31;

/**
 * The flag bits of a located drawable from its start and end sites (FLAG_SITE_MATCH, the colouring):
 * a function of the two sites only, so a window builder may ask once per pair of sites.
 */
export type SiteMarker = (start: SourceLocation | undefined, end: SourceLocation | undefined) => number;
