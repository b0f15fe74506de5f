/**
 * Old CLOG (MPE 1.x, `.clog`) → drawables (CLOG.md): a streaming parser of its fixed 65536-byte
 * blocks and a converter with the reference's placeholder layout (180 MPI + 30 user state slots),
 * states and arrows from RAW events (message tag/size from the event's text), no solo events,
 * lineID = procid. Source locations come from the (procid, srcloc id) table (CLOG.md §5).
 */
import type { ByteChunks } from '../../bytes/byteSource';
import { decodeFixedText } from '../../bytes/binaryReader';
import { FormatError } from '../../bytes/formatError';
import { DrawableBuilder } from '../convert/builder';
import { CategoryTable, Role } from '../convert/categories';
import { identityMap } from '../convert/lineIDs';
import { streamConversion, type ClogConversion, type ConversionSummary, type ConvertOptions } from '../convert/result';
import { SourceSiteTable } from '../convert/sourceLocations';
import { builtSummary } from '../convert/summary';
import type { SourceLocation } from '../../model/types';
import { OLD_CLOG_LENGTH, oldClogByteOrder } from './detect';

export const OLD_CLOG_BLOCK = 65536;
const REC_NAMES = new Map<number, string>([
  [-2, 'ENDLOG'],
  [-1, 'ENDBLOCK'],
  [1, 'RAWEVENT'],
  [2, 'MSGEVENT'],
  [3, 'COLLEVENT'],
  [4, 'COMMEVENT'],
  [5, 'EVENTDEF'],
  [6, 'STATEDEF'],
  [7, 'SRCLOC'],
  [8, 'SHIFT'],
]);

class UsedLines {
  readonly used = new Set<number>();
  private max = -1;
  use(lineID: number): void {
    this.used.add(lineID);
    if (lineID > this.max) this.max = lineID;
  }

  /**
   * Old CLOG declares no ranks up front. When the ranks drawn so far are exactly 0…n−1, n stands
   * in for the declaration the converter's row index is keyed by (the writer asks at its first
   * node, by when every rank has usually drawn something). The finished file's Y map is checked
   * against it: a rank first drawn later means no index from the conversion, with the reason.
   */
  contiguous(): number | undefined {
    const n = this.used.size;
    return n > 0 && this.max === n - 1 ? n : undefined;
  }
}

class OldClogConverter {
  readonly categories = new CategoryTable();
  readonly locations = new SourceSiteTable();
  readonly lines = new UsedLines();
  readonly builder: DrawableBuilder;
  readonly srclocs = new Map<number, SourceLocation>();
  readonly warnings: string[] = [];
  readonly arrowCategory: number;
  droppedRecords = 0;
  private lastTag = 0;
  private lastSize = 0;
  private readonly warned = new Set<string>();

  constructor(private readonly options: ConvertOptions) {
    const c = this.categories;
    this.builder = new DrawableBuilder(c, this.locations, this.lines, { referenceQuirks: options.referenceQuirks });
    this.arrowCategory = c.addArrowCategory(-101, -102);
    for (let i = 0; i < 180; i++) c.addStatePlaceholder(1 + 2 * i, 2 + 2 * i);
    for (let i = 0; i < 30; i++) c.addStatePlaceholder(500 + 2 * i, 501 + 2 * i);
  }

  warnOnce(key: string, text: string): void {
    if (this.warned.has(key) || this.warned.size > 1000) return;
    this.warned.add(key);
    this.warnings.push(`${this.options.name}: ${text}`);
  }

  srcloc(procid: number, id: number, line: number, file: string | undefined): void {
    this.srclocs.set(procid * 4294967296 + (id >>> 0), this.locations.record(file ?? '', line));
  }

  raw(time: number, procid: number, etype: number, data: number, srcloc: number, text: string | undefined, at: number): void {
    this.builder.advance(time);
    if (etype === -201 || etype === 0) return;
    const h = this.categories.handler(etype);
    if (h < 0) {
      this.droppedRecords++;
      this.warnOnce(`e${etype}`, `etype ${etype} at byte ${at} has no definition; its events are skipped`);
      return;
    }
    const loc = this.srclocs.get(procid * 4294967296 + (srcloc >>> 0));
    const category = h >> 3;
    switch (h & 7) {
      case Role.Start:
        this.builder.openState(category, time, procid, undefined, loc);
        return;
      case Role.Final:
        this.builder.closeState(category, time, procid, undefined, loc);
        return;
      default: {
        // Message: "<tag> <size>" in the text; missing tokens keep the previous values (reference quirk).
        const tokens = (text ?? '').split(' ').filter((t) => t !== '');
        if (tokens.some((t, i) => i < 2 && !/^[+-]?\d+$/.test(t))) {
          this.droppedRecords++;
          this.warnOnce(`m${at}`, `message event at byte ${at} has a non-numeric tag/size "${text}"; skipped`);
          return;
        }
        if (tokens.length > 0) this.lastTag = Number(tokens[0]) | 0;
        if (tokens.length > 1) this.lastSize = Number(tokens[1]) | 0;
        if ((h & 7) === Role.Send) this.builder.send(category, this.lastTag, procid, data, time, procid, this.lastSize, loc);
        else this.builder.receive(category, this.lastTag, data, procid, time, procid, loc);
      }
    }
  }
}

/** Streaming old-CLOG block parser. */
class OldClogParser {
  readonly counts = new Map<number, number>();
  readonly warnings: string[] = [];
  received = 0;
  sawEndLog = false;
  truncated = false;
  private buf: Uint8Array = new Uint8Array(0);
  private dv: DataView = new DataView(this.buf.buffer);
  private bufStart = 0;
  private pos = 0;
  private skipTo = 0;
  private blockEnd = OLD_CLOG_BLOCK;
  private le: boolean | undefined;
  /** End of log reached (or input ended): the stream loop stops feeding bytes. */
  done = false;
  private warnedLength = false;

  constructor(
    readonly file: string,
    private readonly conv: OldClogConverter,
  ) {}

  push(chunk: Uint8Array): void {
    const left = this.buf.length - this.pos;
    if (this.done) {
      this.received += chunk.length;
      return;
    }
    if (left > 0) {
      const joined = new Uint8Array(left + chunk.length);
      joined.set(this.buf.subarray(this.pos));
      joined.set(chunk, left);
      this.setBuf(joined, this.bufStart + this.pos);
    } else this.setBuf(chunk, this.received);
    this.received += chunk.length;
    if (this.le === undefined) {
      if (this.buf.length < 24) return;
      const order = oldClogByteOrder(this.buf);
      if (order === undefined) throw new FormatError(this.file, 0, 'not an old CLOG file: the first 24 bytes are not a plausible record header');
      this.le = order === 'little';
      if (this.le) this.warnings.push(`${this.file}: little-endian old CLOG file (the reference cannot read it)`);
    }
    this.parse();
  }

  end(): void {
    if (this.le === undefined) throw new FormatError(this.file, this.received, `not an old CLOG file: only ${this.received} bytes`);
    if (!this.done) {
      this.truncated = true;
      this.warnings.push(`${this.file}: truncated at byte ${this.received}: no end-of-log record; open states become unmatched`);
    }
    this.done = true;
  }

  private setBuf(b: Uint8Array, start: number): void {
    this.buf = b;
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.bufStart = start;
    this.pos = 0;
  }

  private warn(text: string): void {
    if (this.warnings.length < 1000) this.warnings.push(`${this.file}: ${text}`);
  }

  private nextBlock(): void {
    this.skipTo = this.blockEnd;
    this.blockEnd += OLD_CLOG_BLOCK;
  }

  private parse(): void {
    const le = this.le!;
    for (;;) {
      if (this.done) {
        this.pos = this.buf.length;
        return;
      }
      const at0 = this.bufStart + this.pos;
      if (this.skipTo > at0) {
        const end = this.bufStart + this.buf.length;
        if (this.skipTo >= end) {
          this.pos = this.buf.length;
          return;
        }
        this.pos = this.skipTo - this.bufStart;
      }
      const at = this.bufStart + this.pos;
      if (at >= this.blockEnd) {
        this.warn(`block ending at byte ${this.blockEnd} has no ENDBLOCK record`);
        this.blockEnd += OLD_CLOG_BLOCK;
        continue;
      }
      const buf = this.buf;
      const dv = this.dv;
      const pos = this.pos;
      if (buf.length - pos < 24) return;
      const rectype = dv.getInt32(pos + 8, le);
      const length = dv.getInt32(pos + 12, le);
      const known = OLD_CLOG_LENGTH.get(rectype);
      let size: number;
      let skippedUnknown = false;
      if (known === undefined || rectype === 0) {
        if (length >= 3 && at + length * 8 <= this.blockEnd) {
          skippedUnknown = true;
          size = length * 8;
        } else {
          this.warn(`unknown record type ${rectype} at byte ${at}; skipping to the next block at ${this.blockEnd}`);
          this.nextBlock();
          continue;
        }
      } else {
        size = known * 8;
        if (length !== known && !this.warnedLength) {
          this.warnedLength = true;
          this.warn(`record at byte ${at}: length field ${length} ≠ ${known} for record type ${rectype}; using ${known}`);
        }
      }
      if (at + size > this.blockEnd) {
        this.warn(`record at byte ${at} runs past the block end ${this.blockEnd}; skipping to the next block`);
        this.nextBlock();
        continue;
      }
      if (buf.length - pos < size) return;
      // Warned only once the record is whole: a record split across input chunks is looked at
      // again on the next chunk (the warning used to come twice; fuzzer finding).
      if (skippedUnknown) this.warn(`unknown record type ${rectype} at byte ${at}; skipped using its length ${length}`);
      this.counts.set(rectype, (this.counts.get(rectype) ?? 0) + 1);
      const time = dv.getFloat64(pos, le);
      const procid = dv.getInt32(pos + 16, le);
      const b = pos + 24;
      this.pos = pos + size;
      switch (rectype) {
        case -2:
          this.sawEndLog = true;
          this.done = true;
          break;
        case -1:
          this.nextBlock();
          break;
        case 1:
          this.conv.raw(time, procid, dv.getInt32(b, le), dv.getInt32(b + 4, le), dv.getInt32(b + 8, le), decodeFixedText(buf.subarray(b + 16, b + 32)), at);
          break;
        case 6: {
          const color = decodeFixedText(buf.subarray(b + 16, b + 40));
          const name = decodeFixedText(buf.subarray(b + 40, b + 56));
          this.conv.categories.defineState(dv.getInt32(b + 4, le), dv.getInt32(b + 8, le), { color, name, format: undefined });
          break;
        }
        case 7:
          this.conv.srcloc(procid, dv.getInt32(b, le), dv.getInt32(b + 4, le), decodeFixedText(buf.subarray(b + 8, b + 48)));
          break;
        default: // MSGEVENT, COLLEVENT, COMMEVENT, EVENTDEF, SHIFT: ignored by the reference
          break;
      }
    }
  }
}

/** Converts an old CLOG byte stream into drawables; see `convertClog2` for the protocol. */
export function convertClog(chunks: ByteChunks, options: ConvertOptions): ClogConversion {
  const conv = new OldClogConverter(options);
  const parser = new OldClogParser(options.name, conv);
  return streamConversion(chunks, options, {
    parser,
    sliceBytes: 1 << 20,
    take: () => conv.builder.take(),
    releaseInto: (sink) => conv.builder.releaseInto(sink),
    finish: () => {
      const summary = summarize(conv, parser, options.name);
      conv.builder.finish();
      return summary;
    },
    category: (i) => conv.categories.entries[i]?.category,
    declaredLines: () => conv.lines.contiguous(),
  });
}

function summarize(conv: OldClogConverter, parser: OldClogParser, name: string): ConversionSummary {
  const records: Record<string, number> = {};
  for (const [t, n] of [...parser.counts].sort((x, y) => x[0] - y[0])) records[REC_NAMES.get(t) ?? `type${t}`] = n;
  const lineIDs = [...conv.lines.used].sort((x, y) => x - y);
  return {
    format: 'clog',
    version: 'CLOG',
    ...builtSummary(conv),
    lineIDMaps: [identityMap(lineIDs)],
    lineIDs,
    records,
    truncated: parser.truncated,
    warnings: [...parser.warnings, ...conv.categories.warnings, ...conv.warnings, ...conv.builder.timeWarnings(name)],
  };
}
