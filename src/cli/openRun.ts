/**
 * Opens a trace of any format the CLI reads as a run to profile (diff, analysis): its drawables
 * in start-time order plus the categories and timeline maps, asked for once drawables flow (a
 * CLOG2 stream knows its category names only after its definitions).
 */
import { looksLikeSlog2 } from '../core/formats/slog2/header';
import { Slog2File } from '../core/formats/slog2/slog2File';
import type { RunMeta } from '../core/compare/profile';
import type { Drawable } from '../core/model/types';
import { openByteSource, openTrace } from './openTrace';

export interface OpenedRun {
  readonly path: string;
  meta(): RunMeta;
  /** The whole trace's time range when known before reading (SLOG-2); undefined for streams. */
  readonly timeRange: readonly [number, number] | undefined;
  drawables(t0: number, t1: number): AsyncIterable<Drawable>;
  readonly warnings: readonly string[];
  close(): Promise<void>;
}

export async function openRun(path: string): Promise<OpenedRun> {
  const source = await openByteSource(path);
  const head = await source.read(0, Math.min(64, source.size)).catch(async (e: unknown) => {
    await source.close();
    throw e;
  });
  if (looksLikeSlog2(head)) {
    let file: Slog2File;
    try {
      file = await Slog2File.open(source);
    } catch (e) {
      await source.close();
      throw e;
    }
    return {
      path,
      meta: () => ({ categories: file.categories, lineIDMaps: file.lineIDMaps }),
      timeRange: file.timeRange,
      drawables: (t0, t1) => file.drawablesInTimeOrder(t0, t1),
      warnings: file.warnings,
      close: () => file.close(),
    };
  }
  await source.close();
  const trace = await openTrace(path);
  return {
    path,
    meta: () => ({
      categories: trace.categories,
      lineIDMaps: trace.lineIDMaps,
    }),
    timeRange: undefined,
    drawables: (t0, t1) => trace.drawables(t0, t1),
    get warnings() {
      return trace.warnings;
    },
    close: () => trace.close(),
  };
}
