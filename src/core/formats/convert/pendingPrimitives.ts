/**
 * The converters' completed primitives while they wait for their place in arrival order
 * (reorder.ts), held in columns, and where they go when released: a `PrimitiveSink`. A conversion
 * that is written to SLOG-2 hands them straight to the batch encoder (no object per drawable: at
 * 2 ranks the objects cost the converter thread about a quarter of its time in allocation and
 * garbage collection); other readers get `Primitive` objects (`PrimitiveCollector`).
 */
import type { DrawableSource, Primitive, SourceLocation } from '../../model/types';
import { grown } from '../../bytes/grown';
import { ArrivalOrder, REORDER_CAPACITY } from './reorder';

/**
 * One primitive of one or two vertices, as parts: a record that is filled and passed again for
 * every primitive (valid only during the call it is passed to), so none is made per drawable.
 */
export class PrimitiveParts {
  category = 0;
  earliest = 0;
  latest = 0;
  /** Vertex 0 is (t0, l0); with 2, vertex 1 is (t1, l1), else t1 and l1 mean nothing. */
  vertices: 1 | 2 = 1;
  t0 = 0;
  l0 = 0;
  t1 = 0;
  l1 = 0;
  info: Uint8Array | undefined = undefined;
  start: SourceLocation | undefined = undefined;
  end: SourceLocation | undefined = undefined;
}

/** Receives released primitives, in arrival order. */
export interface PrimitiveSink {
  primitive(p: PrimitiveParts): void;
}

/** Makes `Primitive` objects of the released primitives, for `take()`. */
export class PrimitiveCollector implements PrimitiveSink {
  private out: Primitive[] = [];

  primitive(p: PrimitiveParts): void {
    const { t0, l0, start, end } = p;
    // One object shape for every drawable (info/source may be undefined): keeps property access monomorphic.
    this.out.push({
      kind: 'primitive',
      category: p.category,
      vertices:
        p.vertices === 1
          ? [{ time: t0, lineID: l0 }]
          : [
              { time: t0, lineID: l0 },
              { time: p.t1, lineID: p.l1 },
            ],
      earliest: p.earliest,
      latest: p.latest,
      info: p.info,
      source: start !== undefined || end !== undefined ? sourceOf(start, end) : undefined,
    });
  }

  /** The primitives made since the last call. */
  take(): Primitive[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}

function sourceOf(start: SourceLocation | undefined, end: SourceLocation | undefined): DrawableSource {
  if (end === undefined) return { start };
  if (start === undefined) return { end };
  return { start, end };
}

/** Completed primitives waiting in arrival order, in columns by slot. */
export class PendingPrimitives extends ArrivalOrder {
  private category = new Int32Array(64);
  private vertices = new Uint8Array(64);
  private t0 = new Float64Array(64);
  private t1 = new Float64Array(64);
  private l0 = new Int32Array(64);
  private l1 = new Int32Array(64);
  private readonly info: (Uint8Array | undefined)[] = [];
  private readonly start: (SourceLocation | undefined)[] = [];
  private readonly end: (SourceLocation | undefined)[] = [];
  /** What a released primitive is handed over in. */
  private readonly released = new PrimitiveParts();
  /**
   * One primitive waits outside the heap while the heap is empty: the common case, since a
   * drawable completes at a record of its latest time and goes at the next record's later time.
   * It waits in the parts record it came in (`other`; the caller fills the other one meanwhile),
   * not copied into the columns and out again: the converter alone (parse, pair, encode the
   * bench's 300 MB inputs) went from ~0.92 to ~0.74 s. While one is held the heap stays empty: the
   * next one to come puts it into the heap first.
   */
  private held = false;
  /** The parts record the caller is not filling: the held primitive, or free. */
  private other = new PrimitiveParts();

  constructor(
    /** Where released primitives go (may be changed before the first is released). */
    public sink: PrimitiveSink,
    capacity = REORDER_CAPACITY,
  ) {
    super(capacity);
  }

  get size(): number {
    return super.size + (this.held ? 1 : 0);
  }

  /**
   * Takes `p` in to wait for its turn; returns the parts record to fill next (`p` itself, or
   * another one while `p` waits in it).
   */
  push(p: PrimitiveParts): PrimitiveParts {
    if (this.held) {
      // Another one while one is held: the held one goes into the heap first (it arrived first).
      this.held = false;
      this.copyIn(this.other, true);
    } else if (super.size === 0) {
      if (p.latest < this.watermark) this.lateArrivals++;
      this.held = true;
      const next = this.other;
      this.other = p;
      return next;
    }
    this.copyIn(p, false);
    return p;
  }

  private copyIn(p: PrimitiveParts, counted: boolean): void {
    const s = this.takeSlot();
    this.category[s] = p.category;
    this.vertices[s] = p.vertices;
    this.t0[s] = p.t0;
    this.l0[s] = p.l0;
    this.t1[s] = p.t1;
    this.l1[s] = p.l1;
    this.info[s] = p.info;
    this.start[s] = p.start;
    this.end[s] = p.end;
    this.enqueue(s, p.earliest, p.latest, counted);
  }

  /** Releases every primitive with latest < time, in order. */
  releaseBefore(time: number): void {
    if (!this.held) this.releaseUntil(time);
    else if (this.other.latest < time) this.releaseHeld();
  }

  /** Releases everything, in order (end of input). */
  releaseAll(): void {
    if (!this.held) this.releaseRest();
    else this.releaseHeld();
  }

  /** The held primitive is next (the heap is empty while one is held). */
  private releaseHeld(): void {
    const p = this.other;
    this.held = false;
    if (p.latest > this.watermark) this.watermark = p.latest;
    this.sink.primitive(p);
    p.info = undefined;
    p.start = undefined;
    p.end = undefined;
  }

  protected release(s: number): void {
    const p = this.released;
    p.category = this.category[s]!;
    p.earliest = this.earliestOf[s]!;
    p.latest = this.latestOf[s]!;
    p.vertices = this.vertices[s] === 2 ? 2 : 1;
    p.t0 = this.t0[s]!;
    p.l0 = this.l0[s]!;
    p.t1 = this.t1[s]!;
    p.l1 = this.l1[s]!;
    p.info = this.info[s];
    p.start = this.start[s];
    p.end = this.end[s];
    this.sink.primitive(p);
    this.info[s] = undefined;
    this.start[s] = undefined;
    this.end[s] = undefined;
  }

  protected growColumns(slots: number): void {
    this.category = grown(this.category, slots);
    this.vertices = grown(this.vertices, slots);
    this.t0 = grown(this.t0, slots);
    this.t1 = grown(this.t1, slots);
    this.l0 = grown(this.l0, slots);
    this.l1 = grown(this.l1, slots);
  }
}
