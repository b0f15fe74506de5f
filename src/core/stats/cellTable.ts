/**
 * The statistics' per-(row, category) cells as typed columns, found by (line ID, category) with
 * one map lookup per row and an array index per category. The exact statistics touch a cell for
 * every drawable (23 M for 1 GB of SLOG-2): nested maps of cell objects spent more time there than
 * the decoding of the drawables did.
 */
import { grown } from '../bytes/grown';
import { CategoryTable } from './categoryTable';
import type { InstanceRef } from './types';

interface RowCells {
  /** Cell index by category. */
  readonly cells: CategoryTable<number>;
  /** This row's cells in the order they were made. */
  readonly order: number[];
}

export class CellTable {
  private n = 0;
  count = new Float64Array(64);
  /** Arrows: Σ message sizes. */
  bytes = new Float64Array(64);
  inclusive = new Float64Array(64);
  exclusive = new Float64Array(64);
  /** Real drawables whose full duration went into sum/min/max. */
  durations = new Float64Array(64);
  sum = new Float64Array(64);
  min = new Float64Array(64);
  max = new Float64Array(64);
  category = new Float64Array(64);
  readonly shortest: (InstanceRef | undefined)[] = [];
  readonly longest: (InstanceRef | undefined)[] = [];
  private readonly rows = new Map<number, RowCells>();
  private lastLine = NaN;
  private lastRow: RowCells | undefined;

  /** The cell of (lineID, category), made empty on first use. */
  index(lineID: number, category: number): number {
    let row = this.lastRow;
    if (lineID !== this.lastLine || row === undefined) {
      row = this.rows.get(lineID);
      if (row === undefined) this.rows.set(lineID, (row = { cells: new CategoryTable(), order: [] }));
      this.lastLine = lineID;
      this.lastRow = row;
    }
    const k = row.cells.get(category);
    if (k !== undefined) return k;
    const made = this.make(category);
    row.cells.set(category, made);
    row.order.push(made);
    return made;
  }

  private make(category: number): number {
    const k = this.n++;
    if (k >= this.count.length) {
      const need = k + 1;
      this.count = grown(this.count, need);
      this.bytes = grown(this.bytes, need);
      this.inclusive = grown(this.inclusive, need);
      this.exclusive = grown(this.exclusive, need);
      this.durations = grown(this.durations, need);
      this.sum = grown(this.sum, need);
      this.min = grown(this.min, need);
      this.max = grown(this.max, need);
      this.category = grown(this.category, need);
    }
    this.min[k] = Infinity;
    this.max[k] = -Infinity;
    this.category[k] = category;
    this.shortest.push(undefined);
    this.longest.push(undefined);
    return k;
  }

  /** Line IDs that have cells, ascending. */
  lineIDs(): number[] {
    return [...this.rows.keys()].sort((a, b) => a - b);
  }

  /** The cells of a row in the order they were made. */
  cellsOf(lineID: number): readonly number[] {
    return this.rows.get(lineID)?.order ?? [];
  }
}
