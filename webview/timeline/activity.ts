/**
 * The statistics strip above the timeline (TraceVis §2.7): per pixel column, what share of the
 * shown rows is in which state — the innermost state of each row at that column, or, where the
 * payload has a preview box (zoomed out), that box's per-category exclusive shares. Exact when the
 * payload holds every drawable (tree depth 0), from previews otherwise. With `keyOf` the states
 * count under other keys (the code colourings). Pure (no DOM).
 */
import type { WindowColumns } from '../../src/protocol/wire';
import type { OffsetMap } from './timeScale';
import { spansInView, timeChunks } from './timeChunks';

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
  /** Payload offset → x in CSS px of the plot: x = shift + offset·k (the data layer's own mapping). */
  readonly map: OffsetMap;
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

/**
 * The strip for a payload and view. The states are culled by time chunk and their rows looked up
 * in a table (a dense payload holds over a million states, most outside the view: visiting each
 * through closures took ~20 ms, on the main thread each time the view came to rest).
 */
export function activityOf(a: ActivityInput): Activity {
  const c = a.columns;
  const slots = Math.max(0, a.slots);
  let cols = Math.max(1, Math.floor(a.width));
  if (slots * cols > MAX_CELLS) cols = Math.max(1, Math.floor(MAX_CELLS / Math.max(1, slots)));
  const scale = cols / Math.max(1, a.width);
  const owner = new Int32Array(slots * cols);
  const { shift, k } = a.map;
  const w = a.width;
  const rowStart = c.header.rowStart;
  const slotOfRow = countedSlots(a, rowStart, c.header.rowEnd, slots);
  const nRows = slotOfRow.length;
  const hidden = a.hidden.size > 0 ? a.hidden : undefined;
  const keyOf = a.keyOf;
  // States come outermost first: the innermost one at a column is marked last.
  const st = c.states;
  const { start, end, row, category } = st;
  const spans = k > 0 && Number.isFinite(k) ? spansInView(timeChunks(start, end), (-1 - shift) / k, (w + 1 - shift) / k) : [0, start.length];
  for (let sp = 0; sp < spans.length; sp += 2) {
    const to = spans[sp + 1]!;
    for (let i = spans[sp]!; i < to; i++) {
      const x0 = shift + start[i]! * k;
      const x1 = shift + end[i]! * k;
      if (x1 < 0 || x0 > w) continue;
      const r = row[i]! - rowStart;
      const slot = r >= 0 && r < nRows ? slotOfRow[r]! : -1;
      if (slot < 0) continue;
      const cat = category[i]!;
      if (hidden?.has(cat)) continue;
      markColumns(owner, slot * cols, cols, scale, x0, x1, (keyOf ? keyOf(i) : cat) + OFFSET);
    }
  }
  // Preview boxes stand for everything below them: their shares replace what the row shows there.
  const sh = c.shadows;
  for (let i = 0; i < sh.start.length; i++) {
    const x0 = shift + sh.start[i]! * k;
    const x1 = shift + sh.end[i]! * k;
    if (x1 < 0 || x0 > w) continue;
    const r = sh.row[i]! - rowStart;
    const slot = r >= 0 && r < nRows ? slotOfRow[r]! : -1;
    if (slot >= 0) markColumns(owner, slot * cols, cols, scale, x0, x1, -(i + 1));
  }
  const index = new Map<number, number>();
  const keys: number[] = [];
  const totals: number[] = [];
  const sums: number[][] = [];
  // cells come in runs of one key: the last key's index is kept
  let lastKey = Number.NaN;
  let lastIndex = 0;
  const add = (col: number, cat: number, v: number): void => {
    let j = cat === lastKey ? lastIndex : index.get(cat);
    if (j === undefined) {
      index.set(cat, (j = totals.length));
      keys.push(cat);
      totals.push(0);
      sums.push(new Array<number>(cols).fill(0));
    }
    lastKey = cat;
    lastIndex = j;
    totals[j]! += v;
    sums[j]![col]! += v;
  };
  const weights = c.shadowWeights;
  // one loop over the cells, not one per slot around one per column: V8 compiled the inner one on
  // the stack (OSR) and gave that code up at each exit from it (~280 deopts in the viewport bench)
  for (let cell = 0, col = 0; cell < slots * cols; cell++, col = col + 1 === cols ? 0 : col + 1) {
    const o = owner[cell]!;
    if (o > 0) add(col, o - OFFSET, 1);
    else if (o < 0 && a.previewKey !== undefined) add(col, a.previewKey, 1);
    else if (o < 0) {
      const i = -o - 1;
      const from = sh.weightStart[i]!;
      const n = sh.weightCount[i]!;
      let sum = 0;
      for (let q = from; q < from + n; q++) if (!a.hidden.has(weights.category[q]!)) sum += weights.excl[q]!;
      if (sum > 0) for (let q = from; q < from + n; q++) if (!a.hidden.has(weights.category[q]!)) add(col, weights.category[q]!, weights.excl[q]! / sum);
    }
  }
  const order = totals.map((_, j) => j).sort((p, q) => totals[q]! - totals[p]!);
  const categories = order.map((k) => keys[k]!);
  const K = categories.length;
  const share = new Float32Array(cols * K);
  order.forEach((j, at) => {
    const sum = sums[j]!;
    for (let col = 0; col < cols; col++) share[col * K + at] = slots > 0 ? sum[col]! / slots : 0;
  });
  return { cols, categories, share, rows: slots, source: c.header.lowestDepth === 0 ? 'exact' : 'preview' };
}

/** The counted slot of each payload row in [rowStart, rowEnd) (index row − rowStart), −1 when not counted. */
function countedSlots(a: ActivityInput, rowStart: number, rowEnd: number, slots: number): Int32Array {
  const out = new Int32Array(Math.max(0, rowEnd - rowStart));
  for (let r = 0; r < out.length; r++) {
    const s = a.slotOf(rowStart + r);
    out[r] = s >= 0 && s < slots ? s : -1;
  }
  return out;
}

/** Marks the columns of [x0, x1] (CSS px; `scale` columns a px) in one slot's line at `base` with `value`. */
function markColumns(owner: Int32Array, base: number, cols: number, scale: number, x0: number, x1: number, value: number): void {
  const c0 = Math.max(0, Math.floor(x0 * scale));
  const c1 = Math.min(cols, Math.max(c0 + 1, Math.ceil(x1 * scale)));
  // most states are a column or two: a loop (fill's call costs more)
  if (c1 - c0 <= 8) for (let col = c0; col < c1; col++) owner[base + col] = value;
  else owner.fill(value, base + c0, base + c1);
}
