/**
 * The statistics' per-(row, category) cells as typed columns, found by (line ID, category) in one
 * open-addressing hash table of cell numbers. The exact statistics touch a cell for every drawable
 * (23 M for 1 GB of SLOG-2): nested maps of cell objects spent more time there than the decoding
 * did, and a row object per line ID (a map entry, a category array, a list of its cells) cost a
 * 100 000-rank trace 4 s of lookups and most of 2 GB; the hash needs nothing per row. The shortest
 * and longest instance of a cell are columns too, made objects only for the result.
 */
import { grown } from '../bytes/grown';
import type { CellsPart } from './statsPart';
import type { InstanceRef } from './types';

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
  /** The cell's line ID. */
  line = new Float64Array(64);
  /** The shortest and longest instance: earliest (NaN: none yet), latest, line ID. */
  private shortE = new Float64Array(64);
  private shortL = new Float64Array(64);
  private shortLine = new Float64Array(64);
  private longE = new Float64Array(64);
  private longL = new Float64Array(64);
  private longLine = new Float64Array(64);
  /** Hash slots: cell + 1 (0 = empty), for keys of two int32s; at most half full. */
  private slots = new Int32Array(256);
  /** Cells of keys that are not two int32s (never from a file's columns). */
  private readonly odd = new Map<string, number>();
  private lastLine = NaN;
  private lastCategory = NaN;
  private lastCell = -1;
  /** Line IDs ascending with their cells in creation order, built when first asked. */
  private grouped: { readonly lines: number[]; readonly cells: Map<number, Int32Array> } | undefined;

  /** The cell of (lineID, category), made empty on first use. */
  index(lineID: number, category: number): number {
    if (lineID === this.lastLine && category === this.lastCategory) return this.lastCell;
    let k: number;
    if ((lineID | 0) === lineID && (category | 0) === category) {
      const slots = this.slots;
      const mask = slots.length - 1;
      let h = hashOf(lineID, category) & mask;
      for (;;) {
        const s = slots[h]!;
        if (s === 0) {
          k = this.make(lineID, category);
          this.place(k);
          break;
        }
        if (this.line[s - 1] === lineID && this.category[s - 1] === category) {
          k = s - 1;
          break;
        }
        h = (h + 1) & mask;
      }
    } else {
      const key = `${lineID},${category}`;
      const found = this.odd.get(key);
      if (found !== undefined) k = found;
      else this.odd.set(key, (k = this.make(lineID, category)));
    }
    this.lastLine = lineID;
    this.lastCategory = category;
    this.lastCell = k;
    return k;
  }

  /** Enters a new cell of int32 keys into the hash, doubling it past half full. */
  private place(k: number): void {
    if (2 * (k + 1) > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      for (let c = 0; c < this.n; c++) if ((this.line[c]! | 0) === this.line[c] && (this.category[c]! | 0) === this.category[c]) this.insert(c);
      return;
    }
    this.insert(k);
  }

  private insert(k: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let h = hashOf(this.line[k]!, this.category[k]!) & mask;
    while (slots[h] !== 0) h = (h + 1) & mask;
    slots[h] = k + 1;
  }

  private make(lineID: number, category: number): number {
    const k = this.n++;
    this.grouped = undefined;
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
      this.line = grown(this.line, need);
      this.shortE = grown(this.shortE, need);
      this.shortL = grown(this.shortL, need);
      this.shortLine = grown(this.shortLine, need);
      this.longE = grown(this.longE, need);
      this.longL = grown(this.longL, need);
      this.longLine = grown(this.longLine, need);
    }
    this.min[k] = Infinity;
    this.max[k] = -Infinity;
    this.category[k] = category;
    this.line[k] = lineID;
    this.shortE[k] = NaN;
    this.longE[k] = NaN;
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
    if (duration < min || (duration === min && before(earliest, lineID, this.shortE[k]!, this.shortLine[k]!))) {
      this.min[k] = duration;
      this.shortE[k] = earliest;
      this.shortL[k] = latest;
      this.shortLine[k] = lineID;
    }
  }

  private offerLongest(k: number, duration: number, earliest: number, latest: number, lineID: number): void {
    const max = this.max[k]!;
    if (duration > max || (duration === max && before(earliest, lineID, this.longE[k]!, this.longLine[k]!))) {
      this.max[k] = duration;
      this.longE[k] = earliest;
      this.longL[k] = latest;
      this.longLine[k] = lineID;
    }
  }

  /** Cell k's shortest instance (undefined: none counted). */
  shortestOf(k: number): InstanceRef | undefined {
    return Number.isNaN(this.shortE[k]) ? undefined : { earliest: this.shortE[k]!, latest: this.shortL[k]!, lineID: this.shortLine[k]! };
  }

  /** Cell k's longest instance (undefined: none counted). */
  longestOf(k: number): InstanceRef | undefined {
    return Number.isNaN(this.longE[k]) ? undefined : { earliest: this.longE[k]!, latest: this.longL[k]!, lineID: this.longLine[k]! };
  }

  /** Every cell's sums, for another table to absorb. */
  part(): CellsPart {
    const n = this.n;
    const refs = (e: Float64Array, l: Float64Array, line: Float64Array): Float64Array => {
      const out = new Float64Array(3 * n);
      for (let k = 0; k < n; k++) {
        const none = Number.isNaN(e[k]);
        out[3 * k] = e[k]!;
        out[3 * k + 1] = none ? NaN : l[k]!;
        out[3 * k + 2] = none ? NaN : line[k]!;
      }
      return out;
    };
    return {
      lineID: this.line.slice(0, n),
      category: this.category.slice(0, n),
      count: this.count.slice(0, n),
      bytes: this.bytes.slice(0, n),
      inclusive: this.inclusive.slice(0, n),
      exclusive: this.exclusive.slice(0, n),
      durations: this.durations.slice(0, n),
      sum: this.sum.slice(0, n),
      min: this.min.slice(0, n),
      max: this.max.slice(0, n),
      shortest: refs(this.shortE, this.shortL, this.shortLine),
      longest: refs(this.longE, this.longL, this.longLine),
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
    return this.groups().lines;
  }

  /** The cells of a row in the order they were made. */
  cellsOf(lineID: number): Iterable<number> {
    return this.groups().cells.get(lineID) ?? [];
  }

  /** The cells grouped by line ID (counted, then placed: creation order within a line). */
  private groups(): { readonly lines: number[]; readonly cells: Map<number, Int32Array> } {
    if (this.grouped !== undefined) return this.grouped;
    const n = this.n;
    const groupOf = new Map<number, number>();
    const cellGroup = new Int32Array(n);
    const sizes: number[] = [];
    for (let k = 0; k < n; k++) {
      let g = groupOf.get(this.line[k]!);
      if (g === undefined) {
        groupOf.set(this.line[k]!, (g = sizes.length));
        sizes.push(0);
      }
      cellGroup[k] = g;
      sizes[g]!++;
    }
    const all = new Int32Array(n);
    const starts = new Int32Array(sizes.length + 1);
    for (let g = 0; g < sizes.length; g++) starts[g + 1] = starts[g]! + sizes[g]!;
    const next = starts.slice(0, sizes.length);
    for (let k = 0; k < n; k++) all[next[cellGroup[k]!]!++] = k;
    const cells = new Map<number, Int32Array>();
    for (const [line, g] of groupOf) cells.set(line, all.subarray(starts[g]!, starts[g + 1]!));
    this.grouped = { lines: [...groupOf.keys()].sort((a, b) => a - b), cells };
    return this.grouped;
  }
}

/** A hash of two int32s (multiplicative mixing; the table takes the low bits). */
function hashOf(a: number, b: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca77);
  return h ^ (h >>> 13);
}

/** Whether an instance at (earliest, lineID) comes before one at (refEarliest, refLine) (NaN: none yet, it does). */
function before(earliest: number, lineID: number, refEarliest: number, refLine: number): boolean {
  return Number.isNaN(refEarliest) || earliest < refEarliest || (earliest === refEarliest && lineID < refLine);
}

/** Ties between extremes go to the earlier instance, then the lower line ID. */
export function instanceBefore(a: InstanceRef | undefined, b: InstanceRef | undefined): boolean {
  return a !== undefined && (b === undefined || a.earliest < b.earliest || (a.earliest === b.earliest && a.lineID < b.lineID));
}
