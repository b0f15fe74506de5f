/**
 * The first pass's nesting sweep over every state, kept: each span of a process's time in its
 * innermost state (name, call site), in the order the sweep gave them. The second pass (the
 * critical path's composition) replays it instead of decoding the file again: it is the sweep of
 * every state that pass would redo (pathProfile.ts: profileEveryState), so the sums are those.
 *
 * A process's spans tile its time (each starts where the last ended: nestingSweep.ts), so a span is
 * 16 bytes: its end, its process and one number for name and site; a start that is not the last
 * end is a jump record. Chunks stay in memory up to a cap, then go to a spill (a temporary file in
 * the analysis worker) when there is one; past what it may hold the log gives up (`givenUp` says why) and
 * the second pass decodes the file, as without a log.
 */
import { grown } from '../bytes/grown';
import { NO_SITE } from './nestingSweep';

/** Where a log's chunks go once memory holds its share, and come back from, in order. */
export interface SpanSpill {
  /** Stores `bytes`, which the log reuses once this resolves; rejects when it cannot (no space …). */
  write(bytes: Uint8Array): Promise<void>;
  /** The chunks written, in order; each valid until the next is pulled. */
  read(): AsyncIterable<Uint8Array>;
  /** Frees what it holds (idempotent). */
  close(): Promise<void>;
}

export interface SpanLogOptions {
  /** Bytes of chunks kept in memory (default 32 MiB); then the spill, else the log gives up. */
  readonly memoryBytes?: number;
  /** Where chunks go past `memoryBytes` (the log closes it). */
  readonly spill?: SpanSpill;
  /** Spans per chunk (tests use tiny chunks). */
  readonly chunkSpans?: number;
}

/** What replaying a log calls, per span in the order they were added. */
export type SpanReplay = (loc: number, name: number, site: number, from: number, to: number) => void;

const DEFAULT_MEMORY_BYTES = 32 << 20;
const DEFAULT_CHUNK_SPANS = 1 << 16;
const SPAN_BYTES = 16;
/** Writes in flight before `settle` waits for one. */
const MAX_WRITES = 4;
/** The packed key: name id × 2^20 + site id + 1 (NO_SITE is −1: 0), 2^11 names, 2^20 − 1 sites (31 bits). */
const SITE_BITS = 20;
const SITE_MASK = (1 << SITE_BITS) - 1;
const MAX_NAMES = 1 << 11;
/** The key of a jump record: the process's time starts (again) at its end. */
const JUMP = -1;

/** One chunk: `spans` records as columns in one buffer (ends, then processes, then keys). */
class Chunk {
  readonly bytes: Uint8Array;
  readonly to: Float64Array;
  readonly loc: Int32Array;
  readonly key: Int32Array;
  spans = 0;

  constructor(
    readonly capacity: number,
    bytes: Uint8Array = new Uint8Array(capacity * SPAN_BYTES),
  ) {
    this.bytes = bytes;
    this.to = new Float64Array(bytes.buffer, bytes.byteOffset, capacity);
    this.loc = new Int32Array(bytes.buffer, bytes.byteOffset + 8 * capacity, capacity);
    this.key = new Int32Array(bytes.buffer, bytes.byteOffset + 12 * capacity, capacity);
  }
}

export class SpanLog {
  private readonly memoryBytes: number;
  private readonly chunkSpans: number;
  private readonly spill: SpanSpill | undefined;
  private readonly kept: Chunk[] = [];
  /** Chunks written to the spill, to fill again (new buffers per chunk drew full collections). */
  private readonly free: Chunk[] = [];
  private spilled = 0;
  private chunk: Chunk;
  /** Each process's last end (NaN: none yet). */
  private last: Float64Array = new Float64Array(0);
  private readonly writes = new Set<Promise<void>>();
  private failure: string | undefined;
  private closed = false;

  constructor(options: SpanLogOptions = {}) {
    this.memoryBytes = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
    this.chunkSpans = Math.max(1, options.chunkSpans ?? DEFAULT_CHUNK_SPANS);
    this.spill = options.spill;
    this.chunk = new Chunk(this.chunkSpans);
  }

  /** Why the log gave up (its spans are then incomplete), or undefined. */
  get givenUp(): string | undefined {
    return this.failure;
  }

  /**
   * A span of `loc`'s time in state name `name` (a StateNames id) at site `site` (or NO_SITE).
   * Called per span of the first pass (two per state): the usual case, a span that follows the
   * process's last one in a chunk with room, is the few lines here.
   */
  add(loc: number, name: number, site: number, from: number, to: number): void {
    const last = this.last;
    const c = this.chunk;
    const i = c.spans;
    if (loc < last.length && last[loc] === from && i < c.capacity && name < MAX_NAMES && site + 1 <= SITE_MASK && this.failure === undefined) {
      c.to[i] = to;
      c.loc[i] = loc;
      c.key[i] = (name << SITE_BITS) | (site + 1);
      c.spans = i + 1;
      last[loc] = to;
      return;
    }
    this.addSlowly(loc, name, site, from, to);
  }

  private addSlowly(loc: number, name: number, site: number, from: number, to: number): void {
    if (this.failure !== undefined) return;
    if (name >= MAX_NAMES || name < 0 || site < NO_SITE || site + 1 > SITE_MASK)
      return this.giveUp(`more than ${MAX_NAMES} state names or ${SITE_MASK} call sites`);
    if (loc >= this.last.length) this.last = grownNaN(this.last, loc + 1);
    if (this.last[loc] !== from) this.put(loc, JUMP, from);
    this.put(loc, (name << SITE_BITS) | (site + 1), to);
    this.last[loc] = to;
  }

  /** Waits while too many chunks are being written (call between batches); throws nothing. */
  async settle(): Promise<void> {
    while (this.writes.size > MAX_WRITES) await Promise.race(this.writes);
  }

  /** Every span in the order added; false (nothing replayed) when the log gave up. `onChunk`: the fraction done. */
  async replay(onSpan: SpanReplay, onChunk?: (done: number) => void): Promise<boolean> {
    if (this.failure !== undefined) return false;
    if (this.chunk.spans > 0) this.store(this.chunk);
    await Promise.all(this.writes);
    if (this.failure !== undefined) return false;
    const cursor = { last: new Float64Array(0) };
    const chunks = this.kept.length + this.spilled;
    let done = 0;
    for (const c of this.kept) {
      replayChunk(c, cursor, onSpan);
      onChunk?.(++done / chunks);
    }
    if (this.spilled > 0 && this.spill !== undefined)
      for await (const read of this.spill.read()) {
        if (read.byteLength % SPAN_BYTES !== 0) throw new Error(`a span chunk of ${read.byteLength} bytes came back (expected a multiple of ${SPAN_BYTES})`);
        const bytes = read.byteOffset % 8 === 0 ? read : read.slice();
        const c = new Chunk(bytes.byteLength / SPAN_BYTES, bytes);
        c.spans = c.capacity;
        replayChunk(c, cursor, onSpan);
        onChunk?.(++done / chunks);
      }
    return true;
  }

  /** Frees its memory and spill (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.kept.length = 0;
    this.free.length = 0;
    await Promise.allSettled(this.writes);
    await this.spill?.close();
  }

  private put(loc: number, key: number, to: number): void {
    let c = this.chunk;
    if (c.spans === c.capacity) {
      this.store(c);
      c = this.chunk = this.free.pop() ?? new Chunk(this.chunkSpans);
      c.spans = 0;
    }
    const i = c.spans++;
    c.to[i] = to;
    c.loc[i] = loc;
    c.key[i] = key;
  }

  /** A full (or the last) chunk: kept while memory allows, else written to the spill. */
  private store(c: Chunk): void {
    if (this.spilled === 0 && (this.kept.length + 1) * this.chunkSpans * SPAN_BYTES <= this.memoryBytes) {
      this.kept.push(c);
      return;
    }
    if (this.spill === undefined) return this.giveUp(`more than ${this.memoryBytes} bytes of spans and nowhere to spill them`);
    this.spilled++;
    // A chunk's columns are sized by its capacity: the last one's unused rows go along (the reader
    // rebuilds the columns from its length), so every chunk but the last is full.
    const bytes = c.spans === c.capacity ? c.bytes : packed(c);
    const w = this.spill.write(bytes).then(
      () => {
        this.writes.delete(w);
        if (bytes === c.bytes) this.free.push(c);
      },
      (e: unknown) => {
        this.writes.delete(w);
        this.giveUp(`the spill failed: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
    this.writes.add(w);
  }

  private giveUp(why: string): void {
    this.failure ??= why;
    this.kept.length = 0;
  }
}

/** A partly filled chunk as a full one of its own length. */
function packed(c: Chunk): Uint8Array {
  const out = new Chunk(c.spans);
  out.to.set(c.to.subarray(0, c.spans));
  out.loc.set(c.loc.subarray(0, c.spans));
  out.key.set(c.key.subarray(0, c.spans));
  return out.bytes;
}

function replayChunk(c: Chunk, cursor: { last: Float64Array }, onSpan: SpanReplay): void {
  const { to, loc, key } = c;
  for (let i = 0; i < c.spans; i++) {
    const p = loc[i]!;
    if (p >= cursor.last.length) cursor.last = grownNaN(cursor.last, p + 1);
    const k = key[i]!;
    const end = to[i]!;
    if (k !== JUMP) onSpan(p, k >>> SITE_BITS, (k & SITE_MASK) - 1, cursor.last[p]!, end);
    cursor.last[p] = end;
  }
}

function grownNaN(a: Float64Array, need: number): Float64Array {
  const next = grown(a, need);
  return next.fill(NaN, a.length);
}
