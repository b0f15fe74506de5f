/**
 * The public shape of a CLOG2 / old CLOG conversion: a single-use stream of drawables in SLOG-2
 * arrival order, and a summary (final categories, Y-axis maps, counts) available once the stream
 * has been read to the end — definitions at the end of the input decide names and colours.
 */
import type { Clog2Preamble } from '../clog2/preamble';
import type { CommTableEntry } from '../clog2/records';
import type { Category, LineIDMap, Primitive } from '../../model/types';
import type { PrimitiveSink } from './pendingPrimitives';
import type { AlogFacts } from '../alog/convertAlog';
import type { Slog1Facts } from '../slog1/facts';

/** The formats read by conversion to drawables (the editor shows them through a cached SLOG-2). */
export type ConvertibleFormat = 'clog2' | 'clog' | 'alog' | 'slog1';

export interface ConvertOptions {
  /** File name for messages. */
  readonly name: string;
  readonly signal?: AbortSignal;
  /** Called after each input chunk with the number of input bytes consumed so far. */
  readonly onProgress?: (bytesRead: number) => void;
  /** Reproduce the reference's `msg_size=0` for receive-before-send arrows (tests). */
  readonly referenceQuirks?: boolean;
}

export interface UnmatchedSummary {
  /** The reference converter's `Number of Unmatched Events` (CLOG2.md §11.10). */
  readonly reference: number;
  /** States left open at the end, per category (our detailed count). */
  readonly openStates: readonly { readonly category: number; readonly name: string; readonly count: number }[];
  readonly sends: number;
  readonly receives: number;
  /** Final events with no open state (dropped). */
  readonly droppedFinals: number;
  /** Event records dropped because their etype's role does not fit the record kind (§11.6). */
  readonly droppedRecords: number;
  /** Event records dropped because their time is NaN or infinite. */
  readonly badTimes: number;
}

export interface ConversionSummary {
  readonly format: ConvertibleFormat;
  /** "CLOG-02.44", "CLOG", "ALOG" or "SLOG 0.7". */
  readonly version: string;
  /** Used categories (at least one drawable), by index, with their final names and colours. */
  readonly categories: readonly Category[];
  /** Drawables per category index (used categories only). */
  readonly categoryCounts: ReadonlyMap<number, number>;
  /** Process / Communicator (-Thread) views of the used lines, then the identity map. */
  readonly lineIDMaps: readonly LineIDMap[];
  /** Distinct lineIDs used by drawable vertices, ascending. */
  readonly lineIDs: readonly number[];
  /** Drawable time range (min earliest, max latest); undefined when there are no drawables. */
  readonly timeRange: readonly [number, number] | undefined;
  readonly drawables: { readonly total: number; readonly state: number; readonly arrow: number; readonly event: number };
  readonly unmatched: UnmatchedSummary;
  /** SRCLOC records read and distinct (file, line) sites among them. */
  readonly sourceLocations: { readonly records: number; readonly sites: number };
  /** Records parsed, by record-type name. */
  readonly records: Readonly<Record<string, number>>;
  readonly truncated: boolean;
  /** Drawables released before a drawable with an earlier end time (only if records were out of time order). */
  readonly outOfOrder: number;
  readonly warnings: readonly string[];
  /** A conversion of a CLOG2's first bytes only: the time of the file's last event record (the run's end). */
  readonly runEnd?: number;
  /** CLOG2 only: the preamble and the communicator table (undefined if missing or damaged). */
  readonly clog2?: { readonly preamble: Clog2Preamble; readonly commTable: readonly CommTableEntry[] | undefined };
  /** ALOG only: header values and event-line facts. */
  readonly alog?: AlogFacts;
  /** SLOG-1 only: header, tables, frame directory and the preview statistics. */
  readonly slog1?: Slog1Facts;
}

export interface ClogConversion {
  /** The drawables, in non-decreasing latest time (ties: decreasing earliest). Single use. */
  readonly drawables: AsyncIterable<Primitive>;
  /** The same stream in batches (cheaper per drawable). Single use; use either this or `drawables`. */
  readonly batches: AsyncIterable<readonly Primitive[]>;
  /**
   * Before reading: the drawables go to `sink` as they are released instead of into the batches,
   * which then come empty, one per slice of input (the reader's turn to take what the sink made).
   * No drawable objects are made. Conversions that cannot do this leave it out.
   */
  releaseInto?(sink: PrimitiveSink): void;
  /** Live category objects by index (names/colours final only when `finished`). */
  category(index: number): Category | undefined;
  readonly finished: boolean;
  /** Available once the stream has been read to the end; throws before. */
  readonly summary: ConversionSummary;
  /**
   * Line IDs the input declares before its first record (CLOG2: world size × threads, line ID =
   * rank × threads + thread on the world communicator), once the header has been read; old CLOG,
   * which declares none: n while the ranks drawn so far are exactly 0…n−1; otherwise undefined.
   * The converter's row index is keyed by them (index/direct.ts checks them at the end).
   */
  declaredLines?(): number | undefined;
  /**
   * What a snapshot of the SLOG-2 being written needs after its tree (slog2/writer/snapshot.ts):
   * the categories and Y maps as they would be if the input ended here, every category used so
   * far included. Formats that cannot tell yet (definitions to come) leave it out.
   */
  trailerSoFar?(): ConversionTrailer | undefined;
}

/** The categories and Y-axis maps of a conversion, so far or final. */
export interface ConversionTrailer {
  readonly categories: readonly Category[];
  readonly lineIDMaps: readonly LineIDMap[];
}

/** Turns a batch generator into the ClogConversion object. */
export function makeConversion(
  run: () => AsyncGenerator<readonly Primitive[]>,
  getSummary: () => ConversionSummary | undefined,
  category: (index: number) => Category | undefined,
  declaredLines?: () => number | undefined,
  trailerSoFar?: () => ConversionTrailer | undefined,
  releaseInto?: (sink: PrimitiveSink) => void,
): ClogConversion {
  let started = false;
  const start = (): AsyncGenerator<readonly Primitive[]> => {
    if (started) throw new Error('a conversion stream can be read only once');
    started = true;
    return run();
  };
  return {
    batches: { [Symbol.asyncIterator]: () => start() },
    drawables: {
      [Symbol.asyncIterator]: () =>
        (async function* () {
          for await (const batch of start()) yield* batch;
        })(),
    },
    category,
    declaredLines,
    trailerSoFar,
    releaseInto:
      releaseInto &&
      ((sink) => {
        if (started) throw new Error('a conversion must be released into a sink before it is read');
        releaseInto(sink);
      }),
    get finished() {
      return getSummary() !== undefined;
    },
    get summary() {
      const s = getSummary();
      if (s === undefined) throw new Error('the conversion summary is available only after the drawable stream has been read to the end');
      return s;
    },
  };
}

/** What streamConversion drives: a push parser that feeds a converter's drawable builder. */
export interface PushParser {
  push(bytes: Uint8Array): void;
  end(): void;
  /** Input bytes received so far (for progress). */
  readonly received: number;
  /** True once the parser needs no more input (end of log reached): the rest is not read. */
  readonly done?: boolean;
}

/**
 * The first slice pushed, doubled slice by slice up to StreamSteps.sliceBytes. A parser's record
 * loop runs long in its first call, and V8 made its optimised code from the feedback of that call
 * alone: the statements before the loop and the exit at a slice's end had none, and the code was
 * thrown away and compiled again (CLOG2, 16 ranks: 3 compilations of the record loop, now 2).
 */
const FIRST_SLICE_BYTES = 4096;

export interface StreamSteps {
  readonly parser: PushParser;
  /** Bytes pushed at a time, so batches stay small and cancellation is checked often. */
  readonly sliceBytes: number;
  /** Drawables completed since the last call (empty when none). */
  take(): readonly Primitive[];
  /** See ClogConversion.releaseInto. */
  releaseInto?(sink: PrimitiveSink): void;
  /** After the last byte: the final summary; then the builder releases what it still holds. */
  finish(): ConversionSummary;
  category(index: number): Category | undefined;
  /** See ClogConversion.declaredLines. */
  declaredLines?(): number | undefined;
  /** See ClogConversion.trailerSoFar. */
  trailerSoFar?(): ConversionTrailer | undefined;
}

/**
 * The streaming loop shared by the CLOG2 and old CLOG conversions: push the input slice by
 * slice (checking the signal), hand out completed drawables in batches, report progress per
 * chunk, and at the end compute the summary and flush the last drawables.
 */
export function streamConversion(chunks: AsyncIterable<Uint8Array>, options: ConvertOptions, steps: StreamSteps): ClogConversion {
  let summary: ConversionSummary | undefined;
  /** Released into a sink: yield after every slice, drawables or not, so the reader takes what the sink made. */
  let direct = false;
  async function* run(): AsyncGenerator<readonly Primitive[]> {
    const { parser } = steps;
    // The first slices are small, growing to sliceBytes: see FIRST_SLICE_BYTES.
    let sliceBytes = Math.min(FIRST_SLICE_BYTES, steps.sliceBytes);
    reading: for await (const chunk of chunks) {
      for (let off = 0; off < chunk.length; off += sliceBytes) {
        options.signal?.throwIfAborted();
        if (off > 0 && sliceBytes < steps.sliceBytes) sliceBytes = Math.min(2 * sliceBytes, steps.sliceBytes);
        parser.push(off === 0 && chunk.length <= sliceBytes ? chunk : chunk.subarray(off, off + sliceBytes));
        const out = steps.take();
        if (out.length > 0 || direct) yield out;
        if (parser.done === true) {
          options.onProgress?.(parser.received);
          break reading;
        }
      }
      options.onProgress?.(parser.received);
    }
    parser.end();
    summary = steps.finish();
    const out = steps.take();
    if (out.length > 0 || direct) yield out;
  }
  return makeConversion(
    run,
    () => summary,
    (i) => steps.category(i),
    steps.declaredLines && (() => steps.declaredLines?.()),
    // Once the input has ended, the final categories and maps are the trailer.
    steps.trailerSoFar && (() => (summary === undefined ? steps.trailerSoFar?.() : { categories: summary.categories, lineIDMaps: summary.lineIDMaps })),
    steps.releaseInto &&
      ((sink) => {
        direct = true;
        steps.releaseInto?.(sink);
      }),
  );
}

/** Reads a whole conversion into memory (small files, tests). */
export async function collectConversion(c: ClogConversion): Promise<{ drawables: Primitive[]; summary: ConversionSummary }> {
  const drawables: Primitive[] = [];
  for await (const batch of c.batches) for (const p of batch) drawables.push(p);
  return { drawables, summary: c.summary };
}
