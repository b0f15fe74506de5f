/**
 * The drawing key of every state of a payload under a palette (its fill: the category, or a site
 * mark's key from its flags), HIDDEN_KEY for categories the legend hides. Computed once per
 * payload and palette (a palette is replaced when colours, the legend or site marks change), so a
 * frame reads one number per state instead of a set lookup and a call.
 */

export const HIDDEN_KEY = -0x80000000;

/** What of a palette (theme.ts) decides the keys. */
export interface KeySource {
  readonly hidden: ReadonlySet<number>;
  readonly siteKey?: (cat: number, flags: number) => number;
}

const byPalette = new WeakMap<KeySource, WeakMap<Int32Array, Int32Array>>();

export function drawKeys(p: KeySource, category: Int32Array, flags: ArrayLike<number>): Int32Array {
  // nothing hidden, no site marks: every key is the category (no per-payload pass on arrival)
  if (p.hidden.size === 0 && p.siteKey === undefined) return category;
  let perPalette = byPalette.get(p);
  if (perPalette === undefined) byPalette.set(p, (perPalette = new WeakMap()));
  let keys = perPalette.get(category);
  if (keys === undefined || keys.length !== category.length) {
    keys = new Int32Array(category.length);
    const siteKey = p.siteKey;
    for (let i = 0; i < keys.length; i++) {
      const cat = category[i]!;
      keys[i] = p.hidden.has(cat) ? HIDDEN_KEY : siteKey ? siteKey(cat, flags[i]!) : cat;
    }
    perPalette.set(category, keys);
  }
  return keys;
}
