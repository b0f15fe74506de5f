/**
 * The hot loop of a dense frame (drawData.ts): over a run of a payload's states, in table order,
 * cull by row and time, mark the pixel columns of the narrow states (last one wins, as if
 * painted) and list the wide ones for drawing as boxes. It stops at the first visible state of
 * another depth, where drawBoxes paints the marks of the depth before going on.
 *
 * A function of its own over typed arrays and locals: the frame visits every state overlapping the
 * view (over 250 000 in the viewport bench), and inside drawBoxes the loop's counters and tables
 * were variables captured by its closures (a context load or store each), ~28 ns a state.
 */
import type { Columns, StateSpec } from '../../src/protocol/wire';
import { HIDDEN_KEY } from './drawKeys';
import { grown } from './grown';

/** States narrower than this are drawn through the column runs (few wide rects, not many thin ones). */
export const COLUMN_RUN_MAX_PX = 4;
/** Column marks store the drawing key + offset so that 0 means "nothing" (preview categories are −1…−3). */
export const CATEGORY_MARK_OFFSET = 1 << 20;

/** What a scan reads besides the states: where rows and times land in the frame. */
export interface ScanFrame {
  readonly keys: Int32Array;
  readonly rowStart: number;
  /** The visible slot of each payload row (row − rowStart), −1 when not shown. */
  readonly slotOfRow: Int32Array;
  readonly shift: number;
  readonly pxPerOffset: number;
  readonly width: number;
  /** The first visible slot, and the marks: one row of `cols` columns per visible slot. */
  readonly firstSlot: number;
  readonly cols: number;
  readonly column: Int32Array;
}

/** A scan's results; `wide` is reused from scan to scan (grown when a run needs more). */
export class ScanResult {
  /** Visible states of a shown category met (marked or listed). */
  drawn = 0;
  /** Narrow states marked since the marks were last painted. */
  marks = 0;
  /** Indices of the wide states, their slots and pixel spans, `wideCount` of them. */
  wide = new Int32Array(1024);
  wideSlot = new Int32Array(1024);
  wideX = new Float64Array(2048);
  wideCount = 0;

  private grow(): void {
    const n = this.wide.length * 2;
    this.wide = grown(this.wide, n);
    this.wideSlot = grown(this.wideSlot, n);
    this.wideX = grown(this.wideX, 2 * n);
  }

  /** Merges `other`'s wide states into these, both lists in table order (a pan's kept ones and those that came into view). */
  mergeWide(other: ScanResult): void {
    const n = this.wideCount;
    const m = other.wideCount;
    if (m === 0) return;
    while (this.wide.length < n + m) this.grow();
    const { wide, wideSlot, wideX } = this;
    let i = n - 1;
    let j = m - 1;
    for (let k = n + m - 1; j >= 0; k--) {
      const fromThis = i >= 0 && wide[i]! > other.wide[j]!;
      const src = fromThis ? this : other;
      const q = fromThis ? i-- : j--;
      wide[k] = src.wide[q]!;
      wideSlot[k] = src.wideSlot[q]!;
      wideX[2 * k] = src.wideX[2 * q]!;
      wideX[2 * k + 1] = src.wideX[2 * q + 1]!;
    }
    this.wideCount = n + m;
  }

  pushWide(i: number, slot: number, x0: number, x1: number): void {
    if (this.wideCount === this.wide.length) this.grow();
    const k = this.wideCount++;
    this.wide[k] = i;
    this.wideSlot[k] = slot;
    this.wideX[2 * k] = x0;
    this.wideX[2 * k + 1] = x1;
  }
}

/**
 * The end (exclusive) of a narrow state's marked columns: min(lastCol, max(f0 + 1, round(x1))),
 * in integers. Math.round and Math.floor took ~60 % of the scan (13.7 against 6.0 ns a state in
 * a node bench of 271 000 states); a narrow state that is not culled has 0 ≤ x1 < width + 4,
 * where (x1 + 0.5) | 0 is round(x1), and its f0 (floor of x0 > −4) is x0 | 0 for x0 ≥ 0.
 */
function lastColumn(f0: number, x1: number, lastCol: number): number {
  const r1 = (x1 + 0.5) | 0;
  const c = r1 > f0 + 1 ? r1 : f0 + 1;
  return c < lastCol ? c : lastCol;
}

/**
 * Scans states [from, to) at `depth`: returns the index of the first visible state of another
 * depth (its depth is then the caller's to switch to), or `to`. Marks go into `f.column`, wide
 * states into `out` (appended), counts into `out`.
 */
export function scanStates(st: Columns<StateSpec>, from: number, to: number, depth: number, f: ScanFrame, out: ScanResult): number {
  const { start, end, row, depth: depths } = st;
  const { keys, rowStart, slotOfRow, shift, pxPerOffset: k, width: w, firstSlot, cols, column } = f;
  const nRows = slotOfRow.length;
  const lastCol = cols - 1;
  let drawn = 0;
  let marks = 0;
  let i = from;
  for (; i < to; i++) {
    const r = row[i]! - rowStart;
    if (r < 0 || r >= nRows) continue;
    const slot = slotOfRow[r]!;
    if (slot < 0) continue;
    const x0 = shift + start[i]! * k;
    const x1 = shift + end[i]! * k;
    if (x1 < 0 || x0 > w) continue;
    if (depths[i]! !== depth) break;
    const key = keys[i]!;
    if (key === HIDDEN_KEY) continue;
    drawn++;
    if (x1 - x0 < COLUMN_RUN_MAX_PX) {
      const base = (slot - firstSlot) * cols;
      const f0 = x0 >= 0 ? x0 | 0 : Math.floor(x0);
      const c1 = lastColumn(f0, x1, lastCol);
      const mark = key + CATEGORY_MARK_OFFSET;
      for (let col = f0 > 0 ? f0 : 0; col < c1; col++) column[base + col] = mark;
      marks++;
    } else out.pushWide(i, slot, x0, x1);
  }
  out.drawn += drawn;
  out.marks += marks;
  return i;
}

/**
 * Scans states [from, to), all of one depth and of the row shown at `slot` (a run of stateRuns.ts):
 * scanStates without the per-state row and depth lookups. A full scan marks every column
 * (c0 = 0, c1 = cols − 1) and counts and lists every state (seenFrom = Infinity). After a pan
 * (stateMarks.ts) it marks only the columns [c0, c1) the pan uncovered (the others hold theirs,
 * and a state marked again there could cover a later one), and neither counts nor lists the
 * states seen before: x1 ≥ seenFrom and x0 ≤ seenTo. One function for both, its bounds plain
 * numbers, so that a pan's first frame runs the code the zoom frames made hot.
 */
export function scanRun(
  st: Columns<StateSpec>,
  from: number,
  to: number,
  slot: number,
  f: ScanFrame,
  out: ScanResult,
  c0: number,
  c1: number,
  seenFrom: number,
  seenTo: number,
): void {
  const { start, end } = st;
  const { keys, shift, pxPerOffset: k, width: w, cols, column } = f;
  const base = (slot - f.firstSlot) * cols;
  let drawn = 0;
  let marks = 0;
  for (let i = from; i < to; i++) {
    const x0 = shift + start[i]! * k;
    const x1 = shift + end[i]! * k;
    if (x1 < 0 || x0 > w) continue;
    const key = keys[i]!;
    if (key === HIDDEN_KEY) continue;
    // both compares run in every scan: a full scan (seenFrom = Infinity) that skipped the second
    // left it without type feedback, and a pan's first frame threw the optimised loop away there
    const after = x1 >= seenFrom;
    const before = x0 <= seenTo;
    const seen = after && before;
    if (!seen) drawn++;
    if (x1 - x0 < COLUMN_RUN_MAX_PX) {
      const f0 = x0 >= 0 ? x0 | 0 : Math.floor(x0);
      const e = lastColumn(f0, x1, c1);
      const mark = key + CATEGORY_MARK_OFFSET;
      let col = f0 > c0 ? f0 : c0;
      if (col >= e) continue;
      for (; col < e; col++) column[base + col] = mark;
      marks++;
    } else if (!seen) out.pushWide(i, slot, x0, x1);
  }
  out.drawn += drawn;
  out.marks += marks;
}
