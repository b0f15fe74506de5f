/**
 * ALOG (MPE 1 / upshot text log, ALOG.md) → drawables. Header lines (TYPE −1 … −100) give the
 * creator, counts and the state definitions (−13: start id, end id, "colour[:bitmap] name");
 * event lines become states (start/end pairs per process, the most recent open start is closed,
 * as nupshot and clog2slog do), arrows (−101 send / −102 receive, matched first-in first-out per
 * sender, receiver and tag as nupshot does) and solo events (any other type). Times are integer
 * microseconds in the file and seconds in the model. Colours are X11 names; upshot's stipple
 * bitmaps after ':' are dropped (docs/FORMATS.md).
 */
import type { ByteChunks } from '../../bytes/byteSource';
import { FormatError } from '../../bytes/formatError';
import { DrawableBuilder } from '../convert/builder';
import { CategoryTable, Role } from '../convert/categories';
import { identityMap } from '../convert/lineIDs';
import { streamConversion, type ClogConversion, type ConversionSummary, type ConvertOptions } from '../convert/result';
import { SourceSiteTable } from '../convert/sourceLocations';
import type { LineIDMap } from '../../model/types';
import { LineSplitter, parseAlogLine, type AlogLine } from './lines';

export const ALOG_SEND = -101;
export const ALOG_RECEIVE = -102;

/** The header values clog2alog writes (ALOG.md §3.1), as found in the file. */
export interface AlogHeader {
  creator?: string;
  eventCount?: number;
  processCount?: number;
  eventTypeCount?: number;
  startTime?: number;
  endTime?: number;
}

/** What the ALOG converter adds to the conversion summary. */
export interface AlogFacts {
  readonly header: AlogHeader;
  readonly eventLines: number;
  readonly processes: readonly number[];
  readonly eventTypeCounts: Readonly<Record<string, number>>;
  /** Header values that disagree with the event lines (ALOG.md §8 step 6). */
  readonly inconsistencies: readonly string[];
}

/** Open starts of one state on one process (a stack: the latest start is closed first). */
type OpenStarts = number[];

const MAX_WARNINGS = 1000;

class AlogConverter {
  readonly categories = new CategoryTable();
  readonly locations = new SourceSiteTable();
  readonly used = new Set<number>();
  readonly builder: DrawableBuilder;
  readonly arrowCategory: number;
  readonly header: AlogHeader = {};
  readonly warnings: string[] = [];
  readonly typeCounts = new Map<number, number>();
  readonly processes = new Set<number>();
  eventLines = 0;
  lastTime = 0;
  droppedRecords = 0;
  droppedFinals = 0;
  /** Open starts by category, then process. */
  private readonly open = new Map<number, Map<number, OpenStarts>>();
  private inEvents = false;
  private readonly warned = new Set<string>();

  constructor(
    readonly file: string,
    options: ConvertOptions,
  ) {
    this.builder = new DrawableBuilder(this.categories, this.locations, { use: (id) => this.used.add(id) }, { referenceQuirks: options.referenceQuirks });
    this.arrowCategory = this.categories.addArrowCategory(ALOG_SEND, ALOG_RECEIVE);
  }

  warnOnce(key: string, text: string): void {
    if (this.warned.has(key) || this.warnings.length >= MAX_WARNINGS) return;
    this.warned.add(key);
    this.warnings.push(`${this.file}: ${text}`);
  }

  line(l: AlogLine): void {
    if (l.type <= -1 && l.type >= -100) return this.headerLine(l);
    this.inEvents = true;
    this.event(l);
  }

  private headerLine(l: AlogLine): void {
    if (this.inEvents) this.warnOnce(`late${l.type}`, `line ${l.lineNo}: header line of type ${l.type} after the first event line (applied)`);
    const h = this.header;
    switch (l.type) {
      case -1:
        h.creator = l.text ?? '';
        return;
      case -2:
        h.eventCount = l.data;
        return;
      case -3:
        h.processCount = l.data;
        return;
      case -5:
        h.eventTypeCount = l.data;
        return;
      case -6:
        h.startTime = l.time;
        return;
      case -7:
        h.endTime = l.time;
        return;
      case -9:
        this.categories.defineEvent(l.data, { name: l.text ?? undefined, color: undefined, format: undefined });
        return;
      case -13: {
        // TEXT = "colour[:bitmap] name"; the name may contain spaces.
        const text = (l.text ?? '').trim();
        const m = /^(\S+)\s+(.*)$/.exec(text);
        const color = m ? m[1]! : text === '' ? undefined : text;
        const name = m ? m[2]!.trim() : undefined;
        this.categories.defineState(l.task, l.data, { color, name: name === '' ? undefined : name, format: undefined });
        return;
      }
      default:
        // −4, −8, −11 (constants), −10 (printf formats), −14 (message types), −15 (process names):
        // nothing to draw from them.
        return;
    }
  }

  private event(l: AlogLine): void {
    this.eventLines++;
    this.typeCounts.set(l.type, (this.typeCounts.get(l.type) ?? 0) + 1);
    this.processes.add(l.process);
    if (l.time < this.lastTime) this.warnOnce('order', `line ${l.lineNo}: time ${l.time} goes back from ${this.lastTime} (lines out of time order)`);
    else this.lastTime = l.time;
    const time = l.time / 1e6;
    const b = this.builder;
    b.advance(time);
    let h = this.categories.handler(l.type);
    if (h < 0) h = this.categories.addUnknownSolo(l.type) * 8 + Role.Solo;
    const category = h >> 3;
    switch (h & 7) {
      case Role.Start: {
        let byProc = this.open.get(category);
        if (byProc === undefined) this.open.set(category, (byProc = new Map()));
        let starts = byProc.get(l.process);
        if (starts === undefined) byProc.set(l.process, (starts = []));
        starts.push(time);
        return;
      }
      case Role.Final: {
        const start = this.open.get(category)?.get(l.process)?.pop();
        if (start === undefined) {
          this.droppedFinals++;
          this.warnOnce(
            `end${category}`,
            `line ${l.lineNo}: end of state "${this.categories.entries[category]!.category.name}" on process ${l.process} with no open start (ignored)`,
          );
          return;
        }
        // Paired here (latest start first); the builder's own FIFO queue holds it for no time.
        b.openState(category, start, l.process, undefined, undefined);
        b.closeState(category, time, l.process, undefined, undefined);
        return;
      }
      case Role.Solo:
        b.solo(category, time, l.process, undefined, undefined);
        return;
      default: {
        // TEXT = "<tag> <size>".
        const tokens = (l.text ?? '')
          .trim()
          .split(/\s+/)
          .filter((t) => t !== '');
        const tag = tokens.length > 0 && /^[+-]?\d+$/.test(tokens[0]!) ? Number(tokens[0]) | 0 : 0;
        const size = tokens.length > 1 && /^[+-]?\d+$/.test(tokens[1]!) ? Number(tokens[1]) | 0 : 0;
        if (tokens.length < 2) this.warnOnce(`msg${l.type}`, `line ${l.lineNo}: message line without "tag size" text; tag/size taken as 0`);
        const partner = l.data;
        if ((h & 7) === Role.Send) b.send(category, tag, l.process, partner, time, l.process, size, undefined);
        else b.receive(category, tag, partner, l.process, time, l.process, undefined);
      }
    }
  }

  openStates(): { category: number; name: string; count: number }[] {
    const out: { category: number; name: string; count: number }[] = [];
    for (const [category, byProc] of [...this.open].sort((x, y) => x[0] - y[0])) {
      let n = 0;
      for (const s of byProc.values()) n += s.length;
      if (n > 0) out.push({ category, name: this.categories.entries[category]!.category.name, count: n });
    }
    return out;
  }
}

class AlogParser {
  readonly splitter: LineSplitter;
  constructor(
    readonly file: string,
    conv: AlogConverter,
  ) {
    this.splitter = new LineSplitter(file, (raw, lineNo, offset) => {
      let l: AlogLine | undefined;
      try {
        l = parseAlogLine(file, raw, lineNo, offset);
      } catch (e) {
        if (lineNo === 1 && e instanceof FormatError) throw new FormatError(file, e.offset, `not an ALOG file: ${e.detail}`);
        // The last line of a file cut short is usually cut mid-field: drop it, keep the rest (flagged truncated).
        if (!(this.splitter.unterminated && e instanceof FormatError && lineNo > 1)) throw e;
        conv.warnings.push(`${file}: the last line (${lineNo}) is incomplete and was dropped: ${e.detail}`);
        return;
      }
      if (l === undefined) return;
      if (lineNo === 1 && !(l.type <= -1 && l.type >= -100))
        throw new FormatError(file, 0, 'line 1, column 1: not an ALOG file (the first line is not a header line of type -1 … -100)');
      conv.line(l);
    });
  }
  get received(): number {
    return this.splitter.received;
  }
  push(bytes: Uint8Array): void {
    this.splitter.push(bytes);
  }
  end(): void {
    this.splitter.end();
    if (this.splitter.lineNo === 0) throw new FormatError(this.file, 0, 'empty file: not an ALOG trace');
  }
}

/** Converts an ALOG byte stream into drawables; see `convertClog2` for the protocol. */
export function convertAlog(chunks: ByteChunks, options: ConvertOptions): ClogConversion {
  const conv = new AlogConverter(options.name, options);
  const parser = new AlogParser(options.name, conv);
  return streamConversion(chunks, options, {
    parser,
    sliceBytes: 1 << 20,
    take: () => conv.builder.take(),
    releaseInto: (sink) => conv.builder.releaseInto(sink),
    finish: () => {
      const summary = summarize(conv, parser);
      conv.builder.finish();
      return summary;
    },
    category: (i) => conv.categories.entries[i]?.category,
  });
}

function summarize(conv: AlogConverter, parser: AlogParser): ConversionSummary {
  const categories = conv.categories.finish();
  const b = conv.builder;
  const unmatched = b.unmatched(conv.arrowCategory);
  const openStates = conv.openStates();
  const lineIDs = [...conv.used].sort((x, y) => x - y);
  const h = conv.header;
  const inconsistencies: string[] = [];
  const check = (what: string, header: number | undefined, actual: number): void => {
    if (header !== undefined && header !== actual) inconsistencies.push(`${what}: header says ${header}, the event lines give ${actual}`);
  };
  check('event count (-2)', h.eventCount, conv.eventLines);
  check('process count (-3)', h.processCount, conv.processes.size);
  check('event type count (-5)', h.eventTypeCount, conv.typeCounts.size);
  if (conv.eventLines > 0) check('end time (-7)', h.endTime, conv.lastTime);
  // A file cut short loses its last lines: fewer events than the header announced, or no final LF.
  const truncated = parser.splitter.unterminated || (h.eventCount !== undefined && conv.eventLines < h.eventCount);
  const warnings = [...conv.warnings, ...conv.categories.warnings.map((w) => `${conv.file}: ${w}`)];
  for (const i of inconsistencies) warnings.push(`${conv.file}: ${i}`);
  if (truncated)
    warnings.push(
      `${conv.file}: the file looks truncated (${parser.splitter.unterminated ? 'last line has no line feed' : 'fewer event lines than the header announces'}); open states become unmatched`,
    );
  const processMap: LineIDMap = { title: 'Process View', columns: ['process'], rows: lineIDs.map((lineID) => ({ lineID, path: [lineID] })), methods: [] };
  const eventTypeCounts: Record<string, number> = {};
  for (const [t, n] of [...conv.typeCounts].sort((x, y) => x[0] - y[0])) eventTypeCounts[String(t)] = n;
  const alog: AlogFacts = {
    header: { ...h },
    eventLines: conv.eventLines,
    processes: [...conv.processes].sort((x, y) => x - y),
    eventTypeCounts,
    inconsistencies,
  };
  const openCount = openStates.reduce((n, s) => n + s.count, 0);
  return {
    format: 'alog',
    version: 'ALOG',
    categories,
    categoryCounts: conv.categories.counts(),
    lineIDMaps: [processMap, identityMap(lineIDs)],
    lineIDs,
    timeRange: b.drawables > 0 ? [b.earliest, b.latest] : undefined,
    drawables: { total: b.drawables, state: b.states, arrow: b.arrows, event: b.events },
    unmatched: {
      reference: unmatched.sends + unmatched.receives + openCount,
      openStates,
      sends: unmatched.sends,
      receives: unmatched.receives,
      droppedFinals: conv.droppedFinals,
      droppedRecords: conv.droppedRecords,
      // ALOG times are integers checked when the line is parsed (lines.ts): never NaN or infinite.
      badTimes: 0,
    },
    sourceLocations: { records: 0, sites: 0 },
    records: { header: parser.splitter.lineNo - conv.eventLines, events: conv.eventLines },
    truncated,
    outOfOrder: b.reorder.lateArrivals,
    warnings,
    alog,
  };
}
