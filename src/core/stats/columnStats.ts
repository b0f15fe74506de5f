/**
 * Exact statistics of a range of a SLOG-2 file from the columnar stream (columnStream.ts): the
 * result of computeRangeStats over the object query, without an object per drawable (the object
 * path spent most of its time parsing into objects and collecting them). A file with drawables
 * outside their node's time bounds (it breaks SLOG2.md §9; the stream could miss them) is counted
 * through the object query instead.
 *
 * A big range is counted in two halves at once (`elsewhere`): the later half in another thread,
 * which decodes and counts its drawables itself (statsPartOfFile), the earlier one here; the
 * later half's sums are then added in. Each primitive is counted by the half its start is in;
 * the later half also sees the earlier half's states that reach into it, so its states nest as in
 * one pass (rangeStats.ts Ownership). Only the order of the floating-point sums differs.
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import { DrawableOutsideNode, leavesInTimeOrder, type PrimitiveBatch } from '../formats/slog2/columnStream';
import type { OrderedLeaf } from '../formats/slog2/leafRows';
import { computeRangeStats, type StatsOptions } from './compute';
import { nodeBatches } from './nodeBatches';
import { RangeStatsAccumulator, type Ownership } from './rangeStats';
import type { StatsPart } from './statsPart';
import type { RangeStats } from './types';

/** The later half of a range, counted elsewhere: where it starts, its sums once counted, and a way to stop it. */
export interface ElsewhereHalf {
  readonly from: number;
  readonly part: Promise<StatsPart>;
  readonly cancel: () => void;
}

export interface FileStatsOptions extends StatsOptions {
  /** Re-yields each stream (a worker gives its event loop a turn between batches). */
  readonly wrap?: <T>(items: AsyncIterable<T>) => AsyncIterable<T>;
  /**
   * The same stream (withinNodes, withLastAndInfo) decoded elsewhere: a decoder thread
   * (src/convert/decodeThread.ts), or undefined to read here (a small range). It fails with
   * DrawableOutsideNode as the stream here does.
   */
  readonly decoded?: (t0: number, t1: number) => AsyncIterable<PrimitiveBatch> | undefined;
  /**
   * Starts counting a later part of `range` elsewhere (decodeThread.ts: threadStats), or declines
   * (a small range). Its part fails with DrawableOutsideNode as the stream here does.
   */
  readonly elsewhere?: (range: readonly [number, number]) => ElsewhereHalf | undefined;
}

export async function exactStatsOfFile(file: Slog2File, range: readonly [number, number], options: FileStatsOptions = {}): Promise<RangeStats> {
  const wrap = options.wrap ?? (<T>(x: AsyncIterable<T>) => x);
  const signal = options.signal;
  const half = options.elsewhere?.(range);
  // A failure here must not leave the other half's rejection unobserved, nor its thread running.
  half?.part.catch(() => undefined);
  try {
    if (half !== undefined) {
      const acc = await countColumns(file, wrap(stream(file, range[0], half.from, signal)), range, options, { before: half.from });
      acc.absorb(await half.part);
      return acc.result();
    }
    const batches: AsyncIterable<PrimitiveBatch | OrderedLeaf> = options.decoded?.(range[0], range[1]) ?? stream(file, range[0], range[1], signal);
    return (await countColumns(file, wrap(batches), range, options)).result();
  } catch (e) {
    if (!(e instanceof DrawableOutsideNode)) throw e;
    const query = file.query(range[0], range[1], { lowestDepth: 0, ...(signal ? { signal } : {}) });
    return await computeRangeStats(file, wrap(nodeBatches(query)), range, options);
  } finally {
    half?.cancel();
  }
}

/**
 * The sums of the primitives of `range` starting at or after `from` (and the nesting of their
 * states in the earlier ones reaching past `from`): the later half of exactStatsOfFile, counted
 * in the thread that reads it.
 */
export async function statsPartOfFile(file: Slog2File, range: readonly [number, number], from: number, signal?: AbortSignal): Promise<StatsPart> {
  const acc = await countColumns(file, stream(file, from, range[1], signal), range, signal ? { signal } : {}, { from });
  return acc.part();
}

/** The range's leaves in drawing order, counted where they were decoded (no copy of their rows). */
function stream(file: Slog2File, t0: number, t1: number, signal: AbortSignal | undefined): AsyncIterable<OrderedLeaf> {
  return leavesInTimeOrder(file, t0, t1, {
    recycleNodes: true,
    withinNodes: true,
    withLastAndInfo: true,
    ...(signal ? { signal } : {}),
  });
}

async function countColumns(
  file: Slog2File,
  batches: AsyncIterable<PrimitiveBatch | OrderedLeaf>,
  range: readonly [number, number],
  options: StatsOptions,
  owns: Ownership = {},
): Promise<RangeStatsAccumulator> {
  const acc = new RangeStatsAccumulator(file, range, 'exact', owns);
  const start = Math.max(range[0], owns.from ?? -Infinity);
  const end = Math.min(range[1], owns.before ?? Infinity);
  let count = 0;
  options.signal?.throwIfAborted();
  for await (const b of batches) {
    options.signal?.throwIfAborted();
    if (b.rows === 0) continue;
    const leaf = 'nodeOf' in b;
    if (leaf) acc.addLeaf(b);
    else acc.addColumns(b);
    // Batches come in drawing order: nothing later starts before this batch's last drawable.
    const watermark = leaf ? b.lastEarliest() : b.drawableEarliest[b.rows - 1]!;
    acc.advance(watermark);
    count++;
    if (options.onProgress !== undefined) {
      const reached = Math.min(Math.max(watermark, start), end);
      const fraction = end > start ? (reached - start) / (end - start) : undefined;
      options.onProgress({ drawables: acc.drawablesSeen, batches: count, ...(fraction !== undefined ? { fraction } : {}) });
    }
  }
  options.signal?.throwIfAborted();
  return acc;
}
