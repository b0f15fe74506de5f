/**
 * CLOG2/CLOG conversion → SLOG-2: streams the converter's drawable batches (already in arrival
 * order) into the one-pass writer, handing encoded nodes to the sink as they accumulate, and
 * finishes with the converter's final categories, Y maps and source-location counts.
 */
import type { ClogConversion } from '../../convert/result';
import { Slog2Writer, type Slog2WriteSummary } from './slog2Writer';
import type { OutputSink } from './sink';

export interface WriteConversionOptions {
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
  readonly signal?: AbortSignal;
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

export async function writeConversion(conversion: ClogConversion, sink: OutputSink, options: WriteConversionOptions = {}): Promise<ConversionWriteSummary> {
  const writer = new Slog2Writer(sink, {
    childrenPerNode: options.childrenPerNode,
    leafBytes: options.leafBytes,
    topologyOf: (c) => conversion.category(c)?.topology,
  });
  const signal = options.signal;
  let lastLatest = -Infinity;
  let dropped = 0;
  for await (const batch of conversion.batches) {
    signal?.throwIfAborted();
    for (let i = 0; i < batch.length; i++) {
      const d = batch[i]!;
      // The writer throws a RangeError on these (its input contract); a damaged file must not crash.
      if (!(d.earliest <= d.latest) || !Number.isFinite(d.earliest) || !Number.isFinite(d.latest) || d.latest < lastLatest) {
        dropped++;
        continue;
      }
      lastLatest = d.latest;
      writer.add(d);
    }
    if (writer.pendingBytes > DRAIN_BYTES) await writer.drain();
  }
  signal?.throwIfAborted();
  const summary = conversion.summary;
  if (writer.drawables === 0) throw new Error(`${summary.format.toUpperCase()} input has no drawables: nothing to write (an SLOG-2 file needs at least one)`);
  const written = await writer.finish({ categories: summary.categories, lineIDMaps: summary.lineIDMaps, sourceLocations: summary.sourceLocations });
  return { ...written, droppedDrawables: dropped };
}
