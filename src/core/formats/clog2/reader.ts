/**
 * Streaming CLOG2 record parser (CLOG2.md §2–§8, §12, §15). Bytes arrive as chunks of any size;
 * records are decoded in place with a DataView in the preamble's byte order and handed to a sink
 * as plain arguments (no per-record objects). Only whole records before a block's ENDBLOCK/ENDLOG
 * marker are parsed; the stale bytes after a marker are skipped. Memory: the current chunk plus
 * less than one record carried over between chunks, plus the communicator table.
 */
import { decodeFixedText, FixedTextMemo } from '../../bytes/binaryReader';
import { FormatError } from '../../bytes/formatError';
import { PREAMBLE_BYTES, parsePreamble, type Clog2Preamble } from './preamble';
import { REC_NAMES, REC_SIZE, type Clog2Sink, type CommTableEntry } from './records';

/** Bytes of a new chunk copied into the seam buffer (more than the largest record). */
const SEAM = 256;

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Largest communicator table we keep (entries). */
const MAX_COMMS = 1 << 20;
/** How far after the ENDLOG block the communicator table may start. */
const MAX_TABLE_GAP = 1 << 20;
/** Cargo bytes are copied into slabs of this size (2048 records each). */
const CARGO_SLAB_BYTES = 64 << 10;
const FIRST_CARGO_SLAB_BYTES = 256;

const enum Phase {
  Preamble,
  Blocks,
  Table,
  Done,
}

export class Clog2Parser {
  preamble: Clog2Preamble | undefined;
  /** Records parsed, by rectype (index = rectype). */
  readonly counts = new Array<number>(12).fill(0);
  readonly warnings: string[] = [];
  commTable: CommTableEntry[] | undefined;
  /** Absolute offset of the end of the bytes received so far. */
  received = 0;
  sawEndLog = false;
  truncated = false;

  private phase = Phase.Preamble;
  private buf: Uint8Array = new Uint8Array(0);
  /** SRCLOC file names repeat: decode each distinct run once. */
  private readonly srclocFile = new FixedTextMemo();
  /**
   * The first slab is small: it is used up before V8 optimises cargoCopy, whose optimised code
   * otherwise met the making of a new slab with no feedback and was thrown away (and recompiled).
   */
  private cargoSlab = new Uint8Array(FIRST_CARGO_SLAB_BYTES);
  private cargoBuffer = this.cargoSlab.buffer as ArrayBuffer;
  private cargoWords = new Int32Array(this.cargoSlab.buffer);
  private cargoUsed = 0;
  private dv: DataView = new DataView(this.buf.buffer);
  /** buf as 32-bit words when it starts on a word boundary (cargo is copied by words), else undefined. */
  private bufWords: Int32Array | undefined;
  /** Absolute offset of buf[0]. */
  private bufStart = 0;
  private pos = 0;
  /** Absolute offset the parser must skip to before reading again (stale bytes, bad blocks). */
  private skipTo = 0;
  private blockEnd = 0;
  private blockSize = 0;
  private tableOffset = -1;
  private tableParts: Uint8Array[] = [];
  private tableBytes = 0;
  private le = false;
  private localShift = 0;
  private finalized = true;

  constructor(
    readonly file: string,
    private readonly sink: Clog2Sink,
    /** Called with the preamble before any record is delivered. */
    private readonly onPreamble: (p: Clog2Preamble) => void,
  ) {}

  /**
   * Nothing more to read: past ENDLOG and the communicator table (if any). The caller stops feeding
   * bytes — data after the log (20 GiB of zeros in a gzip bomb) is never inflated or scanned.
   */
  get done(): boolean {
    if (this.phase === Phase.Done) return true;
    if (this.phase !== Phase.Table || this.tableBytes < 4) return false;
    const head = new Uint8Array(4);
    let n = 0;
    for (const p of this.tableParts) {
      for (let i = 0; i < p.length && n < 4; i++) head[n++] = p[i]!;
      if (n === 4) break;
    }
    const count = new DataView(head.buffer).getInt32(0, this.le);
    return count < 0 || count > MAX_COMMS || this.tableBytes >= 4 + 40 * count;
  }

  push(chunk: Uint8Array): void {
    const chunkStart = this.received;
    this.received += chunk.length;
    if (chunk.length === 0 || this.phase === Phase.Done) return;
    const left = this.buf.length - this.pos;
    if (left === 0) {
      this.setBuf(chunk, chunkStart);
      this.run();
      return;
    }
    if (this.phase !== Phase.Blocks || left + chunk.length <= SEAM * 4) {
      this.setBuf(concat(this.buf.subarray(this.pos), chunk), chunkStart - left);
      this.run();
      return;
    }
    // A record straddles the chunk boundary: parse across a small seam (the carried-over bytes plus
    // the chunk's first bytes), then continue in the chunk itself — no copy of the whole chunk.
    this.setBuf(concat(this.buf.subarray(this.pos), chunk.subarray(0, SEAM)), chunkStart - left);
    this.run();
    const consumed = this.bufStart + this.pos;
    this.setBuf(chunk, chunkStart);
    this.pos = Math.max(0, consumed - chunkStart);
    this.run();
  }

  /** End of input: reports truncation and parses the communicator table. */
  end(): void {
    if (this.phase === Phase.Preamble) {
      throw new FormatError(this.file, this.received, `not a CLOG2 file: ${this.received} bytes, the preamble alone is ${PREAMBLE_BYTES}`);
    }
    if (this.phase === Phase.Blocks) {
      this.truncated = true;
      const left = this.buf.length - this.pos;
      const at = this.bufStart + this.pos;
      this.warn(
        `truncated at byte ${this.received}: no end-of-log record${left > 0 && this.skipTo <= at ? ` (${left} bytes of a partial record at ${at} ignored)` : ''}; open states become unmatched`,
      );
    }
    if (this.phase === Phase.Table) this.parseTable();
    this.phase = Phase.Done;
    this.buf = new Uint8Array(0);
    this.pos = 0;
  }

  private setBuf(b: Uint8Array, start: number): void {
    this.buf = b;
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.bufWords = (b.byteOffset & 3) === 0 ? new Int32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : undefined;
    this.bufStart = start;
    this.pos = 0;
  }

  private warn(text: string): void {
    if (this.warnings.length < 1000) this.warnings.push(`${this.file}: ${text}`);
  }

  private run(): void {
    if (this.phase === Phase.Preamble) {
      if (this.buf.length - this.pos < PREAMBLE_BYTES) return;
      const p = parsePreamble(this.buf.subarray(this.pos, this.pos + PREAMBLE_BYTES), this.file);
      this.preamble = p;
      this.le = !p.isBigEndian;
      this.finalized = p.isFinalized;
      if (!p.isFinalized) this.warn('local (unmerged) file: one process, unsynchronised clock; communicator ids are local');
      this.blockSize = p.blockSize;
      this.pos += PREAMBLE_BYTES;
      this.blockEnd = PREAMBLE_BYTES + p.blockSize;
      this.tableOffset = p.commtableFptr >= PREAMBLE_BYTES ? p.commtableFptr : -1;
      this.phase = Phase.Blocks;
      this.onPreamble(p);
    }
    if (this.phase === Phase.Blocks) this.parseBlocks();
    if (this.phase === Phase.Table) this.collectTable();
    if (this.phase === Phase.Done) {
      this.pos = this.buf.length;
    }
  }

  /** Applies a pending skip; returns false if the skip target lies beyond the bytes received. */
  private applySkip(): boolean {
    const at = this.bufStart + this.pos;
    if (this.skipTo <= at) return true;
    const end = this.bufStart + this.buf.length;
    if (this.skipTo >= end) {
      this.pos = this.buf.length;
      return this.skipTo === end;
    }
    this.pos = this.skipTo - this.bufStart;
    return true;
  }

  private nextBlock(): void {
    this.skipTo = this.blockEnd;
    this.blockEnd += this.blockSize;
  }

  /**
   * A private copy of 32 cargo bytes, carved from a shared slab: a view is a small object, while
   * slice() gives each copy its own backing store (an allocation outside the JS heap per record).
   */
  private cargoCopy(buf: Uint8Array, from: number): Uint8Array {
    if (this.cargoUsed + 32 > this.cargoSlab.length) {
      this.cargoSlab = new Uint8Array(CARGO_SLAB_BYTES);
      this.cargoBuffer = this.cargoSlab.buffer as ArrayBuffer;
      this.cargoWords = new Int32Array(this.cargoSlab.buffer);
      this.cargoUsed = 0;
    }
    const slab = this.cargoSlab;
    const at = this.cargoUsed;
    const words = this.bufWords;
    if (words !== undefined && (from & 3) === 0) {
      // Records are word-aligned in a chunk read from offset 0: 8 word moves instead of 32 byte moves.
      const w = this.cargoWords;
      const s = from >> 2;
      const d = at >> 2;
      for (let k = 0; k < 8; k++) w[d + k] = words[s + k]!;
    } else for (let k = 0; k < 32; k++) slab[at + k] = buf[from + k]!;
    this.cargoUsed = at + 32;
    // a view made from the buffer: half the cost of subarray() (no species lookup), per CARGOEVT
    return new Uint8Array(this.cargoBuffer, at, 32);
  }

  private parseBlocks(): void {
    const sink = this.sink;
    const le = this.le;
    const counts = this.counts;
    for (;;) {
      if (!this.applySkip()) return;
      const buf = this.buf;
      const dv = this.dv;
      let pos = this.pos;
      const bufStart = this.bufStart;
      const tableOffset = this.tableOffset;
      let blockEnd = this.blockEnd;
      // Hot loop: whole records inside the current block.
      for (;;) {
        const at = bufStart + pos;
        if (tableOffset >= 0 && at >= tableOffset) {
          this.pos = pos;
          this.phase = Phase.Table;
          this.skipTo = tableOffset;
          return;
        }
        if (at >= blockEnd) {
          // A block without an end marker: the writer never does this; move on.
          this.warn(`block ending at byte ${blockEnd} has no ENDBLOCK record`);
          blockEnd += this.blockSize;
          this.blockEnd = blockEnd;
          continue;
        }
        if (buf.length - pos < 24) {
          this.pos = pos;
          return;
        }
        const rectype = dv.getInt32(pos + 20, le);
        if (rectype < 0 || rectype > 11) {
          this.warn(`unknown record type ${rectype} at byte ${at}; skipping to the next block at ${blockEnd}`);
          this.pos = pos;
          this.nextBlock();
          break;
        }
        const size = REC_SIZE[rectype]!;
        if (at + size > blockEnd) {
          this.warn(`${REC_NAMES[rectype]} record at byte ${at} runs past the block end ${blockEnd}; skipping to the next block`);
          this.pos = pos;
          this.nextBlock();
          break;
        }
        if (buf.length - pos < size) {
          this.pos = pos;
          return;
        }
        counts[rectype]++;
        let time = dv.getFloat64(pos, le);
        const icomm = dv.getInt32(pos + 8, le);
        const rank = dv.getInt32(pos + 12, le);
        const thread = dv.getInt32(pos + 16, le);
        if (!this.finalized && rectype > 1) time += this.localShift;
        sink.time = time;
        const b = pos + 24;
        switch (rectype) {
          case 5: // BAREEVT
            sink.event(icomm, rank, thread, dv.getInt32(b, le), undefined);
            break;
          case 7: // MSGEVT
            sink.message(
              icomm,
              rank,
              thread,
              dv.getInt32(b, le),
              dv.getInt32(b + 4, le),
              dv.getInt32(b + 8, le),
              dv.getInt32(b + 12, le),
              dv.getInt32(b + 16, le),
            );
            break;
          case 6: // CARGOEVT
            sink.event(icomm, rank, thread, dv.getInt32(b, le), this.cargoCopy(buf, b + 8));
            break;
          case 1: // ENDBLOCK
            this.pos = pos;
            this.nextBlock();
            break;
          case 0: // ENDLOG
            this.sawEndLog = true;
            this.pos = pos + size;
            // The table follows the last block; an offset far beyond it would mean reading (or
            // inflating) everything up to there for nothing.
            if (tableOffset >= 0 && tableOffset >= at + size && tableOffset > blockEnd + MAX_TABLE_GAP) {
              this.warn(`communicator table offset ${tableOffset} lies far beyond the end of the log at ${blockEnd}; ignored`);
              this.phase = Phase.Done;
            } else if (tableOffset >= 0 && tableOffset >= at + size) {
              this.phase = Phase.Table;
              this.skipTo = tableOffset;
            } else {
              this.phase = Phase.Done;
            }
            return;
          case 2: // STATEDEF
            sink.stateDef(
              dv.getInt32(b, le),
              dv.getInt32(b + 4, le),
              dv.getInt32(b + 8, le),
              decodeFixedText(buf.subarray(b + 16, b + 40)),
              decodeFixedText(buf.subarray(b + 40, b + 72)),
              decodeFixedText(buf.subarray(b + 72, b + 112)),
            );
            break;
          case 3: // EVENTDEF
            sink.eventDef(
              dv.getInt32(b, le),
              decodeFixedText(buf.subarray(b + 8, b + 32)),
              decodeFixedText(buf.subarray(b + 32, b + 64)),
              decodeFixedText(buf.subarray(b + 64, b + 104)),
            );
            break;
          case 9: // COMMEVT
            sink.comm(icomm, rank, thread, dv.getInt32(b, le), dv.getInt32(b + 4, le), dv.getInt32(b + 8, le), dv.getInt32(b + 12, le));
            break;
          case 10: // SRCLOC
            sink.srcloc(icomm, rank, thread, dv.getInt32(b, le), dv.getInt32(b + 4, le), this.srclocFile.decodeAt(buf, b + 8, 40));
            break;
          case 11: // TIMESHIFT
            if (!this.finalized) this.localShift = dv.getFloat64(b, le);
            break;
          default: // CONSTDEF, COLLEVT: no drawables
            break;
        }
        if (rectype === 1) break;
        pos += size;
      }
    }
  }

  private collectTable(): void {
    if (!this.applySkip()) return;
    const rest = this.buf.subarray(this.pos);
    this.pos = this.buf.length;
    if (rest.length === 0) return;
    const cap = 4 + 40 * MAX_COMMS;
    if (this.tableBytes >= cap) return;
    const take = rest.subarray(0, cap - this.tableBytes);
    this.tableParts.push(take.slice());
    this.tableBytes += take.length;
  }

  private parseTable(): void {
    const all = new Uint8Array(this.tableBytes);
    let off = 0;
    for (const p of this.tableParts) {
      all.set(p, off);
      off += p.length;
    }
    this.tableParts = [];
    const base = this.tableOffset;
    if (all.length < 4) {
      this.warn(`communicator table at byte ${base} is missing or cut short`);
      return;
    }
    const dv = new DataView(all.buffer);
    const count = dv.getInt32(0, this.le);
    // Reading stops once the table is complete (or its count is absurd), so the messages must not
    // depend on how many bytes beyond it happened to arrive.
    if (count < 0 || count > MAX_COMMS) {
      this.warn(`communicator table at byte ${base}: count ${count} is out of range; ignored`);
      return;
    }
    if (4 + 40 * count > all.length) {
      this.warn(`communicator table at byte ${base}: count ${count} does not fit the ${all.length - 4} bytes after it; ignored`);
      return;
    }
    const table: CommTableEntry[] = [];
    for (let i = 0; i < count; i++) {
      const e = 4 + 40 * i;
      table.push({ lid: dv.getInt32(e + 32, this.le), kind: dv.getInt32(e + 36, this.le), host: decodeFixedText(all.subarray(e + 12, e + 32)) });
    }
    this.commTable = table;
  }
}
