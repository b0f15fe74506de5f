/**
 * The builder's pending messages (CLOG2.md §11.8): a FIFO per (tag, sender, receiver) of the sends
 * waiting for their receives, or the other way round. A queue is a slot of typed columns (its
 * length and its oldest entry's time, lineID and value; its location in an array beside them), not
 * an object: a 16 384-rank conversion keeps ~94 000 queues, as objects 8.3 MB of the converter's
 * heap and as many boxed times, all traced by every full GC. Entries beyond the oldest (backlogs:
 * rare) go to a list per slot.
 */
import type { SourceLocation } from '../../model/types';
import { grown } from '../../bytes/grown';

/** An entry behind a queue's oldest one. */
interface Pending {
  readonly time: number;
  readonly lineID: number;
  readonly value: number;
  readonly loc: SourceLocation | undefined;
}

/** A slot's entries behind its oldest one, from `head` on. */
interface Backlog {
  readonly entries: Pending[];
  head: number;
}

/** Procedure IDs below this share one Smi key per (sender, receiver) pair in the tag's map. */
const SMALL_PROC = 32768;
/** Queues made before empty ones are swept (and while a quarter of them hold a message). */
const SWEEP_AFTER = 65536;

/**
 * FIFO queues keyed by (tag, sender procID, receiver procID). Small procIDs share one Smi key per
 * pair; others fall back to a string key. Emptied queues keep their slot for the key's next
 * message and are swept when many.
 */
export class MessageQueues {
  private readonly byTag = new Map<number, Map<number, number>>();
  /** The last tag looked up and its map (a run of messages often shares a tag); NaN: none. */
  private lastTag = Number.NaN;
  private lastPairs: Map<number, number> | undefined;
  private readonly wide = new Map<string, number>();
  /** Per slot: entries queued, and the oldest one's fields. */
  private length = new Int32Array(1024);
  private time = new Float64Array(1024);
  private lineID = new Float64Array(1024);
  private value = new Float64Array(1024);
  private readonly loc: (SourceLocation | undefined)[] = [];
  private readonly backlog = new Map<number, Backlog>();
  /** Slots handed out so far; swept slots go to `free`. */
  private slots = 0;
  private readonly free: number[] = [];
  /** Slots in the maps (made since the last sweep, or kept by it). */
  private queues = 0;
  /** Entries queued in all. */
  count = 0;

  /** The slot of (tag, sender, receiver), made if `create` (else −1 when there is none). */
  private slotOf(tag: number, sender: number, receiver: number, create: boolean): number {
    if (sender >= 0 && receiver >= 0 && sender < SMALL_PROC && receiver < SMALL_PROC) {
      let byPair = tag === this.lastTag ? this.lastPairs : this.byTag.get(tag);
      if (byPair === undefined) {
        if (!create) return -1;
        this.byTag.set(tag, (byPair = new Map()));
      }
      this.lastTag = tag;
      this.lastPairs = byPair;
      const key = sender * SMALL_PROC + receiver;
      const s = byPair.get(key);
      if (s !== undefined || !create) return s ?? -1;
      const made = this.newSlot();
      byPair.set(key, made);
      this.created(made);
      return made;
    }
    const key = `${tag},${sender},${receiver}`;
    const s = this.wide.get(key);
    if (s !== undefined || !create) return s ?? -1;
    const made = this.newSlot();
    this.wide.set(key, made);
    this.created(made);
    return made;
  }

  private newSlot(): number {
    const s = this.free.pop();
    if (s !== undefined) return s;
    if (this.slots === this.length.length) this.grow();
    this.loc.push(undefined);
    return this.slots++;
  }

  /** Every column doubled (the slots kept). */
  private grow(): void {
    const n = this.length.length * 2;
    this.length = grown(this.length, n);
    this.time = grown(this.time, n);
    this.lineID = grown(this.lineID, n);
    this.value = grown(this.value, n);
  }

  /**
   * Bounds memory by live keys: frees the slots of empty queues once there are many — not `made`,
   * the slot just made for the message being queued (freed, its message was lost: a wide trace's
   * arrow was never drawn and its send and receive counted unmatched).
   */
  private created(made: number): void {
    if (++this.queues < SWEEP_AFTER || this.queues < 4 * this.count) return;
    const length = this.length;
    for (const [tag, byPair] of this.byTag) {
      for (const [k, s] of byPair)
        if (length[s] === 0 && s !== made) {
          byPair.delete(k);
          this.free.push(s);
        }
      if (byPair.size === 0) this.byTag.delete(tag);
    }
    this.lastTag = Number.NaN;
    this.lastPairs = undefined;
    for (const [k, s] of this.wide)
      if (length[s] === 0 && s !== made) {
        this.wide.delete(k);
        this.free.push(s);
      }
    let n = this.wide.size;
    for (const byPair of this.byTag.values()) n += byPair.size;
    this.queues = n;
  }

  push(tag: number, sender: number, receiver: number, time: number, lineID: number, value: number, loc: SourceLocation | undefined): void {
    const s = this.slotOf(tag, sender, receiver, true);
    this.count++;
    if (this.length[s]++ === 0) {
      this.time[s] = time;
      this.lineID[s] = lineID;
      this.value[s] = value;
      this.loc[s] = loc;
      return;
    }
    let b = this.backlog.get(s);
    if (b === undefined) this.backlog.set(s, (b = { entries: [], head: 0 }));
    b.entries.push({ time, lineID, value, loc });
  }

  /** The slot of the queue holding the oldest entry with this key, or −1 (read its oldest entry, then `taken`). */
  oldest(tag: number, sender: number, receiver: number): number {
    if (this.count === 0) return -1;
    const s = this.slotOf(tag, sender, receiver, false);
    return s >= 0 && this.length[s]! > 0 ? s : -1;
  }

  /** Entries in slot `s`'s queue. */
  lengthOf(s: number): number {
    return this.length[s]!;
  }
  /** The time of slot `s`'s oldest entry. */
  timeOf(s: number): number {
    return this.time[s]!;
  }
  lineIDOf(s: number): number {
    return this.lineID[s]!;
  }
  valueOf(s: number): number {
    return this.value[s]!;
  }
  locOf(s: number): SourceLocation | undefined {
    return this.loc[s];
  }

  /** Removes slot `s`'s oldest entry (read first). */
  taken(s: number): void {
    this.count--;
    if (--this.length[s]! === 0) {
      this.loc[s] = undefined;
      return;
    }
    const b = this.backlog.get(s)!;
    const next = b.entries[b.head++]!;
    this.time[s] = next.time;
    this.lineID[s] = next.lineID;
    this.value[s] = next.value;
    this.loc[s] = next.loc;
    if (b.head === b.entries.length) this.backlog.delete(s);
    else if (b.head > 64 && b.head * 2 > b.entries.length) {
      b.entries.splice(0, b.head);
      b.head = 0;
    }
  }
}
