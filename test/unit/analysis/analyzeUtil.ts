/** Runs the analysis core on CLOG2 bytes and on SLOG-2 files (test helpers). */
import { analyzeTrace, type AnalysisResult } from '../../../src/core/analysis';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { drawingOrderCompare } from '../../../src/core/formats/slog2/drawingOrder';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import type { Drawable } from '../../../src/core/model/types';
import { bytesChunks } from '../clog2/clogTestUtil';

export async function analyzeClog2(bytes: Uint8Array, range?: readonly [number, number]): Promise<AnalysisResult> {
  const { drawables, summary } = await collectConversion(convertClog2(bytesChunks(bytes), { name: 'hand.clog2' }));
  const sorted: Drawable[] = [...drawables].sort(drawingOrderCompare);
  const u = summary.unmatched;
  return analyzeTrace(
    {
      categories: new Map(summary.categories.map((c) => [c.index, c])),
      lineIDMaps: summary.lineIDMaps,
      range: range ?? summary.timeRange ?? [0, 0],
      conversion: {
        unmatchedSends: u.sends,
        unmatchedReceives: u.receives,
        openStates: u.openStates.reduce((a, o) => a + o.count, 0),
        truncated: summary.truncated,
        droppedRecords: u.droppedRecords + u.droppedFinals,
        outOfOrder: summary.outOfOrder,
      },
      async *batches(t0, t1) {
        yield sorted.filter((d) => d.earliest <= t1 && t0 <= d.latest);
      },
    },
    { maxInstances: 1e6 },
  );
}

export async function analyzeSlog2(bytes: Uint8Array, name: string): Promise<AnalysisResult> {
  const f = await Slog2File.open(new MemorySource(name, bytes));
  try {
    return await analyzeTrace(
      { categories: f.categories, lineIDMaps: f.lineIDMaps, range: f.timeRange, batches: (t0, t1) => f.drawableBatchesInTimeOrder(t0, t1) },
      { maxInstances: 1e6 },
    );
  } finally {
    await f.close();
  }
}
