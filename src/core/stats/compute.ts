/**
 * Driving the accumulator: computeRangeStats consumes batches (with cancellation and progress), and
 * batchesOf groups a plain drawable stream into batches (with watermarks when it is time-ordered).
 */
import type { Drawable } from '../model/types';
import { RangeStatsAccumulator, type StatsBatch, type StatsMeta } from './rangeStats';
import type { RangeStats, StatsProgress } from './types';

export interface StatsOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: StatsProgress) => void;
}

/**
 * Runs the accumulator over batches, checking the signal between batches (throws its reason when
 * aborted) and reporting progress after each.
 */
export async function computeRangeStats(
  meta: StatsMeta,
  batches: AsyncIterable<StatsBatch> | Iterable<StatsBatch>,
  range: readonly [number, number],
  options: StatsOptions & { readonly approximate?: boolean } = {},
): Promise<RangeStats> {
  const acc = new RangeStatsAccumulator(meta, range, options.approximate === true ? 'approximate' : 'exact');
  const width = range[1] - range[0];
  let count = 0;
  let reached = range[0];
  options.signal?.throwIfAborted();
  for await (const batch of batches) {
    options.signal?.throwIfAborted();
    for (const d of batch.drawables) acc.addDrawable(d);
    if (batch.shadows !== undefined) for (const s of batch.shadows) acc.addShadow(s);
    if (batch.watermark !== undefined) acc.advance(batch.watermark);
    count++;
    if (options.onProgress !== undefined) {
      if (batch.latest !== undefined && batch.latest > reached) reached = Math.min(batch.latest, range[1]);
      const fraction = width > 0 && reached > range[0] ? (reached - range[0]) / width : undefined;
      options.onProgress({ drawables: acc.drawablesSeen, batches: count, ...(fraction !== undefined ? { fraction } : {}) });
    }
  }
  options.signal?.throwIfAborted();
  return acc.result();
}

/**
 * Groups a stream of single drawables into batches. With `ordered` (drawables come in
 * non-decreasing earliest time, e.g. a converter's or a serial reader's output), each batch
 * carries a watermark so nested states are settled as the stream goes.
 */
export async function* batchesOf(
  drawables: AsyncIterable<Drawable> | Iterable<Drawable>,
  options: { readonly size?: number; readonly ordered?: boolean } = {},
): AsyncGenerator<StatsBatch> {
  const size = Math.max(1, options.size ?? 4096);
  let batch: Drawable[] = [];
  for await (const d of drawables) {
    batch.push(d);
    if (batch.length >= size) {
      const last = batch[batch.length - 1]!;
      yield options.ordered === true ? { drawables: batch, watermark: last.earliest, latest: last.earliest } : { drawables: batch };
      batch = [];
    }
  }
  if (batch.length > 0) yield { drawables: batch };
}
