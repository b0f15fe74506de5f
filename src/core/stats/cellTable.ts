/**
 * The statistics' per-(row, category) cells as typed columns, found by (line ID, category) with
 * one map lookup per row and an array index per category. The exact statistics touch a cell for
 * every drawable (23 M for 1 GB of SLOG-2): nested maps of cell objects spent more time there than
 * the decoding of the drawables did.
 */
import { grown } from '../bytes/grown';
import { CategoryTable } from './categoryTable';
import type { CellsPart } from './statsPart';
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

  /**
   * A drawable of `duration` in cell k: the shortest and longest so far. Ties go to the earlier
   * instance (then the lower line ID), so the pick does not depend on the order drawables came in
   * (a range counted in two halves picks what one pass does).
   */
  extremes(k: number, duration: number, earliest: number, latest: number, lineID: number): void {
    this.offerShortest(k, duration, earliest, latest, lineID);
    this.offerLongest(k, duration, earliest, latest, lineID);
  }

  private offerShortest(k: number, duration: number, earliest: number, latest: number, lineID: number): void {
    const min = this.min[k]!;
    if (duration < min || (duration === min && before(earliest, lineID, this.shortest[k]))) {
      this.min[k] = duration;
      this.shortest[k] = { earliest, latest, lineID };
    }
  }

  private offerLongest(k: number, duration: number, earliest: number, latest: number, lineID: number): void {
    const max = this.max[k]!;
    if (duration > max || (duration === max && before(earliest, lineID, this.longest[k]))) {
      this.max[k] = duration;
      this.longest[k] = { earliest, latest, lineID };
    }
  }

  /** Every cell's sums, for another table to absorb. */
  part(): CellsPart {
    const n = this.n;
    const lineID = new Float64Array(n);
    for (const [id, row] of this.rows) for (const k of row.order) lineID[k] = id;
    const refs = (list: readonly (InstanceRef | undefined)[]): Float64Array => {
      const out = new Float64Array(3 * n).fill(NaN);
      list.forEach((r, k) => {
        if (r === undefined) return;
        out[3 * k] = r.earliest;
        out[3 * k + 1] = r.latest;
        out[3 * k + 2] = r.lineID;
      });
      return out;
    };
    return {
      lineID,
      category: this.category.slice(0, n),
      count: this.count.slice(0, n),
      bytes: this.bytes.slice(0, n),
      inclusive: this.inclusive.slice(0, n),
      exclusive: this.exclusive.slice(0, n),
      durations: this.durations.slice(0, n),
      sum: this.sum.slice(0, n),
      min: this.min.slice(0, n),
      max: this.max.slice(0, n),
      shortest: refs(this.shortest),
      longest: refs(this.longest),
    };
  }

  /** Adds another table's cells into this one's. */
  absorb(p: CellsPart): void {
    for (let j = 0; j < p.lineID.length; j++) {
      const k = this.index(p.lineID[j]!, p.category[j]!);
      this.count[k] += p.count[j]!;
      this.bytes[k] += p.bytes[j]!;
      this.inclusive[k] += p.inclusive[j]!;
      this.exclusive[k] += p.exclusive[j]!;
      this.durations[k] += p.durations[j]!;
      this.sum[k] += p.sum[j]!;
      const s = 3 * j;
      if (!Number.isNaN(p.shortest[s])) this.offerShortest(k, p.min[j]!, p.shortest[s]!, p.shortest[s + 1]!, p.shortest[s + 2]!);
      if (!Number.isNaN(p.longest[s])) this.offerLongest(k, p.max[j]!, p.longest[s]!, p.longest[s + 1]!, p.longest[s + 2]!);
    }
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

/** Whether an instance at (earliest, lineID) comes before `ref` (none: it does). */
function before(earliest: number, lineID: number, ref: InstanceRef | undefined): boolean {
  return ref === undefined || earliest < ref.earliest || (earliest === ref.earliest && lineID < ref.lineID);
}

/** Ties between extremes go to the earlier instance, then the lower line ID. */
export function instanceBefore(a: InstanceRef | undefined, b: InstanceRef | undefined): boolean {
  return a !== undefined && before(a.earliest, a.lineID, b);
}
