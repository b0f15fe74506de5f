/**
 * Exclusive time of states on each timeline (SLOG2.md §12.2/§16): states are visited in drawing
 * order (earliest ascending, latest descending, then category); a stack holds the chain of open
 * enclosing states; each state's own time is subtracted from the nearest enclosing one ("directly
 * nested", containment judged on the full bounds). Exactly Jumpshot's stack, so overlapping
 * siblings are handled the way the reference handles them.
 *
 * Streaming: states are buffered until the caller promises (a watermark) that no later state
 * starts before a time; everything starting before it is then swept and dropped, so memory is the
 * states of one batch plus the stacks, not the whole range. The states live in typed columns
 * (a pool with a free list), the per-row heaps and stacks hold their indices: no object per state.
 */
import { grown } from '../bytes/grown';
import type { CellTable } from './cellTable';
import { CategoryTable } from './categoryTable';

export function compareDrawingOrder(
  a: { readonly earliest: number; readonly latest: number; readonly category: number; readonly finalLineID: number },
  b: { readonly earliest: number; readonly latest: number; readonly category: number; readonly finalLineID: number },
): number {
  return a.earliest - b.earliest || b.latest - a.latest || a.category - b.category || a.finalLineID - b.finalLineID;
}

interface Row {
  /** Binary min-heap of pool indices in drawing order: O(log n) however long states wait. */
  heap: Int32Array;
  heapSize: number;
  /**
   * The heap is a sorted array: every state since it was last empty came in drawing order, as a
   * time-ordered stream's states mostly do. It is then swept front to back, without the heap's
   * pops (their comparisons were 13 % of the statistics' own time).
   */
  sorted: boolean;
  stack: Int32Array;
  stackSize: number;
  /** In the nesting's list of rows with buffered states. */
  dirty: boolean;
}

/** Line IDs below this find their row by index (the table grows to the largest seen). */
const ROW_TABLE_LIMIT = 1 << 20;

export class StateNesting {
  private earliest = new Float64Array(256);
  private latest = new Float64Array(256);
  private category = new Float64Array(256);
  private finalLine = new Float64Array(256);
  /** Clipped duration (exact) or clipped minus shadow-covered time (approximate). */
  private own = new Float64Array(256);
  /** The cell credited with `own` and debited with its children's. */
  private cell = new Int32Array(256);
  private used = 0;
  private free = new Int32Array(64);
  private freeSize = 0;
  /** Rows by line ID: an array for IDs in [0, ROW_TABLE_LIMIT) (MPE's are 0…n−1), a map for others. */
  private readonly rows = new CategoryTable<Row>(ROW_TABLE_LIMIT);
  private dirtyRows: Row[] = [];
  private lastLine = NaN;
  private lastRow: Row | undefined;

  constructor(private readonly cells: CellTable) {}

  /**
   * The next state's earliest, latest and own time, set before `add`: doubles passed to a call
   * V8 does not inline are boxed, three heap numbers per state.
   */
  readonly incoming = new Float64Array(3);

  /**
   * A state of `lineID` with the times in `incoming`; `cell` is credited with its own time.
   * `inOrder`: the caller's promise that no state added later comes before this one in drawing
   * order (a stream in drawing order, without composites, the state's bounds its own). With none
   * of its row waiting, it is swept at once: no heap, no watermark to wait for.
   */
  add(lineID: number, category: number, finalLineID: number, cell: number, inOrder = false): void {
    const s = this.allocate();
    this.earliest[s] = this.incoming[0]!;
    this.latest[s] = this.incoming[1]!;
    this.category[s] = category;
    this.finalLine[s] = finalLineID;
    this.own[s] = this.incoming[2]!;
    this.cell[s] = cell;
    const row = this.rowOf(lineID);
    if (inOrder && row.heapSize === 0) return this.sweep(row, s);
    if (row.heapSize === row.heap.length) row.heap = grown(row.heap, row.heapSize + 1);
    const h = row.heap;
    if (row.heapSize === 0) row.sorted = true;
    else if (row.sorted && this.compare(h[row.heapSize - 1]!, s) > 0) row.sorted = false;
    let i = row.heapSize++;
    // A sorted array is a heap: a state in order goes at the end, no step up.
    if (!row.sorted)
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.compare(h[parent]!, s) <= 0) break;
        h[i] = h[parent]!;
        i = parent;
      }
    h[i] = s;
    if (!row.dirty) {
      row.dirty = true;
      this.dirtyRows.push(row);
    }
  }

  /** Sweeps, on every row, the buffered states that start before `watermark` (all when undefined). */
  flush(watermark?: number): void {
    const still: Row[] = [];
    for (const row of this.dirtyRows) {
      this.flushRow(row, watermark);
      if (row.heapSize > 0) still.push(row);
      else row.dirty = false;
    }
    this.dirtyRows = still;
  }

  private rowOf(lineID: number): Row {
    if (lineID === this.lastLine && this.lastRow !== undefined) return this.lastRow;
    // (a map lookup per state was a tenth of a 100 000-rank trace's statistics)
    let row = this.rows.get(lineID);
    if (row === undefined)
      this.rows.set(lineID, (row = { heap: new Int32Array(16), heapSize: 0, sorted: true, stack: new Int32Array(16), stackSize: 0, dirty: false }));
    this.lastLine = lineID;
    this.lastRow = row;
    return row;
  }

  private compare(a: number, b: number): number {
    return (
      this.earliest[a]! - this.earliest[b]! ||
      this.latest[b]! - this.latest[a]! ||
      this.category[a]! - this.category[b]! ||
      this.finalLine[a]! - this.finalLine[b]!
    );
  }

  private allocate(): number {
    if (this.freeSize > 0) return this.free[--this.freeSize]!;
    const s = this.used++;
    if (s >= this.own.length) {
      this.earliest = grown(this.earliest, s + 1);
      this.latest = grown(this.latest, s + 1);
      this.category = grown(this.category, s + 1);
      this.finalLine = grown(this.finalLine, s + 1);
      this.own = grown(this.own, s + 1);
      this.cell = grown(this.cell, s + 1);
    }
    return s;
  }

  private release(s: number): void {
    if (this.freeSize === this.free.length) this.free = grown(this.free, this.freeSize + 1);
    this.free[this.freeSize++] = s;
  }

  private popMin(row: Row): number {
    const h = row.heap;
    const top = h[0]!;
    const last = h[--row.heapSize]!;
    const n = row.heapSize;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.compare(h[r]!, h[l]!) < 0 ? r : l;
        if (this.compare(last, h[c]!) <= 0) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }

  private flushRow(row: Row, watermark: number | undefined): void {
    if (row.sorted) return this.flushSorted(row, watermark);
    while (row.heapSize > 0 && (watermark === undefined || this.earliest[row.heap[0]!]! < watermark)) this.sweep(row, this.popMin(row));
  }

  /** The same sweep over a sorted heap: a prefix, then the rest moved to the front (still sorted). */
  private flushSorted(row: Row, watermark: number | undefined): void {
    const h = row.heap;
    const n = row.heapSize;
    let i = 0;
    while (i < n && (watermark === undefined || this.earliest[h[i]!]! < watermark)) this.sweep(row, h[i++]!);
    if (i === 0) return;
    h.copyWithin(0, i, n);
    row.heapSize = n - i;
  }

  /** The next state of the row in drawing order: close the states it is not inside, credit its own time. */
  private sweep(row: Row, cur: number): void {
    const exclusive = this.cells.exclusive;
    const e = this.earliest[cur]!;
    const l = this.latest[cur]!;
    while (row.stackSize > 0) {
      const top = row.stack[row.stackSize - 1]!;
      if (this.earliest[top]! <= e && l <= this.latest[top]!) break;
      row.stackSize--;
      this.release(top);
    }
    const own = this.own[cur]!;
    exclusive[this.cell[cur]!] += own;
    if (row.stackSize > 0) exclusive[this.cell[row.stack[row.stackSize - 1]!]!] -= own;
    if (row.stackSize === row.stack.length) row.stack = grown(row.stack, row.stackSize + 1);
    row.stack[row.stackSize++] = cur;
  }
}
