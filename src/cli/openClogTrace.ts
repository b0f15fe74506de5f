/**
 * CLOG2 / old CLOG / ALOG (and SLOG-1 through `conversionTrace`) behind the CLI's OpenedTrace: the
 * file is converted to drawables in one streaming pass. Category names and colours are final only
 * after the pass (definitions sit at the end of a CLOG2 file), so drawables are handed out once the
 * pass is over, in drawing order like the SLOG-2 path: a window of up to START_ORDER_CAP drawables
 * is sorted in memory, a bigger one is handed out slice by slice with further passes over the file
 * (startOrder.ts), so `dump` of a file of any size keeps memory bounded (issue 14).
 */
import { FormatError } from '../core/bytes/formatError';
import type { ClogConversion, ConversionSummary, ConvertibleFormat } from '../core/formats/convert/result';
import { convertClogFormat, traceInfoFromSummary } from '../core/info/clogInfo';
import type { Category, Drawable, Primitive } from '../core/model/types';
import { openTraceInput, type TraceInput } from '../io/traceInput';
import type { OpenedTrace } from './openTrace';
import { inStartOrder, type StartOrderResult } from './startOrder';

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

  /** [t0, t1] in drawing order with bounded memory; the first pass sets the summary. */
  function ordered(t0: number, t1: number): StartOrderResult {
    let first = true;
    const pass = (): AsyncIterable<readonly Primitive[]> =>
      (async function* () {
        const conversion = await start();
        for await (const batch of conversion.batches) yield batch;
        if (first) {
          first = false;
          summary = conversion.summary;
          categories = new Map(summary.categories.map((c) => [c.index, c]));
          warnings = [...summary.warnings];
        }
      })();
    return inStartOrder(pass, t0, t1);
  }

  async function* orderedDrawables(t0: number, t1: number): AsyncGenerator<Primitive> {
    const o = ordered(t0, t1);
    try {
      yield* o.drawables;
    } finally {
      for (const w of o.warnings) warnings.push(w);
    }
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
    drawables: (t0: number, t1: number): AsyncGenerator<Drawable> => orderedDrawables(t0, t1),
    async *drawableBatches(t0: number, t1: number): AsyncGenerator<readonly Drawable[]> {
      let batch: Drawable[] = [];
      for await (const d of orderedDrawables(t0, t1)) {
        batch.push(d);
        if (batch.length === 4096) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    close,
  };
}
