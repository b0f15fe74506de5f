/**
 * Exact (and shadow-based approximate) statistics of a time range, computed incrementally from
 * batches of drawables (SLOG2.md §16). The source does not matter: SLOG-2 node slices, a CLOG
 * conversion stream, or a plain list. Memory is bounded by the per-(row, category) cells plus the
 * states waiting for a watermark (see nesting.ts).
 */
import type { Category, Drawable, LineIDMap, Primitive, Shadow, Topology } from '../model/types';
import { PREVIEW_ARROW, PREVIEW_EVENT } from '../model/types';
import type { PrimitiveBatch } from '../formats/slog2/columnStream';
import type { OrderedLeaf } from '../formats/slog2/leafRows';
import { CategoryTable } from './categoryTable';
import { assembleStats } from './assemble';
import { CellTable } from './cellTable';
import { DurationHistograms } from './durationHistograms';
import { MessageAccumulator } from './messages';
import { StateNesting } from './nesting';
import { rowNaming, type RowNaming } from './rowLabels';
import type { StatsPart } from './statsPart';
import type { RangeStats } from './types';

/** What the statistics need of a trace besides its drawables. */
export interface StatsMeta {
  readonly categories: ReadonlyMap<number, Category>;
  readonly lineIDMaps: readonly LineIDMap[];
}

/**
 * One unit of input. A SLOG-2 NodeSlice fits as is. `watermark` is a promise: every drawable in
 * later batches has earliest ≥ watermark — it lets nested states be settled and forgotten early.
 */
export interface StatsBatch {
  readonly drawables: readonly Drawable[];
  /** Used only for approximate statistics. */
  readonly shadows?: readonly Shadow[];
  readonly watermark?: number;
  /** Bounds of the batch (e.g. the node's), for progress. */
  readonly latest?: number;
}

export { BUCKETS_PER_DECADE } from './durationHistograms';
export { stateShare } from './assemble';

/** The columns a row is counted from: a batch's, a decoded node's, or one primitive's copied in. */
type RowColumns = Pick<PrimitiveBatch, 'category' | 'time0' | 'line0' | 'timeLast' | 'lineLast' | 'earliest' | 'latest' | 'infoStart' | 'infoLength'>;

/** Approximate mode: a real state waiting for the shadows of its row (its own time shrinks by them). */
interface PendingState {
  readonly earliest: number;
  readonly latest: number;
  readonly category: number;
  readonly finalLineID: number;
  own: number;
  readonly cell: number;
  readonly lineID: number;
}

/** What a drawable's category means to the accumulator, looked up once per category. */
const enum Kind {
  State,
  Arrow,
  Event,
}

function clipped(earliest: number, latest: number, t0: number, t1: number): number {
  const d = Math.min(latest, t1) - Math.max(earliest, t0);
  return d > 0 ? d : 0;
}

/**
 * The drawables a run owns when a range is counted in two halves split at a time (columnStats.ts):
 * a primitive belongs to the half its start (after the clamp) is in. A later half still sees the
 * earlier half's states that reach into it, uncounted: its states nest in them as in one pass.
 */
export interface Ownership {
  /** Primitives starting before this are another run's (their states only nest). */
  readonly from?: number;
  /** Primitives starting at or after this are another run's (skipped). */
  readonly before?: number;
}

export class RangeStatsAccumulator {
  private readonly t0: number;
  private readonly t1: number;
  private readonly ownFrom: number;
  private readonly ownBefore: number;
  private readonly cells = new CellTable();
  private readonly nesting = new StateNesting(this.cells);
  private readonly messages: MessageAccumulator;
  private readonly durationHistograms = new DurationHistograms();
  private readonly kinds = new CategoryTable<Kind>();
  private readonly naming: RowNaming;
  /** Approximate mode: per row, the time blocks covered by state shadows. */
  private readonly shadowBlocks = new Map<number, [number, number][]>();
  private readonly pendingApprox: PendingState[] = [];
  /** One primitive object's fields, as a row (the object path). */
  private readonly one: RowColumns = {
    category: new Int32Array(1),
    time0: new Float64Array(1),
    line0: new Int32Array(1),
    timeLast: new Float64Array(1),
    lineLast: new Int32Array(1),
    earliest: new Float64Array(1),
    latest: new Float64Array(1),
    infoStart: new Int32Array(1),
    infoLength: new Int32Array(1),
  };
  private watermark = -Infinity;
  /** The rows being added come in drawing order, composites aside (addLeaf): see StateNesting.add. */
  private inOrder = false;
  private primitives = 0;
  private clampedStates = 0;

  constructor(
    private readonly meta: StatsMeta,
    range: readonly [number, number],
    private readonly kind: 'exact' | 'approximate' = 'exact',
    owns: Ownership = {},
  ) {
    if (!(range[0] <= range[1])) throw new RangeError(`statistics range [${range[0]}, ${range[1]}] is empty`);
    this.t0 = range[0];
    this.t1 = range[1];
    this.ownFrom = owns.from ?? -Infinity;
    this.ownBefore = owns.before ?? Infinity;
    this.naming = rowNaming(meta.lineIDMaps);
    this.messages = new MessageAccumulator(meta.categories, this.naming.commOf);
  }

  get drawablesSeen(): number {
    return this.primitives;
  }

  addDrawable(d: Drawable): void {
    if (d.kind === 'composite') {
      // A composite's own category gets nothing; its members count under theirs (SLOG2.md §12.3).
      for (const p of d.primitives) this.addPrimitive(p);
    } else this.addPrimitive(d);
  }

  private topologyOf(category: number): Topology {
    const c = this.meta.categories.get(category);
    if (c !== undefined) return c.topology;
    return category === PREVIEW_ARROW ? 'arrow' : category === PREVIEW_EVENT ? 'event' : 'state';
  }

  private kindOf(category: number): Kind {
    let kind = this.kinds.get(category);
    if (kind === undefined) {
      const t = this.topologyOf(category);
      kind = t === 'arrow' ? Kind.Arrow : t === 'event' ? Kind.Event : Kind.State;
      this.kinds.set(category, kind);
    }
    return kind;
  }

  private addPrimitive(p: Primitive): void {
    const first = p.vertices[0];
    const last = p.vertices[p.vertices.length - 1];
    if (first === undefined || last === undefined) return;
    const o = this.one;
    o.category[0] = p.category;
    o.time0[0] = first.time;
    o.line0[0] = first.lineID;
    o.timeLast[0] = last.time;
    o.lineLast[0] = last.lineID;
    o.earliest[0] = p.earliest;
    o.latest[0] = p.latest;
    o.infoLength[0] = p.info?.length ?? 0;
    this.addRow(o, 0, p.info);
  }

  /**
   * The primitive rows of a columnar batch (columnStream.ts: the same drawables as the object
   * reader, without an object per drawable). Composite members are rows of their own.
   */
  addColumns(b: PrimitiveBatch): void {
    for (let k = 0; k < b.rows; k++) this.addRow(b, k, b.infoSource[k]);
  }

  /**
   * The rows of a leaf not copied out (columnStream.ts leavesInTimeOrder with withLastAndInfo),
   * read in its decoded nodes: the same as addColumns of its batch, without the copy.
   */
  addLeaf(leaf: OrderedLeaf): void {
    // The stream is in drawing order (columnStream.ts): without composites, whose members are
    // ordered by the composite's bounds, each row's states come in the nesting's order.
    this.inOrder = leaf.nodes.every((c) => c.composites === 0);
    const { nodes, nodeOf, drawableOf } = leaf;
    for (let i = 0; i < leaf.count; i++) {
      const c = nodes[nodeOf[i]!]!;
      const d = drawableOf[i]!;
      const first = c.firstRow[d]!;
      const end = first + c.rowCount[d]!;
      for (let r = first; r < end; r++) this.addRow(c, r, c.info);
    }
    this.inOrder = false;
  }

  /**
   * Row `r` of `c`; its info bytes (arrows' tag and size) are `c.infoLength[r]` bytes of `info`
   * from `c.infoStart[r]`. The row's times are read here, not passed in: a double argument of a
   * call V8 does not inline is boxed, and that was most of the statistics' garbage.
   */
  private addRow(c: RowColumns, r: number, info: Uint8Array | undefined): void {
    const category = c.category[r]!;
    const kind = this.kindOf(category);
    const firstTime = c.time0[r]!;
    const lineID = c.line0[r]!;
    const primitiveEarliest = c.earliest[r]!;
    let earliest = primitiveEarliest;
    let latest = c.latest[r]!;
    // A state that ends before it starts lasts 0 at its start time (CLOG2.md §11 "Negative duration").
    const clamp = kind === Kind.State && c.timeLast[r]! < firstTime;
    if (clamp) earliest = latest = firstTime;
    if (earliest > this.t1 || latest < this.t0) return;
    if (primitiveEarliest < this.watermark) {
      throw new Error(`statistics input broke its watermark: a drawable starts at ${primitiveEarliest} < ${this.watermark}`);
    }
    const nesting = this.nesting;
    if (earliest < this.ownFrom || earliest >= this.ownBefore) {
      // Another run's: an earlier half's state may still enclose this half's (own time 0: it
      // credits nothing and debits nothing, its children's time is debited from its cell).
      if (kind === Kind.State && earliest < this.ownFrom && this.kind === 'exact') {
        nesting.incoming[0] = earliest;
        nesting.incoming[1] = latest;
        nesting.incoming[2] = 0;
        nesting.add(lineID, category, c.lineLast[r]!, this.cells.index(lineID, category), this.inOrder && !clamp);
      }
      return;
    }
    this.primitives++;
    if (clamp) this.clampedStates++;
    const cells = this.cells;
    const cell = cells.index(lineID, category);
    const duration = latest - earliest;
    const clip = clipped(earliest, latest, this.t0, this.t1);
    cells.inclusive[cell] += clip;
    // Approximate results count like Jumpshot (time share of each drawable); exact ones count it whole.
    cells.count[cell] += this.kind === 'exact' || duration === 0 ? 1 : clip / duration;
    cells.durations[cell]++;
    cells.sum[cell] += duration;
    if (duration <= cells.min[cell]! || duration >= cells.max[cell]!) cells.extremes(cell, duration, earliest, latest, lineID);
    if (kind !== Kind.Event) this.durationHistograms.add(category, duration);
    if (kind === Kind.Arrow) {
      const length = c.infoLength[r]!;
      cells.bytes[cell] += this.messages.addRaw(category, lineID, c.lineLast[r]!, length > 0 ? info : undefined, c.infoStart[r]!, length);
    } else if (kind === Kind.State) {
      if (this.kind === 'approximate') this.pendingApprox.push({ earliest, latest, category, finalLineID: c.lineLast[r]!, own: clip, cell, lineID });
      else {
        nesting.incoming[0] = earliest;
        nesting.incoming[1] = latest;
        nesting.incoming[2] = clip;
        // A clamped state nests at its start, not where the stream ordered it: it waits.
        nesting.add(lineID, category, c.lineLast[r]!, cell, this.inOrder && !clamp);
      }
    }
  }

  /** Approximate mode only: a shadow counts with the share of its time inside the range (§16). */
  addShadow(s: Shadow): void {
    if (this.kind !== 'approximate') return;
    if (s.earliest > this.t1 || s.latest < this.t0) return;
    const first = s.vertices[0];
    const last = s.vertices[s.vertices.length - 1];
    if (first === undefined || last === undefined) return;
    const duration = s.latest - s.earliest;
    const overlap = clipped(s.earliest, s.latest, this.t0, this.t1);
    const f = duration > 0 ? overlap / duration : 1;
    const cells = this.cells;
    for (const w of s.weights) {
      const cell = cells.index(first.lineID, w.category);
      // Weights are ratios of the shadow's duration (SLOG2.md §12.2).
      if (Number.isFinite(w.incl)) cells.inclusive[cell] += w.incl * overlap;
      if (Number.isFinite(w.excl)) cells.exclusive[cell] += w.excl * overlap;
      if (Number.isFinite(w.count)) cells.count[cell] += w.count * f;
    }
    const topology = this.topologyOf(s.category);
    if (topology === 'arrow') this.messages.addCountOnly(first.lineID, last.lineID, s.numRealObjs * f);
    else if (topology === 'state' && overlap > 0) {
      let blocks = this.shadowBlocks.get(first.lineID);
      if (blocks === undefined) this.shadowBlocks.set(first.lineID, (blocks = []));
      blocks.push([Math.max(s.earliest, this.t0), Math.min(s.latest, this.t1)]);
    }
  }

  /** The caller's promise that no later drawable starts before `watermark`. */
  advance(watermark: number): void {
    if (!(watermark > this.watermark)) return;
    this.watermark = watermark;
    if (this.kind === 'exact') this.nesting.flush(watermark);
  }

  /** Everything counted so far, the nesting settled (exact runs): for another run's absorb. */
  part(): StatsPart {
    if (this.kind !== 'exact') throw new Error('only exact statistics are counted in parts');
    this.nesting.flush();
    return {
      range: [this.t0, this.t1],
      cells: this.cells.part(),
      histograms: this.durationHistograms.part(),
      messages: this.messages.part(),
      drawables: this.primitives,
      clampedStates: this.clampedStates,
    };
  }

  /** Adds the part another run counted of the same range (its settled sums) into this one's. */
  absorb(p: StatsPart): void {
    if (p.range[0] !== this.t0 || p.range[1] !== this.t1)
      throw new Error(`statistics part of [${p.range[0]}, ${p.range[1]}] added to [${this.t0}, ${this.t1}]`);
    this.cells.absorb(p.cells);
    this.durationHistograms.absorb(p.histograms);
    this.messages.absorb(p.messages);
    this.primitives += p.drawables;
    this.clampedStates += p.clampedStates;
  }

  result(): RangeStats {
    if (this.kind === 'exact') this.nesting.flush();
    else this.settleApproximate();
    return assembleStats(this.kind, [this.t0, this.t1], {
      meta: this.meta,
      cells: this.cells,
      naming: this.naming,
      messages: this.messages.result(),
      durations: this.durationHistograms.result(),
      drawables: this.primitives,
      clampedStates: this.clampedStates,
    });
  }

  /** Real states' own time excludes the shadow-covered time of their row, then the usual nesting. */
  private settleApproximate(): void {
    const merged = new Map<number, [number, number][]>();
    for (const [lineID, blocks] of this.shadowBlocks) merged.set(lineID, mergeIntervals(blocks));
    for (const s of this.pendingApprox) {
      const blocks = merged.get(s.lineID);
      if (blocks !== undefined) {
        const a = Math.max(s.earliest, this.t0);
        const b = Math.min(s.latest, this.t1);
        for (const [x, y] of blocks) s.own -= clipped(x, y, a, b);
        if (s.own < 0) s.own = 0;
      }
      this.nesting.incoming[0] = s.earliest;
      this.nesting.incoming[1] = s.latest;
      this.nesting.incoming[2] = s.own;
      this.nesting.add(s.lineID, s.category, s.finalLineID, s.cell);
    }
    this.nesting.flush();
    this.pendingApprox.length = 0;
  }
}

function mergeIntervals(blocks: [number, number][]): [number, number][] {
  blocks.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of blocks) {
    const last = out[out.length - 1];
    if (last !== undefined && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
