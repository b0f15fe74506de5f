/**
 * Fuzz targets: each takes the (mutated) bytes and a Prng for its own choices (chunk sizes,
 * windows), drives one part of the format core end to end and checks invariants. A target returns
 * normally ('ok'), throws a FormatError ('rejected': the input was refused properly), or throws
 * anything else: a crash, or an InvariantError when a result breaks a rule stated below.
 */
import type { ByteChunks, ByteSource } from '../../src/core/bytes/byteSource';
import { FormatError, isFormatError } from '../../src/core/bytes/formatError';
import { checkRange, MemorySource } from '../../src/core/bytes/memorySource';
import type { ClogConversion, ConversionSummary } from '../../src/core/formats/convert/result';
import { convertClogFormat, detectClogFormat, traceInfoFromSummary } from '../../src/core/info/clogInfo';
import { slog2TraceInfo } from '../../src/core/info/slog2Info';
import type { Drawable } from '../../src/core/model/types';
import { buildWindow } from '../../src/core/query/buildWindow';
import { FLAG_SITE_MATCH, type SiteMarker } from '../../src/core/model/siteFlags';
import { compileQuery, countMatches, findNext } from '../../src/core/search';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { batchFromDrawables, primitiveBatchesInTimeOrder, type PrimitiveBatch } from '../../src/core/formats/slog2/columnStream';
import { MemorySink, writeConversion } from '../../src/core/formats/slog2/writer';
import { nodeSourceLocations, readSourceLocations } from '../../src/core/formats/srcloc/readSourceLocations';
import { computeRangeStats, exactStatsOfFile, nodeBatches } from '../../src/core/stats';
import { statsPartOfFile, type ElsewhereHalf } from '../../src/core/stats/columnStats';
import type { Prng } from '../../src/core/synth/prng';
import { gunzipChunks } from '../../src/io/gzip';
import { clog2Chunks } from '../../src/convert/conversionInput';
import { convertAlog } from '../../src/core/formats/alog/convertAlog';
import { detectInputFormat } from '../../src/core/formats/detectFormat';
import { convertSlog1 } from '../../src/core/formats/slog1/convertSlog1';
import { printSlog1 } from '../../src/core/formats/slog1/printRecords';
import { Slog1File } from '../../src/core/formats/slog1/slog1File';

import { directIndexTarget, rowIndexTarget } from './rowIndexTarget';
import { shapesTarget } from './shapes';

export const TARGETS = ['slog2', 'views', 'clog2', 'clog', 'convert', 'writer', 'alog', 'slog1', 'rowindex', 'shapes', 'directindex'] as const;
export type Target = (typeof TARGETS)[number];

export class InvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvariantError';
  }
}

/**
 * Plain Errors (not FormatErrors) that a module throws on purpose for damaged input, by design of
 * its owner; the fuzzer counts them apart ('known') instead of as crashes. Each is listed in
 * docs/ROBUSTNESS.md with its reason.
 */
export const KNOWN_REFUSALS: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  { pattern: /input has no drawables: nothing to write/, why: 'slog2 writer: an input without drawables cannot make an SLOG-2 file' },
  {
    pattern: /statistics input broke its watermark/,
    why: 'stats: a SLOG-2 drawable outside its leaf bounds breaks the leaf-order promise; refused loudly rather than a wrong answer',
  },
];

export type Classified = 'rejected' | 'known' | 'invariant' | 'crash';

/** How an exception escaping a target counts. */
export function classify(e: unknown): Classified {
  if (isFormatError(e)) return 'rejected';
  if (e instanceof InvariantError || (e instanceof Error && e.name === 'InvariantError')) return 'invariant';
  if (e instanceof Error && e.constructor === Error && KNOWN_REFUSALS.some((k) => k.pattern.test(e.message))) return 'known';
  return 'crash';
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new InvariantError(message);
}

/**
 * Where two statistics results differ (undefined: nowhere): numbers within a relative 1e-9 (sums
 * made in another order), the example instances of a shortest/longest tie left out.
 */
function statsDifference(a: unknown, b: unknown, at: string): string | undefined {
  if (typeof a === 'number' && typeof b === 'number') {
    const same = Object.is(a, b) || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
    return same ? undefined : `${at}: ${a} vs ${b}`;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b ? undefined : `${at}: ${String(a)} vs ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: array vs object`;
  const ka = Object.keys(a).filter((k) => k !== 'shortest' && k !== 'longest');
  const kb = Object.keys(b).filter((k) => k !== 'shortest' && k !== 'longest');
  if (ka.join() !== kb.join()) return `${at}: keys ${ka.join()} vs ${kb.join()}`;
  for (const k of ka) {
    const d = statsDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** The input as chunks of a size chosen per case (1 byte … whole), like a stream or gunzip would deliver. */
async function* chunked(bytes: Uint8Array, size: number): ByteChunks {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

function chunkSize(rng: Prng, length: number): number {
  const size = rng.pick([1 + rng.int(0, 31), 24, 1000, 4096, 7919, 65536, 1 << 20, Math.max(1, length)]);
  // Chunks of a few bytes over a multi-MB seed cost ~0.5 s per 3 MB in chunk handling alone
  // (convert:125:1528: 1.9 s of CPU against the 2 s limit, over it in wall time with --jobs 2);
  // over 1 MiB the smallest chunks are 1000 bytes (the same code at every boundary).
  return length > 1 << 20 && size < 1000 ? 1000 : size;
}

export interface TargetOptions {
  /** Set for a CLOG2 input that is an undamaged seed cut at this byte: a partial read is required. */
  readonly truncatedAt?: number;
  /** The seed's ENDLOG end, to know whether the cut lost the end-of-log record. */
  readonly endLogEnd?: number;
}

export async function runTarget(target: Target, bytes: Uint8Array, rng: Prng, options: TargetOptions = {}): Promise<void> {
  switch (target) {
    case 'slog2':
      return slog2Target(bytes, rng);
    case 'views':
      return viewsTarget(bytes, rng);
    case 'clog2':
    case 'clog':
      return clogTarget(target, bytes, rng, options);
    case 'convert':
      return convertTarget(bytes, rng);
    case 'writer':
      return writerTarget(bytes, rng);
    case 'alog':
      return alogTarget(bytes, rng);
    case 'slog1':
      return slog1Target(bytes, rng);
    case 'rowindex':
      return rowIndexTarget(bytes, rng, check);
    case 'directindex': {
      const conversion = await conversionOf(bytes, rng, 'fuzz.directindex');
      if (conversion !== undefined) await directIndexTarget(conversion, rng, check);
      return;
    }
    case 'shapes':
      // Structure-aware: the input is generated from the case's Prng (the seed bytes are not used).
      await shapesTarget(rng);
      return;
  }
}

/**
 * Any convertible input as the worker opens it: detect the format from the first bytes, then
 * convert (SLOG-1 by position through a MemorySource). Undefined for SLOG-2 or unknown bytes.
 */
async function conversionOf(bytes: Uint8Array, rng: Prng, name: string, referenceQuirks = rng.next() < 0.3): Promise<ClogConversion | undefined> {
  const format = detectInputFormat(bytes.subarray(0, 1024));
  if (format === undefined || format === 'slog2') return undefined;
  if (format === 'slog1') return convertSlog1(await Slog1File.open(new MemorySource(name, bytes)), { name });
  return convertClogFormat(format, chunked(bytes, chunkSize(rng, bytes.length)), { name, referenceQuirks });
}

/** ALOG text conversion drained to the end; chunk boundaries (lines split anywhere) must not matter. */
async function alogTarget(bytes: Uint8Array, rng: Prng): Promise<void> {
  if (bytes.length < 256 << 10 && rng.next() < 0.25) {
    const small = rng.int(1, 97);
    const a = await conversionText('alog', bytes, small);
    const b = await conversionText('alog', bytes, Math.max(1, bytes.length));
    check(a === b, `converting ALOG in ${small}-byte chunks differs from one chunk: ${a.slice(0, 160)} vs ${b.slice(0, 160)}`);
  }
  const { summary } = await drain(convertAlog(chunked(bytes, chunkSize(rng, bytes.length)), { name: 'fuzz.alog' }));
  traceInfoFromSummary(summary);
}

/**
 * SLOG-1: open, print every table and record (the --records dump), convert and drain; a
 * recycling source must give what a stable one gives; every real record (CUR + INC) is drawn or counted as dropped.
 */
async function slog1Target(bytes: Uint8Array, rng: Prng): Promise<void> {
  const printAll = async (source: ByteSource): Promise<string> => {
    try {
      const file = await Slog1File.open(source);
      let text = '';
      for await (const s of printSlog1(file)) text += s;
      return text;
    } catch (e) {
      if (isFormatError(e)) return `FormatError ${e.message}`;
      throw e;
    }
  };
  if (bytes.length < 1 << 20 && rng.next() < 0.25) {
    const stable = await printAll(new MemorySource('fuzz.slog', bytes));
    const recycled = await printAll(new RecyclingSource('fuzz.slog', bytes));
    check(stable === recycled, `reading SLOG-1 through a recycling source differs: ${stable.slice(0, 200)} vs ${recycled.slice(0, 200)}`);
  }
  const file = await Slog1File.open(new MemorySource('fuzz.slog', bytes));
  const { count, summary } = await drain(convertSlog1(file, { name: 'fuzz.slog' }));
  const sectors = summary.slog1!.sectorRecords;
  // every real record is drawn, or dropped and counted (a NaN/∞ time: badTimes, reported as such)
  const { droppedRecords, badTimes } = summary.unmatched;
  check(
    count + droppedRecords + badTimes === sectors.CUR + sectors.INC,
    `${count} drawables + ${droppedRecords} dropped + ${badTimes} with bad times ≠ ${sectors.CUR + sectors.INC} real records`,
  );
  traceInfoFromSummary(summary);
  await file.close();
}

/**
 * A ByteSource that serves every read from one reused buffer, overwritten by the next read — what
 * the ByteSource contract allows a cache to do ("copy what you keep beyond the next read"). A
 * reader keeping a view instead of a copy reads other bytes later: the differential check in the
 * slog2 target finds it.
 */
class RecyclingSource implements ByteSource {
  private buffer = new Uint8Array(1024);
  readonly size: number;
  constructor(
    readonly name: string,
    private readonly bytes: Uint8Array,
  ) {
    this.size = bytes.length;
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRange(this.name, this.size, offset, length);
    if (length > this.buffer.length) this.buffer = new Uint8Array(length);
    this.buffer.fill(0xa5);
    this.buffer.set(this.bytes.subarray(offset, offset + length));
    return this.buffer.subarray(0, length);
  }
  async close(): Promise<void> {}
}

function digest(d: Drawable): string {
  const prims = d.kind === 'composite' ? d.primitives : [d];
  return `${d.category}|${d.earliest}|${d.latest}|${prims.map((p) => `${p.category}:${p.vertices.map((v) => `${v.time}@${v.lineID}`).join(',')}:${p.info?.join('.') ?? ''}`).join(';')}`;
}

/** Everything a file yields through a source, or the error it is refused with. */
async function readAll(source: ByteSource): Promise<string[] | string> {
  try {
    const file = await Slog2File.open(source, { nodeCacheSize: 1 });
    const out: string[] = [];
    for await (const d of file.allDrawables()) out.push(digest(d));
    const table = await readSourceLocations(file);
    if (table !== undefined)
      for (const info of file.level(0).slice(0, 2))
        for (const d of (await file.readNode(info)).drawables) out.push(JSON.stringify(d.kind === 'primitive' ? (d.source ?? null) : null));
    return out;
  } catch (e) {
    if (isFormatError(e)) return e.message;
    throw e;
  }
}

/** SLOG-2: open, every drawable, window queries at several depths, time-ordered stream, source table, info. */
async function slog2Target(bytes: Uint8Array, rng: Prng): Promise<void> {
  if (bytes.length < 1 << 20 && rng.next() < 0.25) {
    // Differential: a recycling source must give exactly what a stable in-memory source gives.
    const stable = await readAll(new MemorySource('fuzz.slog2', bytes));
    const recycled = await readAll(new RecyclingSource('fuzz.slog2', bytes));
    check(
      JSON.stringify(stable) === JSON.stringify(recycled),
      `reading through a recycling source differs: ${JSON.stringify(stable).slice(0, 200)} vs ${JSON.stringify(recycled).slice(0, 200)}`,
    );
  }
  const file = await Slog2File.open(new MemorySource('fuzz.slog2', bytes), { nodeCacheSize: rng.int(1, 8) });
  let all = 0;
  for await (const d of file.allDrawables()) {
    all++;
    check(d.earliest <= d.latest, `a drawable with earliest ${d.earliest} > latest ${d.latest}`);
  }
  const [t0, t1] = file.timeRange;
  const span = t1 - t0;
  const windows: [number, number][] = [
    [t0, t1],
    [t0 + span * rng.next(), t0 + span * rng.next()],
    [-Infinity, Infinity],
    [t1 + 1, t1 + 2],
  ];
  for (const [a, b] of windows) {
    const lowestDepth = rng.int(0, file.maxDepth);
    for await (const slice of file.query(Math.min(a, b), Math.max(a, b), { lowestDepth })) {
      check(slice.depth >= lowestDepth, 'query returned a node below lowestDepth');
    }
  }
  // Each drawable at most once, in non-decreasing start time, even when the TreeDir lies about bounds.
  let ordered = 0;
  let last = -Infinity;
  for await (const d of file.drawablesInTimeOrder(t0, t1)) {
    check(!(d.earliest < last), `drawablesInTimeOrder went back in time (${d.earliest} after ${last})`);
    last = d.earliest;
    ordered++;
  }
  check(ordered <= all, `drawablesInTimeOrder yielded ${ordered} drawables, the file has ${all}`);
  // The columnar stream (the analysis's) gives exactly the object stream's primitives, in order.
  const rowsOf = async (batches: AsyncIterable<PrimitiveBatch>): Promise<string> => {
    const out: number[] = [];
    for await (const b of batches)
      for (let i = 0; i < b.rows; i++) out.push(b.category[i]!, b.time0[i]!, b.line0[i]!, b.time1[i]!, b.earliest[i]!, b.latest[i]!);
    return JSON.stringify(out);
  };
  const objectRows = await rowsOf(
    (async function* () {
      for await (const b of file.drawableBatchesInTimeOrder(t0, t1)) yield batchFromDrawables(b);
    })(),
  );
  const columnRows = await rowsOf(primitiveBatchesInTimeOrder(file, t0, t1));
  check(columnRows === objectRows, `the columnar stream differs from the object stream: ${columnRows.slice(0, 120)} vs ${objectRows.slice(0, 120)}`);
  // The same stream recycling its nodes' buffers (the decoder thread's and the analysis's).
  const recycledRows = await rowsOf(primitiveBatchesInTimeOrder(file, t0, t1, { reuse: true, recycleNodes: true, withLastAndInfo: rng.next() < 0.5 }));
  check(
    recycledRows === objectRows,
    `the recycling columnar stream differs from the object stream: ${recycledRows.slice(0, 120)} vs ${objectRows.slice(0, 120)}`,
  );
  const table = await readSourceLocations(file);
  if (table !== undefined) {
    for (const info of file.level(0).slice(0, 3)) await nodeSourceLocations(file, table, info);
  }
  await slog2TraceInfo(file);
  await file.close();
}

/**
 * A full-detail window read as node columns (a Slog2File) is the object reader's (through a
 * source that is only its query), byte for byte; where the object reader refuses the file the
 * columns may still build it (they do not read the shadow buffers), never the other way round.
 */
/** Site marks that depend on both ends' sites (a start read as an end, or pairs mixed up, change them). */
const BOTH_ENDS: SiteMarker = (start, end) => (((start?.line ?? 7) * 8) & 0xf8) ^ (((end?.line ?? 3) * 24) & 0xf8) ^ (end === undefined ? 0 : FLAG_SITE_MATCH);

async function sameWindowBothWays(file: Slog2File, plain: Parameters<typeof buildWindow>[1]): Promise<void> {
  for (const spec of [plain, { ...plain, marks: BOTH_ENDS }]) await sameWindowBothWaysOf(file, spec);
}

async function sameWindowBothWaysOf(file: Slog2File, spec: Parameters<typeof buildWindow>[1]): Promise<void> {
  const objects = { categories: file.categories, nodesRead: 0, query: file.query.bind(file) };
  const build = async (source: Parameters<typeof buildWindow>[0]): Promise<Uint8Array | FormatError> => {
    try {
      const w = await buildWindow(source, spec);
      const parts: number[] = [];
      for (const table of [w.states, w.shadows, w.shadowWeights, w.arrows, w.events])
        for (const column of Object.values(table) as ArrayLike<number>[]) for (let i = 0; i < column.length; i++) parts.push(column[i]!);
      return new Uint8Array(new Float64Array(parts).buffer);
    } catch (e) {
      if (isFormatError(e)) return e;
      throw e;
    }
  };
  const byColumns = await build(file);
  const byObjects = await build(objects);
  if (byColumns instanceof Uint8Array && byObjects instanceof Uint8Array)
    check(byColumns.length === byObjects.length && byColumns.every((b, i) => b === byObjects[i]), "a window read as columns differs from the object reader's");
  else
    check(
      !(byColumns instanceof FormatError) || byObjects instanceof FormatError,
      `the columns refuse a window the object reader builds: ${String(byColumns)}`,
    );
}

/**
 * What the editor computes from a SLOG-2 file, run on damaged ones: the timeline window payload
 * (two zoom levels), exact and approximate range statistics, and a search (next, count).
 */
async function viewsTarget(bytes: Uint8Array, rng: Prng): Promise<void> {
  const file = await Slog2File.open(new MemorySource('fuzz.slog2', bytes));
  const [t0, t1] = file.timeRange;
  const span = t1 - t0;
  const a = t0 + span * rng.next();
  const window: [number, number] = [Math.min(a, a + span * rng.next()), Math.max(a, a + span * rng.next())];
  const map = file.lineIDMaps[rng.int(0, file.lineIDMaps.length - 1)]!;
  const rowOfLine = new Map<number, number>();
  map.rows.forEach((row, i) => rowOfLine.set(row.lineID, i));
  for (const [w0, w1, lowestDepth] of [
    [t0, t1, file.maxDepth],
    [window[0], window[1], 0],
  ] as const) {
    const spec = { t0: w0, t1: w1, rowStart: 0, rowEnd: Math.max(1, rowOfLine.size), mapIndex: 0, lowestDepth, rowOfLine };
    if (lowestDepth === 0) await sameWindowBothWays(file, spec);
    const cols = await buildWindow(file, spec);
    check(cols !== undefined, 'buildWindow returned nothing');
  }
  await computeRangeStats(file, nodeBatches(file.query(t0, t1, { lowestDepth: 0 })), [t0, t1]);
  await computeRangeStats(file, nodeBatches(file.query(window[0], window[1], { lowestDepth: rng.int(0, file.maxDepth) })), window, { approximate: true });
  // The columnar statistics (the panel's) agree with the object query's, up to summation order.
  const byColumns = await exactStatsOfFile(file, window);
  const byObjects = await computeRangeStats(file, nodeBatches(file.query(window[0], window[1], { lowestDepth: 0 })), window);
  const difference = statsDifference(byColumns, byObjects, 'stats');
  check(difference === undefined, `columnar and object statistics differ: ${difference}`);
  // Counted in two halves cut at a random time (the later half's sums added in): the same again.
  const cut = window[0] + rng.next() * (window[1] - window[0]);
  const elsewhere = (r: readonly [number, number]): ElsewhereHalf => ({ from: cut, part: statsPartOfFile(file, r, cut), cancel: () => undefined });
  const halves = statsDifference(await exactStatsOfFile(file, window, { elsewhere }), byColumns, 'stats');
  check(halves === undefined, `statistics counted in two halves (cut at ${cut}) differ: ${halves}`);
  const compiled = compileQuery(
    { text: rng.pick(['', 'MPI', 'a', '=']), mode: rng.pick(['plain', 'word', 'regex'] as const), caseSensitive: rng.next() < 0.5 },
    file.categories,
  );
  if (compiled.ok) {
    const found = await findNext(file, compiled.matcher, { time: window[0] }, rng.next() < 0.5 ? 1 : -1, { wrap: true });
    if (found.match !== undefined) await findNext(file, compiled.matcher, { drawable: found.match.drawable }, 1);
    await countMatches(file, compiled.matcher, {});
  }
  await file.close();
}

async function drain(conversion: ClogConversion): Promise<{ count: number; summary: ConversionSummary }> {
  let count = 0;
  const categories = new Set<number>();
  for await (const batch of conversion.batches) {
    for (const p of batch) {
      count++;
      categories.add(p.category);
      check(p.vertices.length > 0, 'a drawable without vertices');
    }
  }
  const summary = conversion.summary;
  check(summary.drawables.total === count, `summary says ${summary.drawables.total} drawables, the stream had ${count}`);
  const known = new Set(summary.categories.map((c) => c.index));
  for (const c of categories) check(known.has(c), `drawable category ${c} is missing from the summary's categories`);
  return { count, summary };
}

/** The whole conversion as comparable text (drawables, counts, warnings), or the error it ends in. */
async function conversionText(format: 'clog2' | 'clog' | 'alog', bytes: Uint8Array, chunk: number | ByteChunks): Promise<string> {
  try {
    const chunks = typeof chunk === 'number' ? chunked(bytes, chunk) : chunk;
    const conversion = convertClogFormat(format, chunks, { name: `fuzz.${format}` });
    const out: string[] = [];
    for await (const batch of conversion.batches) for (const p of batch) out.push(digest(p));
    const s = conversion.summary;
    return JSON.stringify([out, s.drawables, s.unmatched, s.records, s.truncated, s.warnings, s.categories.map((c) => [c.index, c.name, c.rgba])]);
  } catch (e) {
    if (isFormatError(e)) return `FormatError ${e.message}`;
    throw e;
  }
}

/** CLOG2 / CLOG conversion drained to the end; truncated clean seeds must give a partial result. */
async function clogTarget(format: 'clog2' | 'clog', bytes: Uint8Array, rng: Prng, options: TargetOptions): Promise<void> {
  if (bytes.length < 256 << 10 && rng.next() < 0.25) {
    // Differential: chunk boundaries must not matter (records and the preamble split anywhere).
    const small = rng.int(1, 97);
    const a = await conversionText(format, bytes, small);
    const b = await conversionText(format, bytes, Math.max(1, bytes.length));
    check(a === b, `converting in ${small}-byte chunks differs from converting in one chunk: ${a.slice(0, 160)} vs ${b.slice(0, 160)}`);
    if (format === 'clog2') {
      // the converter's chunk ring (conversionInput.ts): no view of a chunk kept past its turn
      const ring = await conversionText(format, bytes, clog2Chunks(new MemorySource(`fuzz.${format}`, bytes), small));
      check(ring === b, `converting through the ${small}-byte chunk ring differs from one chunk: ${ring.slice(0, 160)} vs ${b.slice(0, 160)}`);
    }
  }
  const conversion = convertClogFormat(format, chunked(bytes, chunkSize(rng, bytes.length)), { name: `fuzz.${format}` });
  let result: { count: number; summary: ConversionSummary };
  try {
    result = await drain(conversion);
  } catch (e) {
    if (options.truncatedAt !== undefined && isFormatError(e)) {
      throw new InvariantError(`a CLOG2 cut at byte ${options.truncatedAt} was refused instead of read partially: ${e.message}`);
    }
    throw e;
  }
  traceInfoFromSummary(result.summary);
  if (options.truncatedAt !== undefined && options.endLogEnd !== undefined && options.truncatedAt < options.endLogEnd) {
    check(result.summary.truncated, `a CLOG2 cut at byte ${options.truncatedAt} (before its ENDLOG) is not flagged truncated`);
    check(
      result.summary.warnings.some((w) => w.includes('truncated')),
      `a CLOG2 cut at byte ${options.truncatedAt} has no truncation warning`,
    );
  }
}

/**
 * The conversion entry as the worker runs it: gunzip when the bytes are gzip'd (streaming), detect
 * the CLOG family from the first bytes, then convert.
 */
async function convertTarget(bytes: Uint8Array, rng: Prng): Promise<void> {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = gunzipChunks(new MemorySource('fuzz.clog2.gz', bytes), rng.pick([512, 4096, 1 << 20]))[Symbol.asyncIterator]();
    const first = await stream.next();
    if (first.done === true) return;
    const format = detectClogFormat(first.value.subarray(0, 1024));
    if (format === undefined) return;
    await drain(convertClogFormat(format, bounded(first.value, stream), { name: 'fuzz.clog2.gz' }));
    return;
  }
  const conversion = await conversionOf(bytes, rng, 'fuzz.convert');
  if (conversion === undefined) return;
  await drain(conversion);
}

/** The first chunk, then the rest, stopping a gzip bomb at 64 MiB (the time limit would catch it later). */
async function* bounded(first: Uint8Array, rest: AsyncIterator<Uint8Array>): ByteChunks {
  let total = first.length;
  yield first;
  for (let r = await rest.next(); r.done !== true; r = await rest.next()) {
    total += r.value.length;
    if (total > 64 << 20) throw new FormatError('fuzz.clog2.gz', 0, "decompressed beyond the fuzzer's 64 MiB");
    yield r.value;
  }
}

/** Converted drawables through the one-pass writer, then the written file read back in full. */
async function writerTarget(bytes: Uint8Array, rng: Prng): Promise<void> {
  const quirks = rng.next() < 0.3;
  const inner = await conversionOf(bytes, rng, 'fuzz.writer', quirks);
  if (inner === undefined) return;
  // Tap the converter's output: what is read back must be exactly what went in, minus the dropped.
  const converted = new Map<string, number>();
  const conversion: ClogConversion = {
    batches: {
      async *[Symbol.asyncIterator]() {
        for await (const batch of inner.batches) {
          for (const p of batch) converted.set(digest(p), (converted.get(digest(p)) ?? 0) + 1);
          yield batch;
        }
      },
    },
    drawables: inner.drawables,
    category: (i) => inner.category(i),
    get finished() {
      return inner.finished;
    },
    get summary() {
      return inner.summary;
    },
  };
  const sink = new MemorySink();
  const shape = { leafBytes: rng.pick([512, 2048, 65536]), childrenPerNode: rng.int(2, 4) };
  const written = await writeConversion(conversion, sink, shape);
  const convertedCount = [...converted.values()].reduce((n, k) => n + k, 0);
  check(
    convertedCount - written.droppedDrawables === written.drawables,
    `converted ${convertedCount}, dropped ${written.droppedDrawables}, written ${written.drawables}`,
  );
  const out = sink.bytes();
  check(out.length === written.bytes, `the writer reports ${written.bytes} bytes, the sink holds ${out.length}`);
  // The product path: the converter releases into the batch encoder, no drawable objects (the tap
  // above hid it). It must write the same file, dropping the same drawables.
  const direct = await conversionOf(bytes, rng, 'fuzz.writer', quirks);
  if (direct !== undefined) {
    const directSink = new MemorySink();
    const again = await writeConversion(direct, directSink, shape);
    check(
      again.droppedDrawables === written.droppedDrawables,
      `released into the encoder ${again.droppedDrawables} drawables are dropped, through objects ${written.droppedDrawables}`,
    );
    check(
      Buffer.from(directSink.bytes()).equals(Buffer.from(out)),
      `released into the encoder, the file differs from the one written through drawable objects (${again.bytes} against ${written.bytes} bytes)`,
    );
  }
  let file: Slog2File;
  let read = 0;
  try {
    file = await Slog2File.open(new MemorySource('written.slog2', out));
    for await (const d of file.allDrawables()) {
      read++;
      const key = digest(d);
      const left = converted.get(key) ?? 0;
      check(left > 0, `the written file holds a drawable the converter did not produce: ${key.slice(0, 200)}`);
      converted.set(key, left - 1);
    }
    await readSourceLocations(file);
  } catch (e) {
    if (e instanceof InvariantError) throw e;
    throw new InvariantError(`the written SLOG-2 file cannot be read back: ${e instanceof Error ? e.message : String(e)}`);
  }
  check(read === written.drawables, `the writer wrote ${written.drawables} drawables, the reader finds ${read}`);
  check(file.warnings.length === 0, `reading the written SLOG-2 warns: ${file.warnings.slice(0, 3).join('; ')}`);
}
