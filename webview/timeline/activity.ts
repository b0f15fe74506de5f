/**
 * The statistics strip above the timeline (TraceVis §2.7): per pixel column, what share of the
 * shown rows is in which state — the innermost state of each row at that column, or, where the
 * payload has a preview box (zoomed out), that box's per-category exclusive shares. Exact when the
 * payload holds every drawable (tree depth 0), from previews otherwise. With `keyOf` the states
 * count under other keys (the code colourings). Pure (no DOM).
 */
import type { WindowColumns } from '../../src/protocol/wire';

export interface Activity {
  /** Columns of the strip (at most the plot's pixel width). */
  readonly cols: number;
  /** Categories present, in order of their total share (largest first). */
  readonly categories: readonly number[];
  /** share[col * categories.length + k]: fraction of the shown rows in categories[k] at `col`. */
  readonly share: Float32Array;
  readonly rows: number;
  /** 'exact' (every drawable of the window) or 'preview' (from the preview boxes of tree depth ≥ 1). */
  readonly source: 'exact' | 'preview';
}

/** Owner marks per (row, column) are Int32: category + OFFSET for a state, −(shadow + 1) for a preview box. */
const OFFSET = 1 << 20;
/** Cap on rows × columns of the owner grid (memory and time stay bounded on very wide runs). */
const MAX_CELLS = 4 << 20;

export interface ActivityInput {
  readonly columns: WindowColumns;
  /** Payload offset → x in CSS px of the plot. */
  readonly x: (offset: number) => number;
  readonly width: number;
  /** Slot (0…slots−1) of a payload row among the rows counted, −1 when it is not counted. */
  readonly slotOf: (row: number) => number;
  readonly slots: number;
  readonly hidden: ReadonlySet<number>;
  /** Count state i under this key instead of its category (code colourings: TraceVis §2.5). */
  readonly keyOf?: (state: number) => number;
  /** Count every preview box wholly under this key (they carry no sites) instead of by category. */
  readonly previewKey?: number;
}

export function activityOf(a: ActivityInput): Activity {
  const c = a.columns;
  const slots = Math.max(0, a.slots);
  let cols = Math.max(1, Math.floor(a.width));
  if (slots * cols > MAX_CELLS) cols = Math.max(1, Math.floor(MAX_CELLS / Math.max(1, slots)));
  const scale = cols / Math.max(1, a.width);
  const owner = new Int32Array(slots * cols);
  const mark = (slot: number, x0: number, x1: number, value: number): void => {
    if (slot < 0 || slot >= slots) return;
    const c0 = Math.max(0, Math.floor(x0 * scale));
    const c1 = Math.min(cols, Math.max(c0 + 1, Math.ceil(x1 * scale)));
    owner.fill(value, slot * cols + c0, slot * cols + c1);
  };
  // States come outermost first: the innermost one at a column is marked last.
  const st = c.states;
  for (let i = 0; i < st.start.length; i++) {
    const cat = st.category[i]!;
    if (a.hidden.has(cat)) continue;
    const x0 = a.x(st.start[i]!);
    const x1 = a.x(st.end[i]!);
    if (x1 < 0 || x0 > a.width) continue;
    mark(a.slotOf(st.row[i]!), x0, x1, (a.keyOf ? a.keyOf(i) : cat) + OFFSET);
  }
  // Preview boxes stand for everything below them: their shares replace what the row shows there.
  const sh = c.shadows;
  for (let i = 0; i < sh.start.length; i++) {
    const x0 = a.x(sh.start[i]!);
    const x1 = a.x(sh.end[i]!);
    if (x1 < 0 || x0 > a.width) continue;
    mark(a.slotOf(sh.row[i]!), x0, x1, -(i + 1));
  }
  const index = new Map<number, number>();
  const keys: number[] = [];
  const totals: number[] = [];
  const sums: number[][] = [];
  const add = (col: number, cat: number, v: number): void => {
    let k = index.get(cat);
    if (k === undefined) {
      index.set(cat, (k = totals.length));
      keys.push(cat);
      totals.push(0);
      sums.push(new Array<number>(cols).fill(0));
    }
    totals[k]! += v;
    sums[k]![col]! += v;
  };
  const w = c.shadowWeights;
  for (let s = 0; s < slots; s++) {
    for (let col = 0; col < cols; col++) {
      const o = owner[s * cols + col]!;
      if (o > 0) add(col, o - OFFSET, 1);
      else if (o < 0 && a.previewKey !== undefined) add(col, a.previewKey, 1);
      else if (o < 0) {
        const i = -o - 1;
        const from = sh.weightStart[i]!;
        const n = sh.weightCount[i]!;
        let sum = 0;
        for (let k = from; k < from + n; k++) if (!a.hidden.has(w.category[k]!)) sum += w.excl[k]!;
        if (sum > 0) for (let k = from; k < from + n; k++) if (!a.hidden.has(w.category[k]!)) add(col, w.category[k]!, w.excl[k]! / sum);
      }
    }
  }
  const order = totals.map((_, k) => k).sort((p, q) => totals[q]! - totals[p]!);
  const categories = order.map((k) => keys[k]!);
  const K = categories.length;
  const share = new Float32Array(cols * K);
  order.forEach((k, j) => {
    const row = sums[k]!;
    for (let col = 0; col < cols; col++) share[col * K + j] = slots > 0 ? row[col]! / slots : 0;
  });
  return { cols, categories, share, rows: slots, source: c.header.lowestDepth === 0 ? 'exact' : 'preview' };
}
