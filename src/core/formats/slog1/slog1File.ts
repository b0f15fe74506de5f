/**
 * The SLOG-1 reader (SLOG1.md): opens the header and tables at once (they are small) and reads
 * frames one at a time on request, so memory is one frame whatever the file size. Records of a
 * frame come in the stored sector order CUR, INC, PAS, OUT; CUR + INC are the real records (each
 * interval once), PAS + OUT the pseudo-record copies of intervals that cross the frame's end.
 */
import { BinaryReader } from '../../bytes/binaryReader';
import type { ByteSource } from '../../bytes/byteSource';
import { FormatError } from '../../bytes/formatError';
import type { Slog1Facts, Slog1Frame, Slog1Header, Slog1PreviewStatistics, Slog1ProfileEntry, Slog1RecordDefinition, Slog1Thread } from './facts';
import {
  parseHeader,
  readFrameDirectory,
  readPreviewBytes,
  readPreviewStatistics,
  readProfile,
  readRecordDefinitions,
  readThreads,
  SLOG1_HEADER_BYTES,
} from './header';

export type Sector = 'CUR' | 'INC' | 'PAS' | 'OUT';
/** The on-disk order of the sectors in a frame (SLOG1.md §9.1). */
export const SECTORS: readonly Sector[] = ['CUR', 'INC', 'PAS', 'OUT'];

export interface Slog1Task {
  readonly node: number;
  readonly cpu: number;
  readonly thread: number;
}

export interface Slog1Record {
  readonly sector: Sector;
  /** Absolute file offset of the record. */
  readonly offset: number;
  readonly bytesize: number;
  readonly rectype: number;
  readonly intvltype: number;
  readonly bebit0: number;
  readonly bebit1: number;
  readonly start: number;
  readonly duration: number;
  readonly origin: Slog1Task;
  /** Arrows only (rectype 128..255). */
  readonly dest: Slog1Task | undefined;
  readonly assocs: readonly number[];
  /** Fixed-size classes: the n_args values; variable-size: all groups' values in order. */
  readonly args: readonly number[];
}

export interface Slog1FrameRecords {
  readonly index: number;
  readonly frame: Slog1Frame;
  readonly counts: Readonly<Record<Sector, { readonly bytes: number; readonly records: number }>>;
  readonly records: readonly Slog1Record[];
}

/** rectype 128..255: an "off-diagonal" record (arrow) with a destination task. */
export function isArrowRectype(rectype: number): boolean {
  return rectype >= 128 && rectype <= 255;
}
/** rectype 0..63 and 128..191: variable-size records (argument groups until bytesize is used up). */
function isVariableRectype(rectype: number): boolean {
  return rectype < 64 || (rectype >= 128 && rectype < 192);
}

export class Slog1File {
  private whereWarned = false;
  /** The file ends before its statistics (or frames): what is there was read. */
  truncated = false;
  recordsHaveWhere = false;
  readonly warnings: string[] = [];
  private readonly defs = new Map<number, Slog1RecordDefinition>();

  private constructor(
    readonly source: ByteSource,
    readonly header: Slog1Header,
    readonly previewBytes: number,
    readonly threads: readonly Slog1Thread[],
    readonly profile: readonly Slog1ProfileEntry[],
    readonly recordDefinitions: readonly Slog1RecordDefinition[],
    readonly frames: readonly Slog1Frame[],
    readonly previewStatistics: Slog1PreviewStatistics | undefined,
  ) {
    for (const d of recordDefinitions) this.defs.set(d.intvltype * 4 + d.bebit0 + 2 * d.bebit1, d);
  }

  get name(): string {
    return this.source.name;
  }

  static async open(source: ByteSource): Promise<Slog1File> {
    if (source.size < SLOG1_HEADER_BYTES)
      throw new FormatError(source.name, 0, `not a SLOG-1 file: ${source.size} bytes, the header alone has ${SLOG1_HEADER_BYTES}`);
    const header = parseHeader(await source.read(0, SLOG1_HEADER_BYTES), source.name, source.size);
    const previewBytes = await readPreviewBytes(source, header);
    const threads = await readThreads(source, header);
    const profile = await readProfile(source, header);
    const recordDefinitions = await readRecordDefinitions(source, header);
    const listed = await readFrameDirectory(source, header);
    // A file cut short keeps its complete frames (a partial read, flagged); the rest is lost.
    const frames = listed.filter((f) => f.offset + 32 <= source.size);
    const warnings: string[] = [];
    let truncated = frames.length < listed.length;
    const stats = await readPreviewStatistics(source, header);
    if (header.fptr.statistics >= source.size) truncated = true;
    if (truncated) {
      warnings.push(
        `${source.name}: truncated at byte ${source.size}: ` +
          `${frames.length < listed.length ? `${listed.length - frames.length} of ${listed.length} frames are missing, ` : ''}the preview statistics (at ${header.fptr.statistics}) are missing`,
      );
    }
    const file = new Slog1File(source, header, previewBytes, threads, profile, recordDefinitions, frames, stats);
    file.truncated = truncated;
    for (const w of warnings) file.warnings.push(w);
    return file;
  }

  /** Reads frame `index`: its header, then every record of its four sectors. */
  async readFrame(index: number): Promise<Slog1FrameRecords> {
    const frame = this.frames[index];
    if (frame === undefined) throw new RangeError(`frame ${index} does not exist`);
    const name = this.source.name;
    const h = new BinaryReader(await this.source.read(frame.offset, 32), frame.offset, name);
    const counts = {} as Record<Sector, { bytes: number; records: number }>;
    let total = 32;
    for (const s of SECTORS) {
      const bytes = h.i32(`${s} byte count`) >>> 0;
      const records = h.i32(`${s} record count`) >>> 0;
      counts[s] = { bytes, records };
      total += bytes;
    }
    if (total > this.header.frameBytes)
      throw new FormatError(name, frame.offset, `frame ${index}: sectors hold ${total - 32} bytes, more than the frame's ${this.header.frameBytes - 32}`);
    if (frame.offset + total > this.source.size)
      throw new FormatError(
        name,
        frame.offset,
        `frame ${index}: its ${total - 32} sector bytes run past the end of the file (${this.source.size} bytes; truncated file?)`,
      );
    const body = new BinaryReader(await this.source.read(frame.offset + 32, total - 32), frame.offset + 32, name);
    const records: Slog1Record[] = [];
    for (const s of SECTORS) {
      const c = counts[s];
      const end = body.pos + c.bytes;
      const first = records.length;
      while (body.pos < end) records.push(this.record(body, end, s));
      if (records.length - first !== c.records) {
        throw body.error(`frame ${index}: the ${s} sector holds ${records.length - first} records, its header says ${c.records}`, end - c.bytes);
      }
    }
    return { index, frame, counts, records };
  }

  private record(r: BinaryReader, sectorEnd: number, sector: Sector): Slog1Record {
    const at = r.pos;
    const offset = r.offset;
    const bytesize = r.i16('record size') & 0xffff;
    if (bytesize < 30 || at + bytesize > sectorEnd) throw r.error(`record size ${bytesize} is less than 30 or runs past the ${sector} sector's end`, at);
    const rec = new BinaryReader(r.bytesView(bytesize - 2, 'record'), offset + 2, r.file);
    r.pos = at + bytesize;
    const rectype = rec.i16('rectype') & 0xffff;
    const intvltype = rec.i16('interval type') & 0xffff;
    const bebitsAt = rec.pos;
    const bebits = rec.u8('bebits');
    if (bebits > 3) throw rec.error(`bebits ${bebits} is not in 0..3`, bebitsAt);
    const start = rec.f64('start time');
    const duration = rec.f64('duration');
    const task = (): Slog1Task => ({ node: rec.i16('node') & 0xffff, cpu: rec.u8('cpu'), thread: rec.i32('thread') >>> 0 });
    const origin = task();
    const arrow = isArrowRectype(rectype);
    const dest = arrow ? task() : undefined;
    const def = this.defs.get(intvltype * 4 + bebits);
    const nAssocs = def?.nAssocs ?? 0;
    const nArgs = def?.nArgs ?? 0;
    const variable = isVariableRectype(rectype);
    const fixedRest = 4 * nAssocs + (variable ? 0 : 4 * nArgs);
    // The optional 8-byte "where" field (not written by MPICH 1.2.0's build): detected from the size.
    if (!variable && rec.remaining === fixedRest + 8) {
      rec.skip(8, 'where field');
      this.noteWhere();
    } else if (!variable && rec.remaining !== fixedRest) {
      throw new FormatError(
        r.file,
        offset,
        `record of type ${intvltype} (rectype ${rectype}) has ${bytesize} bytes, its definition needs ${bytesize - rec.remaining + fixedRest}`,
      );
    }
    const assocs: number[] = [];
    for (let i = 0; i < nAssocs; i++) assocs.push(rec.i32('association') >>> 0);
    const args: number[] = [];
    if (variable) {
      while (rec.remaining > 0) {
        const n = rec.i16('argument count') & 0xffff;
        rec.checkCount(n, 4, 'argument');
        for (let i = 0; i < n; i++) args.push(rec.i32('argument') >>> 0);
      }
    } else for (let i = 0; i < nArgs; i++) args.push(rec.i32('argument') >>> 0);
    return { sector, offset, bytesize, rectype, intvltype, bebit0: bebits & 1, bebit1: bebits >> 1, start, duration, origin, dest, assocs, args };
  }

  private noteWhere(): void {
    this.recordsHaveWhere = true;
    if (this.whereWarned) return;
    this.whereWarned = true;
    this.warnings.push(`${this.source.name}: records carry the optional 8-byte "where" field (skipped)`);
  }

  /** The file's facts (sector counts filled in by the caller that read the frames). */
  facts(sectorRecords: Slog1Facts['sectorRecords']): Slog1Facts {
    return {
      header: this.header,
      previewBytes: this.previewBytes,
      threads: this.threads,
      profile: this.profile,
      recordDefinitions: this.recordDefinitions,
      frames: this.frames,
      sectorRecords,
      previewStatistics: this.previewStatistics,
      recordsHaveWhere: this.recordsHaveWhere,
    };
  }

  close(): Promise<void> {
    return this.source.close();
  }
}
