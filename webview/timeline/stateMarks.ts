/**
 * The states' part of the last frame, kept while the view only pans (drawData.ts): the narrow
 * states' column marks, one array per depth, and the wide states each run listed. A pan by whole
 * CSS pixels moves the marks and scans only the states over the columns it uncovered
 * (stateScan.ts `scanRun` over a part), instead of every state in view: the marks are a function of the
 * state and the scale (each state's columns move with it), and the wide list of a run is the
 * kept one re-culled plus the states that came into view, in table order. The frame is then the
 * one a full scan gives (dataLayerPixels.test.ts pans and compares): drawData draws a pan at the
 * last frame's shift plus whole pixels, exactly (panAnchor.ts).
 *
 * Kept only where the table has runs (by depth and row) and the marks are at most MAX_KEPT_MARKS.
 */
import type { Columns, StateRuns, StateSpec } from '../../src/protocol/wire';
import { ScanResult } from './stateScan';
import { grown } from './grown';
import { sameScale, sameSlots } from './headsView';

/** Marks kept across frames at most (Int32 each): depths × visible rows × columns. */
const MAX_KEPT_MARKS = 4 << 20;

/** What the marks and the wide lists depend on besides the view's time offset. */
export interface MarksView {
  /** The state table and its draw keys (drawKeys.ts: hidden categories, site marks), by identity. */
  readonly table: Columns<StateSpec>;
  readonly keys: Int32Array;
  readonly runs: StateRuns;
  /** The visible slot of each payload row, by content; the first visible slot and how many. */
  readonly slots: Int32Array;
  readonly first: number;
  readonly visible: number;
  readonly cols: number;
  readonly width: number;
  readonly depths: number;
  /** x = shift + offset · k (CSS px). */
  readonly k: number;
  readonly shift: number;
}

/** How a frame's states are drawn: a full scan, or the kept marks moved by `dx` CSS px. */
/**
 * A frame's use of the kept marks. One shape for both kinds (a full frame's numbers are 0): the
 * frames before the first pan made drawBoxes' code for the full kind's shape, and a pan's object
 * of another shape threw that code away in the pan's first frame (V8: deopt, "wrong map").
 */
export interface MarksFrame {
  readonly kind: 'full' | 'pan';
  readonly dx: number;
  readonly shiftBefore: number;
  readonly drawnBefore: number;
}

export class StateMarks {
  private view: MarksView | undefined;
  private byDepth: Int32Array[] = [];
  /** Per depth, whether its array may hold a mark; and the frame that last cleared or moved it. */
  private marked = new Uint8Array(0);
  private readyAt = new Int32Array(0);
  private frameNo = 0;
  private ended = false;
  /** This frame's wide states of run r: wide[wideFrom[r] .. wideFrom[r + 1]), indices in table order. */
  private wide = new Int32Array(1024);
  private wideFrom = new Int32Array(1);
  /** The last frame's, the same way (swapped with this frame's at its end). */
  private kept = new Int32Array(1024);
  private keptFrom = new Int32Array(1);
  private wideUsed = 0;
  private lastRun = -1;
  /** The last frame's count of drawn states (full scan or pan). */
  private drawn = 0;
  /** Frames drawn by moving the marks (tests look). */
  panned = 0;

  /** Whether a table of this size keeps its marks. */
  static keeps(depths: number, visible: number, cols: number): boolean {
    return depths * visible * cols <= MAX_KEPT_MARKS;
  }

  /** Starts a frame of `v`: moved marks where only the time offset changed, by whole CSS px, else a full scan. */
  begin(v: MarksView): MarksFrame {
    this.frameNo++;
    // a frame that did not end (it threw) leaves nothing to move
    const last = this.ended ? this.view : undefined;
    this.ended = false;
    const dx = last === undefined ? undefined : movedBy(last, v);
    if (this.byDepth.length < v.depths) for (let d = this.byDepth.length; d < v.depths; d++) this.byDepth.push(new Int32Array(0));
    const n = v.visible * v.cols;
    for (let d = 0; d < v.depths; d++) if (this.byDepth[d]!.length < n) this.byDepth[d] = new Int32Array(n);
    if (this.marked.length < v.depths) {
      this.marked = new Uint8Array(v.depths);
      this.readyAt = new Int32Array(v.depths);
    }
    this.startLists(v.runs.count);
    this.view = v;
    if (dx === undefined || last === undefined) return { kind: 'full', dx: 0, shiftBefore: 0, drawnBefore: 0 };
    this.panned++;
    return { kind: 'pan', dx, shiftBefore: last.shift, drawnBefore: this.drawn };
  }

  /** Depth d's marks for this frame: emptied (full) or moved by `dx` with the uncovered columns emptied (pan). */
  marksOf(depth: number, frame: MarksFrame): Int32Array {
    const v = this.view!;
    const n = v.visible * v.cols;
    const m = this.byDepth[depth]!.subarray(0, n);
    if (this.readyAt[depth] === this.frameNo) return m;
    this.readyAt[depth] = this.frameNo;
    if (frame.kind === 'full' || this.marked[depth] === 0) {
      m.fill(0);
      this.marked[depth] = 0;
    } else if (frame.dx !== 0) moveMarks(m, v.visible, v.cols, frame.dx);
    return m;
  }

  /** Depth `depth` was given marks this frame. */
  setMarked(depth: number): void {
    this.marked[depth] = 1;
  }

  /** Whether depth `depth`'s array may hold marks. */
  isMarked(depth: number): boolean {
    return this.marked[depth] === 1;
  }

  /** The columns a pan of `dx` CSS px uncovered, [c0, c1). */
  uncovered(dx: number): [number, number] {
    const last = this.view!.cols - 1;
    return dx > 0 ? [0, Math.min(dx, last)] : [Math.max(0, last + dx), last];
  }

  /** Appends the kept wide states of run `r` still in view at the frame's shift, in order, to `out` (a pan). */
  keptWide(r: number, st: Columns<StateSpec>, slot: number, out: ScanResult): void {
    const v = this.view!;
    const { start, end } = st;
    const from = this.keptFrom[r]!;
    const to = this.keptFrom[r + 1]!;
    for (let j = from; j < to; j++) {
      const i = this.kept[j]!;
      const x0 = v.shift + start[i]! * v.k;
      const x1 = v.shift + end[i]! * v.k;
      if (x1 < 0 || x0 > v.width) continue;
      out.pushWide(i, slot, x0, x1);
    }
  }

  /** Records run `r`'s wide states, `scan.wide[0 .. wideCount)` (its whole list, in table order). */
  recordWide(r: number, scan: ScanResult): void {
    for (let q = this.lastRun + 1; q <= r; q++) this.wideFrom[q] = this.wideUsed;
    this.lastRun = r;
    const need = this.wideUsed + scan.wideCount;
    if (need > this.wide.length) this.wide = grown(this.wide, Math.max(need, 2 * this.wide.length));
    this.wide.set(scan.wide.subarray(0, scan.wideCount), this.wideUsed);
    this.wideUsed = need;
  }

  /** Ends the frame: its drawn count, and the runs' lists closed. */
  end(drawn: number): void {
    this.ended = true;
    this.drawn = drawn;
    const count = this.wideFrom.length - 1;
    for (let q = this.lastRun + 1; q <= count; q++) this.wideFrom[q] = this.wideUsed;
    // this frame's lists are the next frame's kept ones
    [this.kept, this.wide] = [this.wide, this.kept];
    [this.keptFrom, this.wideFrom] = [this.wideFrom, this.keptFrom];
  }

  /** Forgets the kept frame (the next is a full scan). */
  forget(): void {
    this.view = undefined;
    this.ended = false;
  }

  private startLists(runs: number): void {
    if (this.wideFrom.length !== runs + 1) this.wideFrom = new Int32Array(runs + 1);
    this.wideUsed = 0;
    this.lastRun = -1;
  }
}

/** How far (whole CSS px) the view moved from `last` to `next`, if only its time offset changed by whole pixels. */
function movedBy(last: MarksView, next: MarksView): number | undefined {
  if (
    last.table !== next.table ||
    last.keys !== next.keys ||
    last.runs !== next.runs ||
    last.first !== next.first ||
    last.visible !== next.visible ||
    last.cols !== next.cols ||
    last.width !== next.width ||
    last.depths !== next.depths ||
    !sameScale(last.k, next.k, next.shift, next.width) ||
    !sameSlots(last.slots, next.slots)
  )
    return undefined;
  const d = next.shift - last.shift;
  const dx = Math.round(d);
  // exactly: the shift is drawn on a grid, and a pan's is the last one plus whole pixels (panAnchor.ts)
  if (d !== dx || Math.abs(dx) >= next.cols - 1) return undefined;
  return dx;
}

/**
 * Moves every row's marks `dx` columns (the last column stays empty: marks never reach it) and
 * empties the columns uncovered.
 */
function moveMarks(m: Int32Array, rows: number, cols: number, dx: number): void {
  const last = cols - 1;
  for (let r = 0; r < rows; r++) {
    const at = r * cols;
    if (dx > 0) {
      m.copyWithin(at + dx, at, at + last - dx);
      m.fill(0, at, at + dx);
    } else {
      m.copyWithin(at, at - dx, at + last);
      m.fill(0, at + last + dx, at + last);
    }
  }
}
