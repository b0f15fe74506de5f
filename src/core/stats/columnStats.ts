/**
 * Exact statistics of a range of a SLOG-2 file from the columnar stream (columnStream.ts): the
 * result of computeRangeStats over the object query, without an object per drawable (the object
 * path spent most of its time parsing into objects and collecting them). A file with drawables
 * outside their node's time bounds (it breaks SLOG2.md §9; the stream could miss them) is counted
 * through the object query instead.
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import { DrawableOutsideNode, primitiveBatchesInTimeOrder, type PrimitiveBatch } from '../formats/slog2/columnStream';
import { computeRangeStats, type StatsOptions } from './compute';
import { nodeBatches } from './nodeBatches';
import { RangeStatsAccumulator } from './rangeStats';
import type { RangeStats } from './types';

export interface FileStatsOptions extends StatsOptions {
  /** Re-yields each stream (a worker gives its event loop a turn between batches). */
  readonly wrap?: <T>(items: AsyncIterable<T>) => AsyncIterable<T>;
  /**
   * The same stream (withinNodes, withLastAndInfo) decoded elsewhere: a decoder thread
   * (src/convert/decodeThread.ts). It fails with DrawableOutsideNode as the stream here does.
   */
  readonly decoded?: (t0: number, t1: number) => AsyncIterable<PrimitiveBatch>;
}

export async function exactStatsOfFile(file: Slog2File, range: readonly [number, number], options: FileStatsOptions = {}): Promise<RangeStats> {
  const wrap = options.wrap ?? (<T>(x: AsyncIterable<T>) => x);
  const signal = options.signal;
  try {
    const stream =
      options.decoded !== undefined
        ? options.decoded(range[0], range[1])
        : primitiveBatchesInTimeOrder(file, range[0], range[1], {
            reuse: true,
            withinNodes: true,
            withLastAndInfo: true,
            ...(signal ? { signal } : {}),
          });
    return await statsOfColumns(file, wrap(stream), range, options);
  } catch (e) {
    if (!(e instanceof DrawableOutsideNode)) throw e;
    const query = file.query(range[0], range[1], { lowestDepth: 0, ...(signal ? { signal } : {}) });
    return await computeRangeStats(file, wrap(nodeBatches(query)), range, options);
  }
}

async function statsOfColumns(
  file: Slog2File,
  batches: AsyncIterable<PrimitiveBatch>,
  range: readonly [number, number],
  options: StatsOptions,
): Promise<RangeStats> {
  const acc = new RangeStatsAccumulator(file, range, 'exact');
  const width = range[1] - range[0];
  let count = 0;
  options.signal?.throwIfAborted();
  for await (const b of batches) {
    options.signal?.throwIfAborted();
    acc.addColumns(b);
    if (b.rows === 0) continue;
    // Batches come in drawing order: nothing later starts before this batch's last drawable.
    const watermark = b.drawableEarliest[b.rows - 1]!;
    acc.advance(watermark);
    count++;
    if (options.onProgress !== undefined) {
      const reached = Math.min(Math.max(watermark, range[0]), range[1]);
      const fraction = width > 0 ? (reached - range[0]) / width : undefined;
      options.onProgress({ drawables: acc.drawablesSeen, batches: count, ...(fraction !== undefined ? { fraction } : {}) });
    }
  }
  options.signal?.throwIfAborted();
  return acc.result();
}
