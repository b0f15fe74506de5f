/** The analysis input of a SLOG-2 file: its drawables as the columnar stream (columnStream.ts). */
import type { Slog2File } from '../formats/slog2/slog2File';
import { primitiveBatchesInTimeOrder, type PrimitiveBatch } from '../formats/slog2/columnStream';
import type { AnalysisInput } from './analyze';

export interface Slog2InputOptions {
  readonly range?: readonly [number, number];
  readonly signal?: AbortSignal;
  /** Re-yields each stream (the worker gives its event loop a turn between batches). */
  readonly wrap?: <T>(items: AsyncIterable<T>) => AsyncIterable<T>;
  /**
   * The same unfiltered stream decoded elsewhere (a decoder thread: src/convert/decodeThread.ts),
   * used for the pass that reads every drawable; the filtered pass decodes here (it keeps few).
   */
  readonly decoded?: (t0: number, t1: number) => AsyncIterable<PrimitiveBatch>;
  /** Profiles a window of the critical path in that thread (decodeThread.ts: threadProfile). */
  readonly profileElsewhere?: AnalysisInput['profileElsewhere'];
  /** Where the first pass's spans go past memory (analyze.ts: AnalysisInput.spanSpill). */
  readonly spanSpill?: AnalysisInput['spanSpill'];
}

/** The end of the leaf where half of the leaf bytes of [t0, t1] have been read (each half decodes about as much), inside (t0, t1). */
export function slog2SplitTime(file: Slog2File, t0: number, t1: number): number {
  const leaves = file.nodesOverlapping(0, t0, t1);
  let total = 0;
  for (const leaf of leaves) total += leaf.size;
  let sum = 0;
  for (const leaf of leaves) {
    sum += leaf.size;
    if (2 * sum >= total) {
      // One leaf (or one that holds most of the bytes) ends at the range's end: the middle then.
      if (leaf.latest > t0 && leaf.latest < t1) return leaf.latest;
      break;
    }
  }
  return (t0 + t1) / 2;
}

export function slog2AnalysisInput(file: Slog2File, options: Slog2InputOptions = {}): AnalysisInput {
  const signal = options.signal;
  const wrap = options.wrap ?? (<T>(x: AsyncIterable<T>) => x);
  return {
    ...(options.profileElsewhere ? { profileElsewhere: options.profileElsewhere } : {}),
    ...(options.spanSpill ? { spanSpill: options.spanSpill } : {}),
    splitTime: (t0, t1) => slog2SplitTime(file, t0, t1),
    categories: file.categories,
    lineIDMaps: file.lineIDMaps,
    range: options.range ?? file.timeRange,
    batches: (t0, t1) => wrap(file.drawableBatchesInTimeOrder(t0, t1, signal ? { signal } : {})),
    // The analysis is done with a batch before it asks for the next: its columns and its nodes'
    // buffers are reused.
    primitiveBatches: (t0, t1, keep) =>
      wrap(
        keep === undefined && options.decoded !== undefined
          ? options.decoded(t0, t1)
          : primitiveBatchesInTimeOrder(file, t0, t1, { reuse: true, recycleNodes: true, ...(signal ? { signal } : {}), ...(keep ? { keep } : {}) }),
      ),
  };
}
