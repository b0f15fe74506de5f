/**
 * The record → drawable machinery shared by the CLOG2 and old CLOG converters (CLOG2.md §11.7–§11.11,
 * CLOG.md §6.2): states paired FIFO per (category, lineID), arrows matched per (tag, sender procID,
 * receiver procID) in either arrival order, solo events, unmatched bookkeeping, statistics. Completed
 * drawables go into a reorder buffer that releases them in SLOG-2 arrival order.
 */
import type { DrawableSource, Primitive, SourceLocation, Vertex } from '../model/types';
import type { CategoryTable } from './categories';
import { ReorderBuffer } from './reorder';
import { sourceFromInfo, type SourceLocationTable } from './sourceLocations';

interface OpenState {
  readonly time: number;
  readonly lineID: number;
  readonly info: Uint8Array | undefined;
  readonly loc: SourceLocation | undefined;
}

interface PendingMessage {
  readonly time: number;
  readonly lineID: number;
  readonly size: number;
  readonly loc: SourceLocation | undefined;
}

/** FIFO queues keyed by (tag, sender procID, receiver procID). */
class MessageQueues {
  private readonly byTag = new Map<number, Map<number, Map<number, PendingMessage[]>>>();
  count = 0;

  push(tag: number, sender: number, receiver: number, m: PendingMessage): void {
    let bySender = this.byTag.get(tag);
    if (bySender === undefined) this.byTag.set(tag, (bySender = new Map()));
    let byReceiver = bySender.get(sender);
    if (byReceiver === undefined) bySender.set(sender, (byReceiver = new Map()));
    const q = byReceiver.get(receiver);
    if (q === undefined) byReceiver.set(receiver, [m]);
    else q.push(m);
    this.count++;
  }

  /** Removes and returns the oldest entry with this key. */
  shift(tag: number, sender: number, receiver: number): PendingMessage | undefined {
    if (this.count === 0) return undefined;
    const bySender = this.byTag.get(tag);
    if (bySender === undefined) return undefined;
    const byReceiver = bySender.get(sender);
    if (byReceiver === undefined) return undefined;
    const q = byReceiver.get(receiver);
    if (q === undefined) return undefined;
    const m = q.shift()!;
    if (q.length === 0) {
      byReceiver.delete(receiver);
      if (byReceiver.size === 0) {
        bySender.delete(sender);
        if (bySender.size === 0) this.byTag.delete(tag);
      }
    }
    this.count--;
    return m;
  }
}

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
  readonly reorder = new ReorderBuffer();
  /** Open states keyed by category·2^32 + (lineID as u32). */
  private readonly open = new Map<number, OpenState[]>();
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

  constructor(
    private readonly categories: CategoryTable,
    private readonly locations: SourceLocationTable,
    /** Told about every vertex's lineID (the Y-axis maps keep only used lines). */
    private readonly lines: { use(lineID: number): void },
    options: BuilderOptions = {},
  ) {
    this.quirks = options.referenceQuirks === true;
  }

  get drawables(): number {
    return this.states + this.arrows + this.events;
  }

  openState(category: number, time: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    const key = category * 4294967296 + (lineID >>> 0);
    const q = this.open.get(key);
    const s: OpenState = { time, lineID, info, loc };
    if (q === undefined) this.open.set(key, [s]);
    else q.push(s);
    this.openCount++;
  }

  closeState(category: number, time: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    const key = category * 4294967296 + (lineID >>> 0);
    const q = this.open.get(key);
    if (q === undefined || q.length === 0) {
      this.droppedFinals++;
      return;
    }
    const s = q.shift()!;
    this.openCount--;
    const finalInfo = info !== undefined ? info : s.info;
    let startLoc = s.loc;
    if (finalInfo !== undefined && startLoc === undefined) {
      startLoc = sourceFromInfo(this.categories.entries[category]!.category, finalInfo, this.locations);
    }
    this.emit(category, [
      { time: s.time, lineID: s.lineID },
      { time, lineID },
    ], finalInfo, startLoc, loc);
    this.states++;
  }

  solo(category: number, time: number, lineID: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    if (loc === undefined && info !== undefined) loc = sourceFromInfo(this.categories.entries[category]!.category, info, this.locations);
    this.emit(category, [{ time, lineID }], info, loc, undefined);
    this.events++;
  }

  send(arrowCategory: number, tag: number, sender: number, receiver: number, time: number, lineID: number, size: number, loc: SourceLocation | undefined): void {
    const r = this.pendingReceives.shift(tag, sender, receiver);
    if (r === undefined) {
      this.pendingSends.push(tag, sender, receiver, { time, lineID, size, loc });
      return;
    }
    this.emitArrow(arrowCategory, tag, this.quirks ? 0 : size, time, lineID, loc, r.time, r.lineID, r.loc);
  }

  receive(arrowCategory: number, tag: number, sender: number, receiver: number, time: number, lineID: number, loc: SourceLocation | undefined): void {
    const s = this.pendingSends.shift(tag, sender, receiver);
    if (s === undefined) {
      this.pendingReceives.push(tag, sender, receiver, { time, lineID, size: 0, loc });
      return;
    }
    this.emitArrow(arrowCategory, tag, s.size, s.time, s.lineID, s.loc, time, lineID, loc);
  }

  /** Moves drawables that can no longer be preceded by a later one to `out`. */
  release(recordTime: number, out: Primitive[]): void {
    this.reorder.releaseBefore(recordTime, out);
  }

  finish(out: Primitive[]): void {
    this.reorder.releaseAll(out);
  }

  unmatched(arrowCategory: number | undefined): UnmatchedCounts {
    const openStates = new Map<number, number>();
    for (const [key, q] of this.open) {
      if (q.length === 0) continue;
      const cat = Math.floor(key / 4294967296);
      openStates.set(cat, (openStates.get(cat) ?? 0) + q.length);
    }
    let reference = arrowCategory === undefined ? 0 : this.pendingSends.count + this.pendingReceives.count;
    for (const [cat, n] of openStates) reference += n * this.categories.entries[cat]!.stateDefs;
    return { reference, openStates, sends: this.pendingSends.count, receives: this.pendingReceives.count, droppedFinals: this.droppedFinals };
  }

  get openStates(): number {
    return this.openCount;
  }

  private emitArrow(
    category: number,
    tag: number,
    size: number,
    sendTime: number,
    sendLine: number,
    sendLoc: SourceLocation | undefined,
    recvTime: number,
    recvLine: number,
    recvLoc: SourceLocation | undefined,
  ): void {
    const info = new Uint8Array(8);
    const dv = new DataView(info.buffer);
    dv.setInt32(0, tag);
    dv.setInt32(4, size);
    this.emit(category, [
      { time: sendTime, lineID: sendLine },
      { time: recvTime, lineID: recvLine },
    ], info, sendLoc, recvLoc);
    this.arrows++;
  }

  private emit(category: number, vertices: Vertex[], info: Uint8Array | undefined, start: SourceLocation | undefined, end: SourceLocation | undefined): void {
    let earliest = vertices[0]!.time;
    let latest = earliest;
    this.lines.use(vertices[0]!.lineID);
    if (vertices.length > 1) {
      this.lines.use(vertices[1]!.lineID);
      const t = vertices[1]!.time;
      if (t < earliest) earliest = t;
      else latest = t;
    }
    const p: { -readonly [K in keyof Primitive]: Primitive[K] } = { kind: 'primitive', category, vertices, earliest, latest };
    if (info !== undefined && info.length > 0) p.info = info;
    if (start !== undefined || end !== undefined) {
      const source: { -readonly [K in keyof DrawableSource]: DrawableSource[K] } = {};
      if (start !== undefined) source.start = start;
      if (end !== undefined) source.end = end;
      p.source = source;
    }
    if (earliest < this.earliest) this.earliest = earliest;
    if (latest > this.latest) this.latest = latest;
    this.categories.entries[category]!.drawables++;
    this.reorder.push(p);
  }
}
