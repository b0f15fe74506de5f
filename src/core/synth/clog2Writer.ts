/**
 * Writes CLOG2 records the way MPE's merger does (CLOG2.md §2, §4–§8): big-endian, fixed-size
 * blocks that always end with ENDBLOCK (time = first record of the next block) or ENDLOG (time
 * 1e8), a new block whenever `used + size + 24 ≥ block_size`, and — like MPE's reused buffers —
 * stale bytes of the previous block left after the marker. Full blocks go to an async sink.
 */
import { REC, REC_SIZE } from '../formats/clog2/records';

export type ChunkSink = (chunk: Uint8Array) => Promise<void>;

export const ENDLOG_TIME = 1.0e8;

export class Clog2BlockWriter {
  private block: Uint8Array;
  private dv: DataView;
  private used = 0;
  /** Bytes handed to the sink so far (preamble + blocks + table). */
  written = 0;
  blocks = 0;
  readonly recordCounts = new Array<number>(12).fill(0);

  constructor(
    private readonly sink: ChunkSink,
    readonly blockSize: number,
    /** Host byte order of a local (unmerged) file; merged files are big-endian. */
    private readonly le = false,
  ) {
    this.block = new Uint8Array(blockSize);
    this.dv = new DataView(this.block.buffer);
  }

  async raw(bytes: Uint8Array): Promise<void> {
    this.written += bytes.length;
    await this.sink(bytes);
  }

  /** Starts a record of `rectype` at `time`; returns the body offset in the current block. */
  private async begin(rectype: number, time: number, icomm: number, rank: number, thread: number): Promise<number> {
    const size = REC_SIZE[rectype]!;
    if (this.used + size + 24 >= this.blockSize) {
      this.header(REC.ENDBLOCK, time, 0, 0, 0);
      await this.flush();
    }
    this.header(rectype, time, icomm, rank, thread);
    const body = this.used + 24;
    this.used += size;
    return body;
  }

  /** Same as begin() but synchronous when the record fits: the hot path avoids a promise per record. */
  private fits(rectype: number): boolean {
    return this.used + REC_SIZE[rectype]! + 24 < this.blockSize;
  }

  private header(rectype: number, time: number, icomm: number, rank: number, thread: number): void {
    const dv = this.dv;
    const p = this.used;
    dv.setFloat64(p, time, this.le);
    dv.setInt32(p + 8, icomm, this.le);
    dv.setInt32(p + 12, rank, this.le);
    dv.setInt32(p + 16, thread, this.le);
    dv.setInt32(p + 20, rectype, this.le);
    if (rectype === REC.ENDBLOCK || rectype === REC.ENDLOG) this.used += 24;
    this.recordCounts[rectype]++;
  }

  private async flush(): Promise<void> {
    const full = this.block;
    // The next block starts as a copy: its unused tail holds stale records, as MPE's buffers do.
    this.block = full.slice();
    this.dv = new DataView(this.block.buffer);
    this.used = 0;
    this.blocks++;
    await this.raw(full);
  }

  private async at(rectype: number, time: number, icomm: number, rank: number, thread: number): Promise<number> {
    if (this.fits(rectype)) {
      this.header(rectype, time, icomm, rank, thread);
      const body = this.used + 24;
      this.used += REC_SIZE[rectype]!;
      return body;
    }
    return this.begin(rectype, time, icomm, rank, thread);
  }

  async bare(time: number, icomm: number, rank: number, thread: number, etype: number): Promise<void> {
    const b = await this.at(REC.BAREEVT, time, icomm, rank, thread);
    this.dv.setInt32(b, etype, this.le);
    this.dv.setInt32(b + 4, 0, this.le);
  }

  async cargo(time: number, icomm: number, rank: number, thread: number, etype: number, info: Uint8Array): Promise<void> {
    const b = await this.at(REC.CARGOEVT, time, icomm, rank, thread);
    this.dv.setInt32(b, etype, this.le);
    this.dv.setInt32(b + 4, 0, this.le);
    this.block.set(info.subarray(0, 32), b + 8);
  }

  async msg(
    time: number,
    icomm: number,
    rank: number,
    thread: number,
    etype: number,
    partnerComm: number,
    partnerRank: number,
    tag: number,
    size: number,
  ): Promise<void> {
    const b = await this.at(REC.MSGEVT, time, icomm, rank, thread);
    const dv = this.dv;
    dv.setInt32(b, etype, this.le);
    dv.setInt32(b + 4, partnerComm, this.le);
    dv.setInt32(b + 8, partnerRank, this.le);
    dv.setInt32(b + 12, tag, this.le);
    dv.setInt32(b + 16, size, this.le);
    dv.setInt32(b + 20, 0, this.le);
  }

  async comm(
    time: number,
    icomm: number,
    rank: number,
    thread: number,
    commEtype: number,
    lid: number,
    commRank: number,
    worldRank: number,
    gid: Uint8Array,
  ): Promise<void> {
    const b = await this.at(REC.COMMEVT, time, icomm, rank, thread);
    const dv = this.dv;
    dv.setInt32(b, commEtype, this.le);
    dv.setInt32(b + 4, lid, this.le);
    dv.setInt32(b + 8, commRank, this.le);
    dv.setInt32(b + 12, worldRank, this.le);
    this.block.set(gid.subarray(0, 32), b + 16);
  }

  async srcloc(time: number, rank: number, thread: number, id: number, line: number, file: string): Promise<void> {
    const b = await this.at(REC.SRCLOC, time, 0, rank, thread);
    this.dv.setInt32(b, id, this.le);
    this.dv.setInt32(b + 4, line, this.le);
    this.text(b + 8, 40, file);
  }

  async timeshift(time: number, rank: number, shift: number): Promise<void> {
    const b = await this.at(REC.TIMESHIFT, time, 0, rank, 0);
    this.dv.setFloat64(b, shift, this.le);
  }

  async constDef(time: number, value: number, name: string): Promise<void> {
    const b = await this.at(REC.CONSTDEF, time, 0, 0, 0);
    this.dv.setInt32(b, -201, this.le);
    this.dv.setInt32(b + 4, value, this.le);
    this.text(b + 8, 32, name);
  }

  async stateDef(time: number, rank: number, stateID: number, start: number, final: number, color: string, name: string, format = ''): Promise<void> {
    const b = await this.at(REC.STATEDEF, time, 0, rank, 0);
    this.dv.setInt32(b, stateID, this.le);
    this.dv.setInt32(b + 4, start, this.le);
    this.dv.setInt32(b + 8, final, this.le);
    this.dv.setInt32(b + 12, 0, this.le);
    this.text(b + 16, 24, color);
    this.text(b + 40, 32, name);
    this.text(b + 72, 40, format);
  }

  async eventDef(time: number, rank: number, etype: number, color: string, name: string, format = ''): Promise<void> {
    const b = await this.at(REC.EVENTDEF, time, 0, rank, 0);
    this.dv.setInt32(b, etype, this.le);
    this.dv.setInt32(b + 4, 0, this.le);
    this.text(b + 8, 24, color);
    this.text(b + 32, 32, name);
    this.text(b + 64, 40, format);
  }

  /** Writes ENDLOG and the last block. */
  async endLog(): Promise<void> {
    if (this.used + 24 > this.blockSize) await this.flush();
    this.header(REC.ENDLOG, ENDLOG_TIME, 0, 0, 0);
    await this.flush();
  }

  /** A NUL-terminated text field, truncated to n−1 bytes (ASCII). */
  private text(at: number, n: number, s: string): void {
    const len = Math.min(s.length, n - 1);
    for (let i = 0; i < len; i++) this.block[at + i] = s.charCodeAt(i) & 0xff;
    this.block[at + len] = 0;
  }
}
