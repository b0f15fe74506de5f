/**
 * The conversion job shared by `mpe-trace convert` and the worker thread: input path (CLOG2 or
 * old CLOG, optionally gzip'd) → SLOG-2 output path, atomically, with progress in input bytes
 * consumed and cancellation through an AbortSignal (which leaves no file behind).
 *
 * Given the converter thread's script (dist/converter.js), reading + converting + encoding run in
 * that thread while this one builds the tree and writes: the two halves cost about the same, so
 * on two cores the conversion takes about half the time. Without it, everything runs here.
 */
import type { ConversionSummary, ConversionTrailer, ConvertibleFormat } from '../core/formats/convert/result';
import {
  conversionTrailer,
  writeConversion,
  writeDrawableBatches,
  type BatchSnapshots,
  type ConversionWriteSummary,
} from '../core/formats/slog2/writer/writeConversion';
import type { Slog2Snapshot } from '../core/formats/slog2/writer/snapshot';
import { statSync } from 'node:fs';
import type { HandedOverConverter } from './converterHandoff';
import { writeAtomically } from '../io/atomicWrite';
import { ShadowSpillFile } from '../io/shadowSpillFile';
import { checkNotInput } from '../io/outputGuard';
import { openConversionInput } from './conversionInput';
import { ConverterThread } from './converterThread';
import { bundledScript } from './threadScripts';
import { ConversionIndex, type ConversionIndexOptions } from './conversionIndex';
import type { DirectIndexResult } from '../core/index/direct';

export interface ConvertJobOptions {
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
  /** Replace an existing output. */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  /** Input bytes read so far (of the file on disk, compressed if gzip'd) and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Reproduce the reference converter's quirks (msg_size 0 of receive-before-send arrows): tests. */
  readonly referenceQuirks?: boolean;
  /** Convert only the first this many bytes of an uncompressed CLOG2 (conversionInput.ts `prefixBytes`). */
  readonly prefixBytes?: number;
  /** Script of the converter thread (dist/converter.js); without it the conversion runs in this thread. */
  readonly converterScript?: string;
  /**
   * With `converterScript`: a converter thread another thread started for this conversion
   * (converterHandoff.ts), taken instead of starting one here if it was started on this input.
   */
  readonly converterHandoff?: HandedOverConverter;
  /** Also write the row index (index/direct.ts) as the SLOG-2 is written, when the input declares its timelines. */
  readonly rowIndex?: ConversionIndexOptions;
  /**
   * Snapshots of the SLOG-2 while it is written, at most every `everyMs` (an uncompressed CLOG2
   * only: its definitions at the end are read ahead to name the categories): the editor shows a
   * big conversion as it goes.
   */
  readonly snapshots?: { readonly everyMs: number; readonly onSnapshot: (snapshot: ConversionSnapshot) => void };
}

/** A snapshot of the conversion's output (slog2/writer/snapshot.ts), as a file: `path` read through `snapshotSource`. */
export interface ConversionSnapshot extends Slog2Snapshot {
  /** The SLOG-2 being written (the output's temporary file; renamed onto the output at the end). */
  readonly path: string;
  /** Input bytes read when it was taken, of `totalBytes`. */
  readonly bytesRead: number;
  readonly totalBytes: number;
}

export interface ConvertJobResult {
  readonly input: string;
  readonly output: string;
  readonly format: ConvertibleFormat;
  readonly inputBytes: number;
  readonly written: ConversionWriteSummary;
  readonly unmatchedEvents: number;
  /** Event records left out because their time is NaN or infinite. */
  readonly badTimes: number;
  readonly sourceLocations: { readonly records: number; readonly sites: number };
  readonly warnings: readonly string[];
  /** The row index written with the SLOG-2, or why not (when asked for). */
  readonly rowIndex?: DirectIndexResult;
  /** A prefix's conversion: the time of the input's last event record (the run's end). */
  readonly runEnd?: number;
}

/** Default output name: IN.clog2 / IN.clog / IN.alog / IN.slog / IN.clog2.gz → IN.slog2. */
export function defaultOutputPath(input: string): string {
  return input.replace(/\.gz$/i, '').replace(/\.(clog2|clog|alog|slog)$/i, '') + '.slog2';
}

/**
 * Inputs below this (on disk; a gzip'd one counts 4×) convert faster in one thread: the converter
 * thread's start costs more than the overlap saves. Measured here (`mpe-trace convert`, 16 ranks):
 * 15 MB 0.42–0.45 s in one thread, 0.48–0.52 s in two; 30 MB about even; 60 MB 0.86–0.92 s in
 * one, 0.79–0.82 s in two.
 */
export const TWO_THREADS_MIN_BYTES = 24 << 20;

/**
 * dist/converter.js next to the running bundle (dist/cli.js, dist/worker.js), if it is there, and
 * (given the input) if the input is big enough for a second thread to pay.
 */
export function bundledConverterScript(input?: string): string | undefined {
  if (input !== undefined && !worthTwoThreads(input)) return undefined;
  return bundledScript('converter.js');
}

/**
 * Whether `input` is big enough for the two-thread conversion to pay (TWO_THREADS_MIN_BYTES);
 * `ifUnreadable` for an input that cannot be stat'ed (by default true: the conversion says what is
 * wrong with it).
 */
export function worthTwoThreads(input: string, ifUnreadable = true): boolean {
  let size: number;
  try {
    size = statSync(input).size;
  } catch {
    return ifUnreadable;
  }
  return size * (/\.gz$/i.test(input) ? 4 : 1) >= TWO_THREADS_MIN_BYTES;
}

export async function convertFile(input: string, output: string, options: ConvertJobOptions = {}): Promise<ConvertJobResult> {
  // By identity (device + inode), whatever the spelling, links or --force: the input is never replaced.
  await checkNotInput(input, output);
  return options.converterScript ? convertInTwoThreads(input, output, options.converterScript, options) : convertInThisThread(input, output, options);
}

async function convertInThisThread(input: string, output: string, options: ConvertJobOptions): Promise<ConvertJobResult> {
  const read = new BytesRead(options.onProgress);
  const { file, format, conversion } = await openConversionInput(input, { ...options, onProgress: read.report, snapshots: options.snapshots !== undefined });
  try {
    let last = Date.now();
    const due = (): ConversionTrailer | undefined => {
      if (Date.now() - last < options.snapshots!.everyMs) return undefined;
      last = Date.now();
      return conversion.trailerSoFar?.();
    };
    const index = await withIndex(
      options,
      output,
      () => conversion.declaredLines?.(),
      (indexer) =>
        writeAtomically(output, { force: options.force }, (sink, tempPath) =>
          withShadowSpill(output, (shadowSpill) =>
            writeConversion(conversion, sink, {
              childrenPerNode: options.childrenPerNode,
              leafBytes: options.leafBytes,
              signal: options.signal,
              indexer,
              shadowSpill,
              snapshots: snapshotsOf(
                options,
                tempPath,
                due,
                () => read.bytes,
                () => read.total,
              ),
            }),
          ),
        ),
    );
    return jobResult(input, output, format, file.size, index.written, conversion.summary, index.rowIndex);
  } finally {
    await file.close();
  }
}

async function convertInTwoThreads(input: string, output: string, script: string, options: ConvertJobOptions): Promise<ConvertJobResult> {
  const read = new BytesRead(options.onProgress);
  const converter = new ConverterThread(script, input, {
    referenceQuirks: options.referenceQuirks,
    ...(options.prefixBytes !== undefined ? { prefixBytes: options.prefixBytes } : {}),
    ...(options.snapshots !== undefined ? { snapshotEveryMs: options.snapshots.everyMs } : {}),
    signal: options.signal,
    onProgress: read.report,
    ...(options.converterHandoff !== undefined ? { handedOver: options.converterHandoff } : {}),
  });
  try {
    const index = await withIndex(
      options,
      output,
      () => converter.declaredLines,
      (indexer) =>
        writeAtomically(output, { force: options.force }, async (sink, tempPath) => {
          const summary = await withShadowSpill(output, (shadowSpill) =>
            writeDrawableBatches(converter, sink, {
              snapshots: snapshotsOf(
                options,
                tempPath,
                () => converter.takeTrailer(),
                () => converter.bytesRead,
                () => read.total,
              ),
              childrenPerNode: options.childrenPerNode,
              leafBytes: options.leafBytes,
              signal: options.signal,
              indexer,
              recycle: (b) => converter.recycle(b),
              trailer: () => conversionTrailer(converter.result.summary),
              inputKind: () => converter.result.format.toUpperCase(),
              shadowSpill,
            }),
          );
          return { ...summary, droppedDrawables: converter.result.dropped };
        }),
    );
    const r = converter.result;
    return jobResult(input, output, r.format, r.inputBytes, index.written, r.summary, index.rowIndex);
  } finally {
    await converter.close();
  }
}

/** Runs `write` with a shadow spill file next to `output` (shadowSpillFile.ts), closed and removed after. */
async function withShadowSpill<T>(output: string, write: (spill: ShadowSpillFile) => Promise<T>): Promise<T> {
  const spill = new ShadowSpillFile(output);
  try {
    return await write(spill);
  } finally {
    spill.close();
  }
}

/** Input progress as reported, remembered for the snapshots. */
class BytesRead {
  bytes = 0;
  total = 0;
  constructor(private readonly onProgress: ConvertJobOptions['onProgress']) {}
  readonly report = (bytesRead: number, totalBytes: number): void => {
    this.bytes = bytesRead;
    this.total = totalBytes;
    this.onProgress?.(bytesRead, totalBytes);
  };
}

/** The writer's snapshot hooks for `options.snapshots`, if asked for. */
function snapshotsOf(
  options: ConvertJobOptions,
  path: string,
  due: () => ConversionTrailer | undefined,
  bytesRead: () => number,
  totalBytes: () => number,
): BatchSnapshots | undefined {
  const asked = options.snapshots;
  if (asked === undefined) return undefined;
  return { due, taken: (s) => asked.onSnapshot({ ...s, path, bytesRead: bytesRead(), totalBytes: totalBytes() }) };
}

/** Runs `write` (the SLOG-2, atomically) with the row index builder when asked, then completes the index. */
async function withIndex(
  options: ConvertJobOptions,
  output: string,
  declaredLines: () => number | undefined,
  write: (indexer: ConversionIndex['builder'] | undefined) => Promise<ConversionWriteSummary>,
): Promise<{ written: ConversionWriteSummary; rowIndex?: DirectIndexResult }> {
  if (options.rowIndex === undefined) return { written: await write(undefined) };
  const index = await ConversionIndex.create(options.rowIndex, output, declaredLines);
  let written: ConversionWriteSummary;
  try {
    written = await write(index.builder);
  } catch (e) {
    await index.abort();
    throw e;
  }
  // The SLOG-2 is complete: a failure of its index costs the index only.
  const rowIndex = await index
    .complete(output)
    .catch((e: unknown) => ({ skipped: `the row index could not be written: ${e instanceof Error ? e.message : String(e)}` }));
  return { written, rowIndex };
}

function jobResult(
  input: string,
  output: string,
  format: ConvertibleFormat,
  inputBytes: number,
  written: ConversionWriteSummary,
  summary: ConversionSummary,
  rowIndex?: DirectIndexResult,
): ConvertJobResult {
  return {
    input,
    output,
    format,
    inputBytes,
    written,
    unmatchedEvents: summary.unmatched.reference,
    badTimes: summary.unmatched.badTimes,
    sourceLocations: summary.sourceLocations,
    warnings: summary.warnings,
    rowIndex,
    ...(summary.runEnd !== undefined ? { runEnd: summary.runEnd } : {}),
  };
}
