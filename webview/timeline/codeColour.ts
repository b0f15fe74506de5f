// Palette keys of the code colourings (TraceVis §2.5): colouring k (1-based, from a drawable's
// flag bits) is drawn under key −100 − k. DOM-free, so the activity strip's tests can use it.
import { SITE_COLOUR_SHIFT } from '../../src/protocol/wire';

export const colourKey = (k: number): number => -100 - k;

/** The key of states no code colouring covers (drawn muted in the activity strip's code view). */
export const UNCOLOURED_KEY = -100;

/** The palette key of a drawable's code colouring (its flags), or UNCOLOURED_KEY. */
export function codeColourKey(flags: number, colourings: number): number {
  const k = flags >>> SITE_COLOUR_SHIFT;
  return k > 0 && k <= colourings ? colourKey(k) : UNCOLOURED_KEY;
}
