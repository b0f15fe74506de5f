/**
 * CLOG2 / old CLOG / ALOG (and SLOG-1 through `conversionTrace`) behind the CLI's OpenedTrace: the file is converted to drawables in one
 * streaming pass (memory = open drawables + the requested window). Category names and colours
 * are final only after the pass (definitions sit at the end of a CLOG2 file), so drawables are
 * handed out once the pass is over, sorted in drawing order like the SLOG-2 path.
 */
import { FormatError } from '../core/bytes/formatError';
import type { ClogConversion, ConversionSummary, ConvertibleFormat } from '../core/formats/convert/result';
import { convertClogFormat, traceInfoFromSummary } from '../core/info/clogInfo';
import type { Category, Drawable, Primitive } from '../core/model/types';
import { drawingOrderCompare } from '../core/formats/slog2/drawingOrder';
import { openTraceInput, type TraceInput } from '../io/traceInput';
import type { OpenedTrace } from './openTrace';

export function openClogTrace(input: TraceInput): OpenedTrace {
  const format = input.format;
  if (format !== 'clog2' && format !== 'clog' && format !== 'alog') throw new FormatError(input.path, 0, 'not a CLOG2, CLOG or ALOG trace');
  // The chunk stream is single use: a second pass (stats asks for info, then drawables) reopens the file.
  const inputs: TraceInput[] = [input];
  let started = false;
  const start = async (): Promise<ClogConversion> => {
    const next = inputs.length === 1 && !started ? input : await openTraceInput(input.path);
    if (next !== input) inputs.push(next);
    started = true;
    return convertClogFormat(format, next.chunks, { name: input.path });
  };
  return conversionTrace(format, start, async () => {
    for (const i of inputs) await i.file.close();
  });
}

/** An OpenedTrace over a conversion that `start` begins afresh for each pass; `close` releases the input. */
export function conversionTrace(format: ConvertibleFormat, start: () => Promise<ClogConversion>, close: () => Promise<void>): OpenedTrace {
  let summary: ConversionSummary | undefined;
  let categories = new Map<number, Category>();
  let warnings: string[] = [];

  /** One pass over the file; keeps the drawables inside [t0, t1]. */
  async function run(t0: number, t1: number): Promise<Primitive[]> {
    const conversion = await start();
    const kept: Primitive[] = [];
    for await (const batch of conversion.batches) {
      for (const d of batch) if (d.earliest <= t1 && t0 <= d.latest) kept.push(d);
    }
    summary = conversion.summary;
    categories = new Map(summary.categories.map((c) => [c.index, c]));
    warnings = [...summary.warnings];
    return kept;
  }

  return {
    format,
    get categories() {
      return categories;
    },
    get warnings() {
      return warnings;
    },
    get lineIDMaps() {
      return summary?.lineIDMaps ?? [];
    },
    get conversion() {
      return summary;
    },
    async info() {
      if (summary === undefined) await run(Infinity, -Infinity);
      return traceInfoFromSummary(summary!);
    },
    async *drawables(t0: number, t1: number): AsyncGenerator<Drawable> {
      const kept = await run(t0, t1);
      kept.sort(drawingOrderCompare);
      yield* kept;
    },
    async *drawableBatches(t0: number, t1: number): AsyncGenerator<readonly Drawable[]> {
      const kept = await run(t0, t1);
      kept.sort(drawingOrderCompare);
      for (let i = 0; i < kept.length; i += 4096) yield kept.slice(i, i + 4096);
    },
    close,
  };
}
