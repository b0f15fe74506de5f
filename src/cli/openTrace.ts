/**
 * Opens a trace file for the CLI: gunzips `.gz` (or gzip-magic) input into memory, detects the
 * format from the first bytes and hands the source to that format's opener.
 *
 * CLOG2 / CLOG inputs are streamed through the converter (openClogTrace.ts); other formats plug
 * in with `registerTraceOpener`.
 */
import type { ByteSource } from '../core/bytes/byteSource';
import { FormatError } from '../core/bytes/formatError';
import { slog2TraceInfo } from '../core/info/slog2Info';
import type { TraceInfo } from '../core/info/traceInfo';
import type { Category, Drawable, LineIDMap } from '../core/model/types';
import type { ConversionSummary } from '../core/formats/convert/result';
import { looksLikeSlog2 } from '../core/formats/slog2/header';
import { Slog2File } from '../core/formats/slog2/slog2File';
import { primitiveBatchesInTimeOrder, type DrawableFilter, type PrimitiveBatch } from '../core/formats/slog2/columnStream';
import { FileSource } from '../io/fileSource';
import { spanSpillFor } from '../io/spanSpillFile';
import { threadDecoded, threadProfile } from '../convert/decodeThread';
import type { AnalysisInput } from '../core/analysis/analyze';
import { slog2SplitTime } from '../core/analysis/slog2Input';
import { openSlog1ByteSource } from '../io/slog1Source';
import { gunzipSlog2ToMemory, hasGzipMagic } from '../io/gzip';
import { openTraceInput } from '../io/traceInput';
import { conversionTrace, openClogTrace } from './openClogTrace';
import { convertSlog1 } from '../core/formats/slog1/convertSlog1';
import { Slog1File } from '../core/formats/slog1/slog1File';

export type TraceFormat = TraceInfo['format'];

/** What the info/dump commands need from any trace format. */
export interface OpenedTrace {
  readonly format: TraceFormat;
  readonly categories: ReadonlyMap<number, Category>;
  info(): Promise<TraceInfo>;
  /** Real drawables intersecting [t0, t1] (closed), in increasing start time. */
  drawables(t0: number, t1: number): AsyncIterable<Drawable>;
  /** The same stream in batches (SLOG-2: one per leaf). */
  drawableBatches(t0: number, t1: number): AsyncIterable<readonly Drawable[]>;
  /** SLOG-2: the same stream as columns, each batch overwritten by the next (whole-file passes: the analysis). */
  primitiveBatches?(t0: number, t1: number, keep?: DrawableFilter): AsyncIterable<PrimitiveBatch>;
  /** SLOG-2: how the analysis splits its second pass, and the thread that does half of it. */
  readonly analysis?: Pick<AnalysisInput, 'splitTime' | 'profileElsewhere' | 'spanSpill'>;
  /** The Y-axis maps (CLOG inputs: known once the drawables have been read). */
  readonly lineIDMaps: readonly LineIDMap[];
  /** SLOG-2: the time range from the header (no pass over the file). */
  readonly timeRange?: readonly [number, number];
  /** CLOG inputs: the conversion's summary, once the drawables have been read. */
  readonly conversion?: ConversionSummary;
  /** Non-fatal problems found while reading. */
  readonly warnings: readonly string[];
  close(): Promise<void>;
}

export type TraceOpener = (source: ByteSource) => Promise<OpenedTrace>;

interface FormatEntry {
  readonly format: TraceFormat;
  readonly matches: (head: Uint8Array) => boolean;
  readonly open: TraceOpener;
}

const OPENERS: FormatEntry[] = [];

/** Adds (or replaces) the opener of a format, tried in registration order on the first 64 bytes. */
export function registerTraceOpener(format: TraceFormat, matches: (head: Uint8Array) => boolean, open: TraceOpener): void {
  const i = OPENERS.findIndex((o) => o.format === format);
  const entry = { format, matches, open };
  if (i >= 0) OPENERS[i] = entry;
  else OPENERS.push(entry);
}

export async function openSlog2Trace(source: ByteSource): Promise<OpenedTrace> {
  const file = await Slog2File.open(source);
  const decoded = threadDecoded(file);
  const profileElsewhere = threadProfile(file);
  return {
    format: 'slog2',
    categories: file.categories,
    lineIDMaps: file.lineIDMaps,
    timeRange: file.timeRange,
    info: () => slog2TraceInfo(file),
    drawables: (t0, t1) => file.drawablesInTimeOrder(t0, t1),
    drawableBatches: (t0, t1) => file.drawableBatchesInTimeOrder(t0, t1),
    // For the analysis, which is done with a batch before it asks for the next (columns reused).
    // A file on disk is decoded in a second thread when dist/decoder.js is there, except for
    // filtered passes (they keep few drawables: little to share).
    primitiveBatches: (t0, t1, keep) =>
      keep === undefined && decoded !== undefined ? decoded(t0, t1) : primitiveBatchesInTimeOrder(file, t0, t1, { reuse: true, ...(keep ? { keep } : {}) }),
    analysis: {
      splitTime: (t0, t1) => slog2SplitTime(file, t0, t1),
      ...(profileElsewhere ? { profileElsewhere } : {}),
      // A file on disk: its first pass's spans may go to a temporary file (the second pass replays them).
      ...(source instanceof FileSource ? { spanSpill: spanSpillFor(source.size) } : {}),
    },
    warnings: file.warnings,
    close: () => file.close(),
  };
}

registerTraceOpener('slog2', looksLikeSlog2, openSlog2Trace);

/** SLOG-1 (positional reads): read through its conversion to drawables, like the CLOG formats. */
export async function openSlog1Trace(source: ByteSource): Promise<OpenedTrace> {
  const file = await Slog1File.open(source);
  return conversionTrace(
    'slog1',
    async () => convertSlog1(file, { name: source.name }),
    () => file.close(),
  );
}

/** Decompressed gzip input is held in memory; refuse beyond this. */
const MAX_GUNZIPPED_BYTES = 2 ** 31;

/**
 * A random-access ByteSource for an SLOG-2 path: the file itself, or its decompressed content when
 * gzip'd (sniffed first, inflated only up to the header's extent). undefined when it is not SLOG-2.
 */
export async function openSlog2ByteSource(path: string): Promise<ByteSource | undefined> {
  const file = await FileSource.open(path);
  let keep = false;
  try {
    if (!(await hasGzipMagic(file))) {
      keep = looksLikeSlog2(await file.read(0, Math.min(8, file.size)));
      return keep ? file : undefined;
    }
    return await gunzipSlog2ToMemory(file, MAX_GUNZIPPED_BYTES);
  } finally {
    if (!keep) await file.close();
  }
}

/**
 * A random-access ByteSource for a positional format (SLOG-2, SLOG-1): the file itself, or its
 * decompressed content when gzip'd. The format is sniffed from the first decompressed bytes before
 * anything more is unpacked; SLOG-2 is inflated only up to its header's extent.
 */
export async function openByteSource(path: string): Promise<ByteSource> {
  const input = await openTraceInput(path);
  const { format, gzip } = input;
  await input.file.close();
  if (format === 'slog2') {
    const source = await openSlog2ByteSource(path);
    if (source === undefined) throw new FormatError(path, 0, 'not an SLOG-2 file');
    return source;
  }
  if (format === 'slog1') {
    const source = await openSlog1ByteSource(path);
    if (source === undefined) throw new FormatError(path, 0, 'not a SLOG-1 file');
    return source;
  }
  // Other formats: the plain file (callers check what they need and say so); gzip'd content of a
  // format read as a stream is not unpacked here.
  if (gzip) throw new FormatError(path, 0, `not an SLOG-2 or SLOG-1 file (expected ${OPENERS.map((o) => o.format).join(', ')})`);
  return FileSource.open(path);
}

export async function openTrace(path: string): Promise<OpenedTrace> {
  // CLOG2 / CLOG are read as a stream (gzip decompressed on the fly), everything else by position.
  // The format is sniffed from the first decompressed bytes: nothing more is unpacked for an
  // unrecognised file (a gzip bomb of zeros is refused at once).
  const input = await openTraceInput(path);
  if (input.format === 'clog2' || input.format === 'clog' || input.format === 'alog') return openClogTrace(input);
  if (input.format === 'slog1') {
    await input.file.close();
    const slog1 = await openSlog1ByteSource(path);
    if (slog1 === undefined) throw new FormatError(path, 0, 'not a SLOG-1 file');
    return openSlog1Trace(slog1).catch(async (e: unknown) => {
      await slog1.close();
      throw e;
    });
  }
  await input.file.close();
  if (input.format === undefined) throw new FormatError(path, 0, `unrecognised trace format (expected ${OPENERS.map((o) => o.format).join(', ')})`);
  const source = await openByteSource(path);
  try {
    const head = await source.read(0, Math.min(64, source.size));
    const entry = OPENERS.find((o) => o.matches(head));
    if (entry === undefined) {
      throw new FormatError(source.name, 0, `unrecognised trace format (expected ${OPENERS.map((o) => o.format).join(', ')})`);
    }
    return await entry.open(source);
  } catch (e) {
    await source.close();
    throw e;
  }
}
