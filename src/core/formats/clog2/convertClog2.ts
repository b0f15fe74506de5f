/**
 * CLOG2 → drawables, exactly as the reference converter does it (CLOG2.md §11), in one streaming
 * pass: the parser hands records to this sink, which dispatches them through the category table's
 * etype handlers into the shared DrawableBuilder. Where the reference crashes we carry on (§11.6,
 * §15). Source locations follow the project rule of §10.
 */
import type { ByteChunks } from '../../bytes/byteSource';
import { Role, CategoryTable } from '../convert/categories';
import { DrawableBuilder } from '../convert/builder';
import type { PrimitiveSink } from '../convert/pendingPrimitives';
import { LineTable } from '../convert/lineIDs';
import { streamConversion, type ClogConversion, type ConversionSummary, type ConversionTrailer, type ConvertOptions } from '../convert/result';
import { PendingLocations, SourceSiteTable } from '../convert/sourceLocations';
import { builtSummary } from '../convert/summary';
import type { SourceLocation } from '../../model/types';
import type { Clog2Preamble } from './preamble';
import { Clog2Parser } from './reader';
import { REC_NAMES, type Clog2Sink } from './records';
import type { Clog2Definitions } from './tailDefinitions';

const SEND = -101;
const RECEIVE = -102;

/** Largest piece of a chunk parsed at once, so one huge chunk does not produce a huge batch. */
const SLICE = 1 << 18;

/** Distinct per-etype warnings kept (more are summarised in one line). */
const MAX_ETYPE_WARNINGS = 100;

class Clog2Converter implements Clog2Sink {
  readonly categories = new CategoryTable();
  readonly locations = new SourceSiteTable();
  readonly pending = new PendingLocations();
  lines!: LineTable;
  builder!: DrawableBuilder;
  /** Where the builder releases drawables, if not to `take()` (set before the preamble is read). */
  sink: PrimitiveSink | undefined;
  arrowCategory = 0;
  /** The record's time (Clog2Sink.time), NaN until the first record. */
  time = Number.NaN;
  droppedRecords = 0;
  readonly warnings: string[] = [];
  private readonly warnedEtypes = new Set<number>();
  private threads = 1;

  constructor(
    private readonly options: ConvertOptions,
    private readonly definitions?: Clog2Definitions,
  ) {}

  /** Placeholder categories from the preamble's id ranges (§11.1). */
  begin(p: Clog2Preamble): void {
    const c = this.categories;
    this.threads = p.maxThreadCount;
    this.lines = new LineTable(p.maxCommWorldSize, p.maxThreadCount);
    this.builder = new DrawableBuilder(c, this.locations, this.lines, { referenceQuirks: this.options.referenceQuirks });
    if (this.sink !== undefined) this.builder.releaseInto(this.sink);
    this.arrowCategory = c.addArrowCategory(SEND, RECEIVE);
    for (let i = 0; i < p.knownStateIDCount; i++) c.addStatePlaceholder(p.knownEventIDStart + 2 * i, p.knownEventIDStart + 2 * i + 1);
    for (let i = 0; i < p.userStateIDCount; i++) c.addStatePlaceholder(p.userEventIDStart + 2 * i, p.userEventIDStart + 2 * i + 1);
    for (let i = 0; i < p.knownSoloEventIDCount; i++) c.addSoloPlaceholder(p.knownSoloEventIDStart + i);
    for (let i = 0; i < p.userSoloEventIDCount; i++) c.addSoloPlaceholder(p.userSoloEventIDStart + i);
    // Read ahead of the records (tailDefinitions.ts): a prefix of the file lacks the MPI states' definitions.
    for (const d of this.definitions?.states ?? []) c.defineState(d.start, d.final, d.look);
    for (const d of this.definitions?.events ?? []) c.defineEvent(d.etype, d.look);
  }

  stateDef(_stateID: number, start: number, final: number, color: string | undefined, name: string | undefined, format: string | undefined): void {
    this.categories.defineState(start, final, { color, name, format });
  }

  eventDef(etype: number, color: string | undefined, name: string | undefined, format: string | undefined): void {
    this.categories.defineEvent(etype, { color, name, format });
  }

  event(icomm: number, rank: number, thread: number, etype: number, info: Uint8Array | undefined): void {
    this.builder.advance(this.time);
    if (etype === -1) return;
    let h = this.categories.handler(etype);
    if (h < 0) {
      this.warnOnce(etype, `etype ${etype} has no definition: shown as solo events of category UnknownType-e${etype}`);
      h = this.categories.addUnknownSolo(etype) * 8 + Role.Solo;
    }
    const lines = this.lines;
    lines.checkRange(icomm, rank, thread);
    const lineID = lines.lineID(icomm, rank, thread);
    const loc = this.pending.isEmpty ? undefined : this.takeLocation(icomm, rank, thread);
    const category = h >> 3;
    switch (h & 7) {
      case Role.Start:
        this.builder.openStateNow(category, lineID, info, loc);
        break;
      case Role.Final:
        this.builder.closeStateNow(category, lineID, info, loc);
        break;
      case Role.Solo:
        this.builder.soloNow(category, lineID, info, loc);
        break;
      default:
        this.droppedRecords++;
        this.warnOnce(etype, `${info ? 'CARGOEVT' : 'BAREEVT'} with message etype ${etype} dropped`);
    }
  }

  message(icomm: number, rank: number, thread: number, etype: number, partnerComm: number, partnerRank: number, tag: number, size: number): void {
    this.builder.advance(this.time);
    if (etype === -1) return;
    const h = this.categories.handler(etype);
    const role = h < 0 ? -1 : h & 7;
    if (role !== Role.Send && role !== Role.Receive) {
      this.droppedRecords++;
      this.warnOnce(etype, `MSGEVT with ${h < 0 ? 'undefined' : 'non-message'} etype ${etype} dropped`);
      return;
    }
    const lines = this.lines;
    lines.checkRange(icomm, rank, thread);
    const lineID = lines.lineID(icomm, rank, thread);
    const loc = this.pending.isEmpty ? undefined : this.takeLocation(icomm, rank, thread);
    const w = lines.worldSize;
    const self = (Math.imul(icomm, w) + rank) | 0;
    const partner = (Math.imul(partnerComm, w) + partnerRank) | 0;
    if (role === Role.Send) this.builder.sendNow(h >> 3, tag, self, partner, lineID, size, loc);
    else this.builder.receiveNow(h >> 3, tag, partner, self, lineID, loc);
  }

  comm(_icomm: number, _rank: number, _thread: number, _commEtype: number, lid: number, commRank: number, worldRank: number): void {
    // Registered even for FREE / INTRA_REMOTE bodies, as the reference does (§11.5).
    this.lines.register(lid, commRank, worldRank);
  }

  srcloc(icomm: number, rank: number, thread: number, _id: number, line: number, file: string | undefined): void {
    const loc = this.locations.record(file ?? '', line);
    const world = this.lines.worldRankOf(icomm, rank, thread);
    this.pending.set(world * this.threads + thread, loc);
  }

  private takeLocation(icomm: number, rank: number, thread: number): SourceLocation | undefined {
    const world = this.lines.worldRankOf(icomm, rank, thread);
    return this.pending.take(world * this.threads + thread);
  }

  private warnOnce(etype: number, text: string): void {
    if (this.warnedEtypes.has(etype)) return;
    // Bounded: a file with 10^6 undefined etypes must not make 10^6 warnings (or a 10^6-entry set).
    if (this.warnedEtypes.size >= MAX_ETYPE_WARNINGS) {
      if (this.warnedEtypes.size === MAX_ETYPE_WARNINGS) {
        this.warnedEtypes.add(Number.NaN);
        this.warnings.push(`${this.options.name}: more etype problems like the above; not listed`);
      }
      return;
    }
    this.warnedEtypes.add(etype);
    this.warnings.push(`${this.options.name}: ${text}`);
  }
}

/**
 * Converts a CLOG2 byte stream (plain or gunzipped chunks) into drawables. Read `drawables` (or
 * `batches`) to the end, then `summary` holds the final categories, maps and counts.
 */
export function convertClog2(chunks: ByteChunks, options: ConvertOptions, definitions?: Clog2Definitions, ahead?: Clog2Definitions): ClogConversion {
  const conv = new Clog2Converter(options, definitions);
  const parser = new Clog2Parser(options.name, conv, (p) => conv.begin(p));
  return streamConversion(chunks, options, {
    parser,
    sliceBytes: SLICE,
    // No builder before the preamble is read.
    take: () => conv.builder?.take() ?? [],
    releaseInto: (sink) => {
      conv.sink = sink;
      conv.builder?.releaseInto(sink);
    },
    finish: () => {
      const summary = summarize(conv, parser, options.name, definitions);
      conv.builder.finish();
      return summary;
    },
    category: (i) => conv.categories.entries[i]?.category,
    declaredLines: () => (conv.lines === undefined ? undefined : conv.lines.worldSize * conv.lines.threads),
    // Definitions come at the file's end: a snapshot needs them read ahead (given, or `ahead`).
    trailerSoFar: definitions === undefined && ahead === undefined ? undefined : () => trailerSoFar(conv, ahead),
  });
}

/** The categories as the definitions read ahead will make them, and the Y maps so far (none before the preamble). */
function trailerSoFar(conv: Clog2Converter, ahead: Clog2Definitions | undefined): ConversionTrailer | undefined {
  if (conv.lines === undefined) return undefined;
  const table = conv.categories.copy();
  for (const d of ahead?.states ?? []) table.defineState(d.start, d.final, d.look);
  for (const d of ahead?.events ?? []) table.defineEvent(d.etype, d.look);
  return { categories: table.finish(), lineIDMaps: conv.lines.maps() };
}

function summarize(conv: Clog2Converter, parser: Clog2Parser, name: string, definitions: Clog2Definitions | undefined): ConversionSummary {
  const records: Record<string, number> = {};
  parser.counts.forEach((n, i) => {
    if (n > 0) records[REC_NAMES[i]!] = n;
  });
  return {
    format: 'clog2',
    version: parser.preamble!.version,
    ...builtSummary(conv),
    lineIDMaps: conv.lines.maps(),
    lineIDs: conv.lines.usedLineIDs(),
    records,
    truncated: parser.truncated,
    warnings: [...parser.warnings, ...conv.categories.warnings, ...conv.lines.warnings, ...conv.warnings, ...conv.builder.timeWarnings(name)],
    clog2: { preamble: parser.preamble!, commTable: parser.commTable },
    ...(definitions?.lastTime !== undefined ? { runEnd: definitions.lastTime } : {}),
  };
}
