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

/** Receives released primitives of one or two vertices, in arrival order. */
export interface PrimitiveSink {
  /** Vertex 0 is (t0, l0); with `vertices` 2, vertex 1 is (t1, l1), else t1 and l1 are ignored. */
  primitive(
    category: number,
    earliest: number,
    latest: number,
    vertices: 1 | 2,
    t0: number,
    l0: number,
    t1: number,
    l1: number,
    info: Uint8Array | undefined,
    start: SourceLocation | undefined,
    end: SourceLocation | undefined,
  ): void;
}

/** Makes `Primitive` objects of the released primitives, for `take()`. */
export class PrimitiveCollector implements PrimitiveSink {
  private out: Primitive[] = [];

  primitive(
    category: number,
    earliest: number,
    latest: number,
    vertices: 1 | 2,
    t0: number,
    l0: number,
    t1: number,
    l1: number,
    info: Uint8Array | undefined,
    start: SourceLocation | undefined,
    end: SourceLocation | undefined,
  ): void {
    // One object shape for every drawable (info/source may be undefined): keeps property access monomorphic.
    this.out.push({
      kind: 'primitive',
      category,
      vertices:
        vertices === 1
          ? [{ time: t0, lineID: l0 }]
          : [
              { time: t0, lineID: l0 },
              { time: t1, lineID: l1 },
            ],
      earliest,
      latest,
      info,
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

  constructor(
    /** Where released primitives go (may be changed before the first is released). */
    public sink: PrimitiveSink,
    capacity = REORDER_CAPACITY,
  ) {
    super(capacity);
  }

  push(
    category: number,
    earliest: number,
    latest: number,
    vertices: 1 | 2,
    t0: number,
    l0: number,
    t1: number,
    l1: number,
    info: Uint8Array | undefined,
    start: SourceLocation | undefined,
    end: SourceLocation | undefined,
  ): void {
    const s = this.takeSlot();
    this.category[s] = category;
    this.vertices[s] = vertices;
    this.t0[s] = t0;
    this.l0[s] = l0;
    this.t1[s] = t1;
    this.l1[s] = l1;
    this.info[s] = info;
    this.start[s] = start;
    this.end[s] = end;
    this.enqueue(s, earliest, latest);
  }

  /** Releases every primitive with latest < time, in order. */
  releaseBefore(time: number): void {
    this.releaseUntil(time);
  }

  /** Releases everything, in order (end of input). */
  releaseAll(): void {
    this.releaseRest();
  }

  protected release(s: number): void {
    this.sink.primitive(
      this.category[s]!,
      this.earliestOf[s]!,
      this.latestOf[s]!,
      this.vertices[s] === 2 ? 2 : 1,
      this.t0[s]!,
      this.l0[s]!,
      this.t1[s]!,
      this.l1[s]!,
      this.info[s],
      this.start[s],
      this.end[s],
    );
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
