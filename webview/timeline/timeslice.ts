/**
 * The timeslice: what every shown row is doing at one time t — its stack of states (outermost
 * first), or the summary of a preview box when the view is zoomed out — straight from the loaded
 * payload (pure, no DOM).
 */
import type { WindowColumns } from '../../src/protocol/wire';

export interface SliceRow {
  readonly row: number;
  /** Categories of the states containing t, outermost first. */
  readonly stack: readonly number[];
  /** When t falls in a preview box: its categories with their exclusive shares, largest first. */
  readonly summary?: readonly { readonly category: number; readonly share: number }[];
}

/**
 * States (and preview boxes) containing absolute time `t`, for `rows` in that order (rows not in
 * the payload get an empty stack). Hidden categories are skipped.
 */
export function timesliceAt(c: WindowColumns, t: number, rows: readonly number[], hidden: ReadonlySet<number> = new Set()): SliceRow[] {
  const o = t - c.header.baseTime;
  const stacks = new Map<number, { depth: number; category: number }[]>();
  const summaries = new Map<number, { category: number; share: number }[]>();
  for (const r of rows) stacks.set(r, []);
  const st = c.states;
  for (let i = 0; i < st.start.length; i++) {
    if (!(st.start[i]! <= o && o <= st.end[i]!)) continue;
    const list = stacks.get(st.row[i]!);
    if (!list || hidden.has(st.category[i]!)) continue;
    list.push({ depth: st.depth[i]!, category: st.category[i]! });
  }
  const sh = c.shadows;
  const sw = c.shadowWeights;
  for (let i = 0; i < sh.start.length; i++) {
    if (!(sh.start[i]! <= o && o <= sh.end[i]!) || !stacks.has(sh.row[i]!) || summaries.has(sh.row[i]!)) continue;
    const parts: { category: number; share: number }[] = [];
    for (let k = sh.weightStart[i]!; k < sh.weightStart[i]! + sh.weightCount[i]!; k++) {
      if (!hidden.has(sw.category[k]!)) parts.push({ category: sw.category[k]!, share: sw.excl[k]! });
    }
    parts.sort((a, b) => b.share - a.share);
    summaries.set(sh.row[i]!, parts);
  }
  return rows.map((row) => {
    const stack = stacks
      .get(row)!
      .sort((a, b) => a.depth - b.depth)
      .map((s) => s.category);
    const summary = summaries.get(row);
    return summary ? { row, stack, summary } : { row, stack };
  });
}
