/**
 * The record → drawable machinery shared by the CLOG2 and old CLOG converters (CLOG2.md §11.7–§11.11,
 * CLOG.md §6.2): states paired FIFO per (category, lineID), arrows matched per (tag, sender procID,
 * receiver procID) in either arrival order, solo events, unmatched bookkeeping, statistics. Completed
 * drawables wait in columns (pendingPrimitives.ts) until they are released in SLOG-2 arrival order:
 * as `Primitive` objects (`take()`), or straight into a sink (`releaseInto`, the SLOG-2 writer's
 * batch encoder).
 */
import type { Primitive, SourceLocation } from '../../model/types';
import type { CategoryTable } from './categories';
import { QueuesByLine, type VertexQueue } from './matchQueues';
import { MessageInfos } from './messageInfos';
import { MessageQueues } from './messageQueues';
import { PendingPrimitives, PrimitiveCollector, PrimitiveParts, type PrimitiveSink } from './pendingPrimitives';
import { sourceFromInfo, type SourceSiteTable } from './sourceLocations';

export interface BuilderOptions {
  /**
   * Reproduce the reference's `msg_size=0` for arrows whose receive precedes the send (CLOG2.md
   * §11.8). Off by default: we show the send's size.
   */
  readonly referenceQuirks?: boolean;
}

export interface UnmatchedCounts {
  /** `Number of Unmatched Events` as the reference prints it (§11.10). */
  readonly reference: number;
  /** States still open at the end, per category index. */
  readonly openStates: ReadonlyMap<number, number>;
  readonly sends: number;
  readonly receives: number;
  /** Final events with no open state (dropped, not counted by the reference). */
  readonly droppedFinals: number;
}

export class DrawableBuilder {
  /** Drawables released in arrival order, waiting to be taken by `take()` (unless released into a sink). */
  private readonly collected = new PrimitiveCollector();
  /** Bounded: beyond its capacity it releases early (equal or non-advancing times). */
  readonly reorder = new PendingPrimitives(this.collected);
  /** The record each completed drawable is put in arrival order through. */
  private parts = new PrimitiveParts();
  /** Event records dropped because their time is NaN or ±∞ (no place on a time axis; reported). */
  badTimes = 0;
  /** Record time up to which drawables have been released. */
  private releasedBefore = -Infinity;
  /** Open states per category index, keyed by lineID (FIFO queues). */
  private readonly open: (QueuesByLine | undefined)[] = [];
  /** Emptied open-state queues, for the next line that opens a state (QueuesByLine). */
  private readonly spareQueues: VertexQueue[] = [];
  private openCount = 0;
  private readonly pendingSends = new MessageQueues();
  private readonly pendingReceives = new MessageQueues();
  droppedFinals = 0;
  earliest = Infinity;
  latest = -Infinity;
  states = 0;
  arrows = 0;
  events = 0;
  private readonly quirks: boolean;
  /** Arrows' info bytes, shared per (tag, size). */
  private readonly messageInfos = new MessageInfos();
  /**
   * The record time the `…Now` methods work at: the last advance()'s (or the time given to the
   * methods that take one). Read from here instead of passed because V8 boxes a double passed to a
   * call it does not inline: one heap number per record on the CLOG2 converter's hot path.
   */
  private now = Number.NaN;

  constructor(
    private readonly categories: CategoryTable,
    private readonly locations: SourceSiteTable,
    /** Told about every vertex's lineID (the Y-axis maps keep only used lines). */
    private readonly lines: { use(lineID: number): void },
    options: BuilderOptions = {},
  ) {
    this.quirks = options.referenceQuirks === true;
  }

  get drawables(): number {
    return this.states + this.arrows + this.events;
  }

  /**
   * Called with each event record's time before it is processed (records are in time order):
   * drawables ending strictly before it can no longer be preceded by a later one.
   */
  advance(time: number): void {
    this.now = time;
    if (time > this.releasedBefore) {
      this.releasedBefore = time;
      this.reorder.releaseBefore(time);
    }
  }

  /** Counts and rejects a NaN / infinite record time (comparisons with NaN would break the reorder heap). */
  private badTime(time: number): boolean {
    if (time - time === 0) return false; // finite
    this.badTimes++;
    return true;
  }

  /** What was dropped or forced because of record times, as warnings naming the file. */
  timeWarnings(name: string): string[] {
    const w: string[] = [];
    if (this.badTimes > 0) w.push(`${name}: ${this.badTimes} event record${this.badTimes === 1 ? '' : 's'} with a NaN or infinite time dropped`);
    if (this.reorder.forcedReleases > 0)
      w.push(
        `${name}: more than ${this.reorder.capacity} drawables waited for the time to advance (equal or non-increasing record times); released in file order`,
      );
    return w;
  }

  /** Takes the drawables released so far (none once they are released into a sink). */
  take(): Primitive[] {
    return this.collected.take();
  }

  /** From now on, released drawables go to `sink` instead of `take()`. */
  releaseInto(sink: PrimitiveSink): void {
    this.reorder.sink = sink;
  }

  openState(category: number, time: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    this.now = time;
    this.openStateNow(category, lineID, info, loc);
  }

  closeState(category: number, time: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    this.now = time;
    this.closeStateNow(category, lineID, info, loc);
  }

  solo(category: number, time: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    this.now = time;
    this.soloNow(category, lineID, info, loc);
  }

  /** openState at the time of the last advance(); likewise closeStateNow, soloNow, sendNow, receiveNow. */
  openStateNow(category: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    const time = this.now;
    if (this.badTime(time)) return;
    let byLine = this.open[category];
    if (byLine === undefined) {
      while (this.open.length < category) this.open.push(undefined);
      this.open[category] = byLine = new QueuesByLine(this.spareQueues);
    }
    byLine.getOrCreate(lineID).push(time, lineID, 0, info, loc);
    this.openCount++;
  }

  closeStateNow(category: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    const time = this.now;
    if (this.badTime(time)) return;
    const byLine = this.open[category];
    const q = byLine?.get(lineID);
    if (q === undefined || q.length === 0) {
      this.droppedFinals++;
      return;
    }
    const p = this.parts;
    p.t0 = q.time;
    p.t1 = time;
    const finalInfo = info !== undefined ? info : q.info;
    let startLoc = q.loc;
    byLine!.drop(lineID, q);
    this.openCount--;
    if (finalInfo !== undefined && startLoc === undefined) {
      const entry = this.categories.entries[category]!;
      if (entry.infoLocation !== undefined) startLoc = sourceFromInfo(entry.category, entry.infoLocation, finalInfo, this.locations);
    }
    this.emit(category, 2, lineID, lineID, finalInfo, startLoc, loc);
    this.states++;
  }

  soloNow(category: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    const time = this.now;
    if (this.badTime(time)) return;
    if (loc === undefined && info !== undefined) {
      const entry = this.categories.entries[category]!;
      if (entry.infoLocation !== undefined) loc = sourceFromInfo(entry.category, entry.infoLocation, info, this.locations);
    }
    this.parts.t0 = time;
    this.emit(category, 1, lineID, 0, info, loc, undefined);
    this.events++;
  }

  send(
    arrowCategory: number,
    tag: number,
    sender: number,
    receiver: number,
    time: number,
    lineID: number,
    size: number,
    loc: SourceLocation | undefined,
  ): void {
    this.now = time;
    this.sendNow(arrowCategory, tag, sender, receiver, lineID, size, loc);
  }

  receive(arrowCategory: number, tag: number, sender: number, receiver: number, time: number, lineID: number, loc: SourceLocation | undefined): void {
    this.now = time;
    this.receiveNow(arrowCategory, tag, sender, receiver, lineID, loc);
  }

  sendNow(arrowCategory: number, tag: number, sender: number, receiver: number, lineID: number, size: number, loc: SourceLocation | undefined): void {
    const time = this.now;
    if (this.badTime(time)) return;
    const receives = this.pendingReceives;
    const q = receives.oldest(tag, sender, receiver);
    if (q < 0) {
      this.pendingSends.push(tag, sender, receiver, time, lineID, size, loc);
      return;
    }
    const p = this.parts;
    p.t0 = time;
    p.t1 = receives.timeOf(q);
    const recvLine = receives.lineIDOf(q);
    const recvLoc = receives.locOf(q);
    receives.taken(q);
    this.emitArrow(arrowCategory, tag, this.quirks ? 0 : size, lineID, loc, recvLine, recvLoc);
  }

  receiveNow(arrowCategory: number, tag: number, sender: number, receiver: number, lineID: number, loc: SourceLocation | undefined): void {
    const time = this.now;
    if (this.badTime(time)) return;
    const sends = this.pendingSends;
    const q = sends.oldest(tag, sender, receiver);
    if (q < 0) {
      this.pendingReceives.push(tag, sender, receiver, time, lineID, 0, loc);
      return;
    }
    const p = this.parts;
    p.t0 = sends.timeOf(q);
    p.t1 = time;
    const sendLine = sends.lineIDOf(q);
    const size = sends.valueOf(q);
    const sendLoc = sends.locOf(q);
    sends.taken(q);
    this.emitArrow(arrowCategory, tag, size, sendLine, sendLoc, lineID, loc);
  }

  /** End of input: releases everything. */
  finish(): void {
    this.reorder.releaseAll();
  }

  unmatched(arrowCategory: number | undefined): UnmatchedCounts {
    const openStates = new Map<number, number>();
    this.open.forEach((byLine, cat) => {
      if (byLine === undefined) return;
      let n = 0;
      byLine.forEach((q) => (n += q.length));
      if (n > 0) openStates.set(cat, n);
    });
    let reference = arrowCategory === undefined ? 0 : this.pendingSends.count + this.pendingReceives.count;
    for (const [cat, n] of openStates) reference += n * this.categories.entries[cat]!.stateDefs;
    return { reference, openStates, sends: this.pendingSends.count, receives: this.pendingReceives.count, droppedFinals: this.droppedFinals };
  }

  get openStates(): number {
    return this.openCount;
  }

  /** An arrow whose send and receive times the caller has put in `parts` (t0, t1). */
  private emitArrow(
    category: number,
    tag: number,
    size: number,
    sendLine: number,
    sendLoc: SourceLocation | undefined,
    recvLine: number,
    recvLoc: SourceLocation | undefined,
  ): void {
    const info = this.messageInfos.of(tag, size);
    this.emit(category, 2, sendLine, recvLine, info, sendLoc, recvLoc);
    this.arrows++;
  }

  /** Fills the reused parts record (the caller has set its t0, and t1 with 2 vertices) and puts it in arrival order. */
  private emit(
    category: number,
    vertices: 1 | 2,
    l0: number,
    l1: number,
    info: Uint8Array | undefined,
    start: SourceLocation | undefined,
    end: SourceLocation | undefined,
  ): void {
    const p = this.parts;
    const t0 = p.t0;
    let earliest = t0;
    let latest = earliest;
    this.lines.use(l0);
    if (vertices === 2) {
      const t1 = p.t1;
      this.lines.use(l1);
      if (t1 < earliest) earliest = t1;
      else latest = t1;
    }
    if (earliest < this.earliest) this.earliest = earliest;
    if (latest > this.latest) this.latest = latest;
    this.categories.entries[category]!.drawables++;
    p.category = category;
    p.earliest = earliest;
    p.latest = latest;
    p.vertices = vertices;
    p.l0 = l0;
    p.l1 = l1;
    p.info = info;
    p.start = start;
    p.end = end;
    this.parts = this.reorder.push(p);
  }
}
