/**
 * CLOG2 / old CLOG behind the CLI's OpenedTrace: the file is converted to drawables in one
 * streaming pass. Category names and colours are final only after the pass (definitions sit at the
 * end of a CLOG2 file), so drawables are handed out once the pass is over, in drawing order like
 * the SLOG-2 path: a window of up to START_ORDER_CAP drawables is sorted in memory, a bigger one is
 * handed out slice by slice with further passes over the file (startOrder.ts), so `dump` of a
 * file of any size keeps memory bounded.
 */
import { FormatError } from '../core/bytes/formatError';
import type { ConversionSummary } from '../core/formats/convert/result';
import { convertClogFormat, traceInfoFromSummary } from '../core/info/clogInfo';
import type { Category, Drawable, Primitive } from '../core/model/types';
import { drawingOrderCompare } from '../core/formats/slog2/drawingOrder';
import type { TraceInput } from '../io/traceInput';
import { inStartOrder } from './startOrder';
import type { OpenedTrace } from './openTrace';

export function openClogTrace(input: TraceInput, reopen?: () => Promise<TraceInput>, startOrderCap?: number): OpenedTrace {
  const format = input.format;
  if (format !== 'clog2' && format !== 'clog') throw new FormatError(input.path, 0, 'not a CLOG2 or CLOG trace');
  let summary: ConversionSummary | undefined;
  let categories = new Map<number, Category>();
  const warnings: string[] = [];
  let consumed = false;

  /** The single pass over the file; keeps the drawables inside [t0, t1]. */
  async function run(t0: number, t1: number): Promise<Primitive[]> {
    if (consumed) throw new Error(`${input.path}: a CLOG trace can be read only once per open`);
    consumed = true;
    const conversion = convertClogFormat(format as 'clog2' | 'clog', input.chunks, { name: input.path });
    const kept: Primitive[] = [];
    for await (const batch of conversion.batches) {
      for (const d of batch) if (d.earliest <= t1 && t0 <= d.latest) kept.push(d);
    }
    summary = conversion.summary;
    categories = new Map(summary.categories.map((c) => [c.index, c]));
    for (const w of summary.warnings) warnings.push(w);
    return kept;
  }

  /** One conversion pass over `from`; the first one also records the summary (categories, warnings). */
  async function* passOver(from: TraceInput, record: boolean): AsyncGenerator<readonly Primitive[]> {
    if (record) {
      if (consumed) throw new Error(`${input.path}: a CLOG trace can be read only once per open`);
      consumed = true;
    }
    const conversion = convertClogFormat(format as 'clog2' | 'clog', from.chunks, { name: input.path });
    for await (const batch of conversion.batches) yield batch;
    if (record) {
      summary = conversion.summary;
      categories = new Map(summary.categories.map((c) => [c.index, c]));
      for (const w of summary.warnings) warnings.push(w);
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
    async info() {
      if (summary === undefined) await run(Infinity, -Infinity);
      return traceInfoFromSummary(summary!);
    },
    async *drawables(t0: number, t1: number): AsyncGenerator<Drawable> {
      if (reopen === undefined) {
        const kept = await run(t0, t1);
        kept.sort(drawingOrderCompare);
        yield* kept;
        return;
      }
      // The first pass reads this input (and sets the summary); later passes open the file again.
      let first = true;
      const pass = (): AsyncIterable<readonly Primitive[]> => {
        if (first) {
          first = false;
          return passOver(input, true);
        }
        return (async function* () {
          const again = await reopen();
          try {
            yield* passOver(again, false);
          } finally {
            await again.file.close();
          }
        })();
      };
      const ordered = inStartOrder(pass, t0, t1, startOrderCap);
      try {
        yield* ordered.drawables;
      } finally {
        for (const w of ordered.warnings) warnings.push(`${input.path}: ${w}`);
      }
    },
    close: () => input.file.close(),
  };
}
