/**
 * `mpe-trace info` for CLOG2 / old CLOG inputs: the TraceInfo of the drawables the conversion
 * makes (so it equals the facts of the reference-converted `.slog2`), plus the unmatched-event
 * count and the SRCLOC statistics.
 */
import type { ByteChunks } from '../bytes/byteSource';
import { convertAlog } from '../formats/alog/convertAlog';
import { detectClogFormat } from '../formats/clog/detect';
import { convertClog } from '../formats/clog/convertClog';
import { convertClog2 } from '../formats/clog2/convertClog2';
import type { ClogConversion, ConversionSummary, ConvertOptions } from '../formats/convert/result';
import { formatFromLayout } from '../model/infoFormat';
import type { TraceInfo } from './traceInfo';

export { detectClogFormat };

/** The formats converted from a chunk stream (SLOG-1 needs positional reads: formats/slog1). */
export type StreamFormat = 'clog2' | 'clog' | 'alog';

/** Starts the conversion of the given CLOG family (or ALOG) format. */
export function convertClogFormat(format: StreamFormat, chunks: ByteChunks, options: ConvertOptions): ClogConversion {
  if (format === 'alog') return convertAlog(chunks, options);
  return format === 'clog2' ? convertClog2(chunks, options) : convertClog(chunks, options);
}

/** Builds the TraceInfo from a finished conversion's summary. */
export function traceInfoFromSummary(s: ConversionSummary): TraceInfo {
  return {
    format: s.format,
    version: s.version,
    timeRange: s.timeRange ?? [0, 0],
    lineIDs: s.lineIDs.length,
    drawables: { total: s.drawables.total, state: s.drawables.state, arrow: s.drawables.arrow, event: s.drawables.event, composite: 0 },
    categories: s.categories.map((c) => ({
      index: c.index,
      name: c.name,
      kind: c.topology,
      rgba: c.rgba,
      infoFormat: formatFromLayout(c.infoKeys, c.infoTypes) ?? null,
      drawables: s.categoryCounts.get(c.index) ?? 0,
    })),
    sourceLocations: s.sourceLocations,
    unmatchedEvents: s.unmatched.reference,
    dropped: { badTimes: s.unmatched.badTimes, records: s.unmatched.droppedRecords, finals: s.unmatched.droppedFinals },
    ...(s.alog !== undefined ? { alog: s.alog } : {}),
    ...(s.slog1 !== undefined ? { slog1: s.slog1 } : {}),
  };
}

/** Reads a whole CLOG2 / old CLOG stream and returns its TraceInfo (drawables are discarded). */
export async function clogTraceInfo(
  format: StreamFormat,
  chunks: ByteChunks,
  options: ConvertOptions,
): Promise<{ info: TraceInfo; summary: ConversionSummary }> {
  const conversion = convertClogFormat(format, chunks, options);
  for await (const batch of conversion.batches) void batch;
  const summary = conversion.summary;
  return { info: traceInfoFromSummary(summary), summary };
}
