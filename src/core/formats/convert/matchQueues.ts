/**
 * The FIFO queues the drawable builder pairs state records with (CLOG2.md §11.7): pending vertices
 * per lineID (a state's start waiting for its end), without an object per record in the common
 * one-deep case. (Pending messages: messageQueues.ts.)
 */
import type { SourceLocation } from '../../model/types';

/** One pending vertex beyond the first of a queue (rare: re-entered states, message backlogs). */
interface Pending {
  readonly time: number;
  readonly lineID: number;
  readonly value: number;
  readonly info: Uint8Array | undefined;
  readonly loc: SourceLocation | undefined;
}

/**
 * A FIFO of pending vertices (open states of one category on one line, or messages of one key).
 * Nearly always 0 or 1 entries, so the oldest entry lives in the queue object's own fields: no
 * allocation per entry and one object touched per operation; further entries go to `rest`.
 */
export class VertexQueue {
  length = 0;
  time = 0;
  lineID = 0;
  value = 0;
  info: Uint8Array | undefined = undefined;
  loc: SourceLocation | undefined = undefined;
  private rest: Pending[] | undefined = undefined;
  private restHead = 0;

  push(time: number, lineID: number, value: number, info: Uint8Array | undefined, loc: SourceLocation | undefined): void {
    if (this.length++ === 0) {
      this.time = time;
      this.lineID = lineID;
      this.value = value;
      this.info = info;
      this.loc = loc;
      return;
    }
    (this.rest ??= []).push({ time, lineID, value, info, loc });
  }

  /** Removes the oldest entry (read it from the fields first). */
  drop(): void {
    if (--this.length === 0) {
      this.info = undefined;
      this.loc = undefined;
      return;
    }
    const rest = this.rest!;
    const next = rest[this.restHead++]!;
    this.time = next.time;
    this.lineID = next.lineID;
    this.value = next.value;
    this.info = next.info;
    this.loc = next.loc;
    if (this.restHead === rest.length) {
      rest.length = 0;
      this.restHead = 0;
    } else if (this.restHead > 64 && this.restHead * 2 > rest.length) {
      rest.splice(0, this.restHead);
      this.restHead = 0;
    }
  }
}

/**
 * VertexQueues by lineID: a plain array for small non-negative lineIDs, else a Map. A queue that
 * empties goes to `spare` (shared by a builder's categories) for the next line that needs one: a
 * queue per category and line ever used was 274 000 queues, 23 MB, at 16 384 ranks; now there
 * are about as many as states open at once.
 */
export class QueuesByLine {
  private readonly small: (VertexQueue | undefined)[] = [];
  private readonly large = new Map<number, VertexQueue>();

  constructor(private readonly spare: VertexQueue[] = []) {}

  get(lineID: number): VertexQueue | undefined {
    return lineID >= 0 && lineID < 65536 ? this.small[lineID] : this.large.get(lineID);
  }

  getOrCreate(lineID: number): VertexQueue {
    let q = this.get(lineID);
    if (q === undefined) {
      q = this.spare.pop() ?? new VertexQueue();
      if (lineID >= 0 && lineID < 65536) {
        while (this.small.length < lineID) this.small.push(undefined);
        this.small[lineID] = q;
      } else this.large.set(lineID, q);
    }
    return q;
  }

  /** Takes out the entry just read from `q`, the queue of `lineID`; an emptied queue goes to the spares. */
  drop(lineID: number, q: VertexQueue): void {
    q.drop();
    if (q.length > 0) return;
    if (lineID >= 0 && lineID < 65536) this.small[lineID] = undefined;
    else this.large.delete(lineID);
    this.spare.push(q);
  }

  forEach(f: (q: VertexQueue) => void): void {
    for (const q of this.small) if (q !== undefined) f(q);
    for (const q of this.large.values()) f(q);
  }
}
