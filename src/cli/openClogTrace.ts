/**
 * CLOG2 / old CLOG behind the CLI's OpenedTrace: the file is converted to drawables in one
 * streaming pass (memory = open drawables + the requested window). Category names and colours
 * are final only after the pass (definitions sit at the end of a CLOG2 file), so drawables are
 * handed out once the pass is over, sorted in drawing order like the SLOG-2 path.
 */
import { FormatError } from '../core/bytes/formatError';
import type { ConversionSummary } from '../core/formats/convert/result';
import { convertClogFormat, traceInfoFromSummary } from '../core/info/clogInfo';
import type { Category, Drawable, Primitive } from '../core/model/types';
import { drawingOrderCompare } from '../core/formats/slog2/drawingOrder';
import type { TraceInput } from '../io/traceInput';
import type { OpenedTrace } from './openTrace';

export function openClogTrace(input: TraceInput): OpenedTrace {
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
      const kept = await run(t0, t1);
      kept.sort(drawingOrderCompare);
      yield* kept;
    },
    close: () => input.file.close(),
  };
}
