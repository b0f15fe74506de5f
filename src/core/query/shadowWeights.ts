/**
 * The payload's table of state-shadow weights (wire.ts shadowWeights): each shadow's category
 * weights, from its object or from its row of a shadow table (shadowTable.ts), sorted by exclusion
 * ratio descending, then inclusion ratio, then category, so the largest band is drawn at the bottom.
 */
import type { CategoryWeight } from '../model/types';
import { drawnRatio as ratio, type ShadowTable } from '../formats/slog2/shadowTable';
import { SHADOW_WEIGHT_SPEC, allocateTable, type Columns, type ShadowSpec, type ShadowWeightSpec } from './windowColumns';

/** A state shadow's category weights: its object's, or those of its row of a table. */
export type WeightsFrom = readonly CategoryWeight[] | { readonly table: ShadowTable; readonly row: number };

function weightCount(from: WeightsFrom): number {
  return 'table' in from ? from.table.weightStart[from.row + 1]! - from.table.weightStart[from.row]! : from.length;
}

/**
 * The weights of shadows [0, sh's length) from `sources` (one per shadow, in the same order; any
 * further ones only size the table, as a truncated payload's did): sets each shadow's weightStart
 * and weightCount. A table row's weights come in drawing order already (ShadowTable.weightOrder)
 * and are copied in it; an object's are sorted by an insertion as each is written (a shadow has a
 * handful), the values compared as their f32 columns hold them: a sort after the copy, through a
 * comparator and a swap per column, was ~10 ms of a first window in a fresh process.
 */
export function shadowWeightTable(sources: readonly WeightsFrom[], sh: Columns<ShadowSpec>): Columns<ShadowWeightSpec> {
  let total = 0;
  for (const from of sources) total += weightCount(from);
  const sw = allocateTable(SHADOW_WEIGHT_SPEC, total);
  let w = 0;
  let first = 0;
  const put = (category: number, exclRatio: number, inclRatio: number, count: number): void => {
    const excl = Math.fround(ratio(exclRatio));
    const incl = Math.fround(ratio(inclRatio));
    let j = w;
    for (; j > first; j--) {
      const e = sw.excl[j - 1]!;
      const n = sw.incl[j - 1]!;
      if (!(excl > e || (excl === e && (incl > n || (incl === n && category < sw.category[j - 1]!))))) break;
      sw.category[j] = sw.category[j - 1]!;
      sw.excl[j] = e;
      sw.incl[j] = n;
      sw.count[j] = sw.count[j - 1]!;
    }
    sw.category[j] = category;
    sw.excl[j] = excl;
    sw.incl[j] = incl;
    sw.count[j] = count;
    w++;
  };
  for (let i = 0; i < sh.start.length; i++) {
    const from = sources[i]!;
    sh.weightStart[i] = w;
    sh.weightCount[i] = weightCount(from);
    first = w;
    if ('table' in from) {
      // already in drawing order (ShadowTable.weightOrder)
      const { table: t, row: k } = from;
      for (let j = t.weightStart[k]!; j < t.weightStart[k + 1]!; j++, w++) {
        const o = t.weightOrder[j]!;
        sw.category[w] = t.weightCategory[o]!;
        sw.excl[w] = ratio(t.weightExcl[o]!);
        sw.incl[w] = ratio(t.weightIncl[o]!);
        sw.count[w] = t.weightCount[o]!;
      }
    } else for (const cw of from) put(cw.category, cw.excl, cw.incl, cw.count);
  }
  return sw;
}
