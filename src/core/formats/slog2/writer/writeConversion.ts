/**
 * CLOG2/CLOG conversion → SLOG-2. The converter's drawables (already in arrival order) are encoded
 * into DrawableBatches (`ConversionBatches`), and the batches are streamed into the one-pass writer
 * (`writeDrawableBatches`), which hands encoded nodes to the sink as they accumulate and finishes
 * with the converter's final categories, Y maps and source-location counts. The two halves also
 * run in two threads (src/worker/converter.ts): batches are what crosses between them.
 */
import type { ClogConversion, ConversionSummary } from '../../convert/result';
import type { PrimitiveParts, PrimitiveSink } from '../../convert/pendingPrimitives';
import type { DrawableBatch } from './drawableBatch';
import { DrawableBatchEncoder } from './drawableBatchEncoder';
import { Slog2Writer, type Slog2Trailer, type Slog2WriteSummary, type Slog2WriterOptions, type WrittenNode } from './slog2Writer';
import type { OutputSink } from './sink';
import { SnapshotError, type Slog2Snapshot } from './snapshot';
import type { ShadowSpill } from './shadowSpill';

/** Hears the nodes as they are written and writes its own output as the SLOG-2's drains (the row index). */
export interface NodeIndexer {
  node(n: WrittenNode): void;
  drain(): Promise<void>;
}

export interface WriteConversionOptions {
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
  readonly signal?: AbortSignal;
  readonly indexer?: NodeIndexer;
  /** Where big shadow buffers wait out of memory (Slog2WriterOptions.shadowSpill). */
  readonly shadowSpill?: ShadowSpill;
  /** Slog2WriterOptions.memory (tests). */
  readonly memory?: Slog2WriterOptions['memory'];
}

/** Queued output is handed to the sink once it exceeds this (bounds memory, amortises awaits). */
const DRAIN_BYTES = 2 << 20;

export interface ConversionWriteSummary extends Slog2WriteSummary {
  /**
   * Drawables the one-pass writer cannot place, dropped instead of failing the conversion: a NaN or
   * infinite time, or an end before one already written (records out of time order beyond the
   * converter's reorder window). Only damaged or badly out-of-order input has any (found by the fuzzer).
   */
  readonly droppedDrawables: number;
}

/**
 * A conversion's drawables as encoded batches; `dropped` counts what the writer could not place.
 * Conversions that can release their drawables into a sink go straight into the encoder.
 */
export class ConversionBatches implements AsyncIterable<DrawableBatch>, PrimitiveSink {
  readonly encoder: DrawableBatchEncoder;
  dropped = 0;

  constructor(
    private readonly conversion: ClogConversion,
    private readonly signal?: AbortSignal,
  ) {
    this.encoder = new DrawableBatchEncoder((c) => conversion.category(c)?.topology);
  }

  primitive(p: PrimitiveParts): void {
    // The encoder throws a RangeError on these (the writer's input contract); a damaged file must not fail.
    if (!this.encoder.acceptsSpan(p.earliest, p.latest)) this.dropped++;
    else this.encoder.addParts(p);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DrawableBatch> {
    const encoder = this.encoder;
    this.conversion.releaseInto?.(this);
    for await (const drawables of this.conversion.batches) {
      this.signal?.throwIfAborted();
      for (let i = 0; i < drawables.length; i++) {
        const d = drawables[i]!;
        // The encoder throws a RangeError on these (the writer's input contract); a damaged file must not fail.
        if (!encoder.acceptsTimes(d)) this.dropped++;
        else encoder.add(d);
      }
      for (let b = encoder.takeReady(); b !== undefined; b = encoder.takeReady()) yield b;
    }
    this.signal?.throwIfAborted();
    encoder.flush();
    for (let b = encoder.takeReady(); b !== undefined; b = encoder.takeReady()) yield b;
  }
}

/** Snapshots of the file while it is written (snapshot.ts), e.g. to show a conversion as it goes. */
export interface BatchSnapshots {
  /** Asked after each batch: the trailer of a snapshot wanted now (the categories used so far included), else undefined. */
  due(): Slog2Trailer | undefined;
  /** A snapshot, its written part flushed to the sink. */
  taken(snapshot: Slog2Snapshot): void;
}

export interface BatchWriteOptions extends WriteConversionOptions {
  readonly snapshots?: BatchSnapshots;
  /** Called with each batch once the writer is done with it (for reuse). */
  readonly recycle?: (batch: DrawableBatch) => void;
  /** What to write after the tree: read once the batches have ended. */
  readonly trailer: () => Slog2Trailer;
  /** What to call the input in the "no drawables" error. */
  readonly inputKind: () => string;
}

/** Writes a stream of encoded batches as one SLOG-2 file. */
export async function writeDrawableBatches(batches: AsyncIterable<DrawableBatch>, sink: OutputSink, options: BatchWriteOptions): Promise<Slog2WriteSummary> {
  const indexer = options.indexer;
  const writer = new Slog2Writer(sink, {
    childrenPerNode: options.childrenPerNode,
    leafBytes: options.leafBytes,
    onNode: indexer && ((n) => indexer.node(n)),
    shadowSpill: options.shadowSpill,
    memory: options.memory,
  });
  const signal = options.signal;
  for await (const batch of batches) {
    signal?.throwIfAborted();
    // Placed in steps when closing nodes queues many MB of blocks (a wide trace's high nodes): drained between.
    for (let at = writer.addBatchFrom(batch, 0); at < batch.count || writer.switchPaused; at = writer.addBatchFrom(batch, at)) await writer.drain();
    options.recycle?.(batch);
    const trailer = options.snapshots?.due();
    if (trailer !== undefined) await takeSnapshot(writer, trailer, options.snapshots!);
    if (writer.pendingBytes > DRAIN_BYTES) {
      await writer.drain();
      await indexer?.drain();
    }
  }
  signal?.throwIfAborted();
  if (writer.drawables === 0) throw new Error(`${options.inputKind()} input has no drawables: nothing to write (an SLOG-2 file needs at least one)`);
  const summary = await writer.finish(options.trailer());
  await indexer?.drain();
  return summary;
}

/**
 * A snapshot costs at most itself: one that cannot be made (a category the trailer lacks) is
 * skipped. Write errors of the sink fail the conversion, as they would a moment later.
 */
async function takeSnapshot(writer: Slog2Writer, trailer: Slog2Trailer, snapshots: BatchSnapshots): Promise<void> {
  let snapshot: Slog2Snapshot | undefined;
  try {
    snapshot = await writer.snapshot(trailer);
  } catch (e) {
    if (e instanceof SnapshotError) return;
    throw e;
  }
  if (snapshot !== undefined) snapshots.taken(snapshot);
}

/** Converts and writes in this thread. */
export async function writeConversion(
  conversion: ClogConversion,
  sink: OutputSink,
  options: WriteConversionOptions & { readonly snapshots?: BatchSnapshots } = {},
): Promise<ConversionWriteSummary> {
  const batches = new ConversionBatches(conversion, options.signal);
  const written = await writeDrawableBatches(batches, sink, {
    ...options,
    recycle: (b) => batches.encoder.recycle(b),
    trailer: () => conversionTrailer(conversion.summary),
    inputKind: () => conversion.summary.format.toUpperCase(),
  });
  return { ...written, droppedDrawables: batches.dropped };
}

/** The writer's trailer from a finished conversion's summary. */
export function conversionTrailer(summary: ConversionSummary): Slog2Trailer {
  return { categories: summary.categories, lineIDMaps: summary.lineIDMaps, sourceLocations: summary.sourceLocations };
}
