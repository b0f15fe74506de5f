// Site marks in the palette (TraceVis §2.5 code colouring, "Show in timeline"): a drawable's flag
// bits select a drawing key instead of its category — a colouring's colour, or its category's
// colour faded into the background when other sites are being shown. The keys are negative so
// they never collide with category indices; draw.ts looks colours up by key as by category.
import { FLAG_SITE_MATCH, SITE_COLOUR_SHIFT } from '../../src/protocol/wire';
import type { Rgb, SiteMarksMessage } from '../../src/protocol/webview';
import { cssRgba } from './colour';
import { colourKey } from './codeColour';
import type { Palette } from './theme';

export interface SiteStyle {
  /** Grey out drawables without FLAG_SITE_MATCH. */
  readonly dim: boolean;
  /** Colour of colouring index i + 1. */
  readonly colours: readonly Rgb[];
}

/** What a window's flags depend on: the highlighted sites and each colouring's sites (not its colour). */
export function siteMarksKey(m: Pick<SiteMarksMessage, 'highlight' | 'colourings'>): string {
  return JSON.stringify([m.highlight ?? null, m.colourings.map((c) => c.sites)]);
}

/** The marks a new webview's windows are built with until the host says otherwise: none. */
export const NO_SITE_MARKS = siteMarksKey({ colourings: [] });

const dimKey = (cat: number): number => -1000 - cat;
const FADE = 0.18;

function fade(c: Rgb, bg: Rgb): Rgb {
  return [Math.round(bg[0] + (c[0] - bg[0]) * FADE), Math.round(bg[1] + (c[1] - bg[1]) * FADE), Math.round(bg[2] + (c[2] - bg[2]) * FADE)];
}

/** The palette with the site keys added (the same palette when nothing is marked). */
export function withSiteStyle(p: Palette, s: SiteStyle | undefined): Palette {
  if (s === undefined || (!s.dim && s.colours.length === 0)) return p;
  const fill = new Map(p.fill);
  const line = new Map(p.line);
  const fillRgb = new Map(p.fillRgb);
  s.colours.forEach((rgb, i) => {
    fill.set(colourKey(i + 1), cssRgba(rgb));
    line.set(colourKey(i + 1), cssRgba(rgb));
    fillRgb.set(colourKey(i + 1), rgb);
  });
  if (s.dim) {
    for (const [cat, rgb] of [...p.fillRgb]) {
      if (cat < 0) continue;
      const faded = fade(rgb, p.background);
      fill.set(dimKey(cat), cssRgba(faded));
      line.set(dimKey(cat), cssRgba(faded));
      fillRgb.set(dimKey(cat), faded);
    }
  }
  const colours = s.colours.length;
  const siteKey = (cat: number, flags: number): number => {
    if (s.dim && (flags & FLAG_SITE_MATCH) === 0) return cat >= 0 ? dimKey(cat) : cat;
    const k = flags >>> SITE_COLOUR_SHIFT;
    return k > 0 && k <= colours ? colourKey(k) : cat;
  };
  // Preview boxes summarise many drawables and carry no source sites: while sites are shown they
  // fade with everything not known to come from them (zooming in shows the exact drawables).
  const previewKey = s.dim ? (cat: number): number => (cat >= 0 ? dimKey(cat) : cat) : undefined;
  return { ...p, fill, line, fillRgb, siteKey, ...(previewKey ? { previewKey } : {}) };
}
