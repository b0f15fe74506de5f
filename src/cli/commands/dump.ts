/** `mpe-trace dump FILE [--from T] [--to T] [--json]`: every real drawable intersecting the window, one per line. */
import type { Drawable, Primitive } from '../../core/model/types';
import { DumpLines, dumpRecord } from '../../core/info/dumpLines';
import { escapeControlsOnly } from '../../core/text/safeText';
import { dumpSlog2 } from '../dumpSlog2';
import { intOption, numberOption, parseArgs, UsageError } from '../args';
import { openTrace, type OpenedTrace } from '../openTrace';
import { openSlog1File } from '../../io/slog1Source';
import { FormatError } from '../../core/bytes/formatError';
import { printSlog1 } from '../../core/formats/slog1/printRecords';
import { defaultMapIndex, rowLayoutOf } from '../../core/query/rows';
import { parseRowSpec } from '../rowSpec';
import { openSlog2Path, slog2OnDisk } from './rowIndex';
import { registerCommand } from '../registry';

const USAGE =
  'usage: mpe-trace dump FILE [--from T] [--to T] [--rows SPEC [--map N]] [--json]\n' +
  '       mpe-trace dump --records FILE.slog\n' +
  '  One line per real drawable intersecting [from, to] (seconds, closed), in increasing start time:\n' +
  '  category, kind, vertices (time, lineID), popup text, and "@ file:line .. file:line" where the\n' +
  '  trace recorded a source location (start .. end). --json prints JSON lines.\n' +
  '  --records (SLOG-1 only): every table, frame and record as stored, pseudo-records included, in the\n' +
  "  layout of Jumpshot-3's SLOG-1 printer.";

/** `dump --records`: a SLOG-1 file's records as stored (Jumpshot-3's printer layout). */
async function dumpSlog1Records(path: string): Promise<number> {
  const file = await openSlog1File(path);
  if (file === undefined) throw new FormatError(path, 0, '--records needs a SLOG-1 file (version 0.7 header)');
  try {
    for await (const text of printSlog1(file)) await write(text);
    for (const w of file.warnings) process.stderr.write(`warning: ${w}\n`);
    return 0;
  } finally {
    await file.close();
  }
}

export async function runDump(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--from', '--to', '--rows', '--map'], ['--json', '--records']);
  if (args.positionals.length !== 1) throw new UsageError(`dump needs exactly one FILE`, USAGE);
  if (args.flags.has('--records')) {
    if (args.flags.has('--json') || args.values.has('--from') || args.values.has('--to'))
      throw new UsageError('--records prints the whole file; it takes no --json, --from or --to');
    return dumpSlog1Records(args.positionals[0]!);
  }
  const t0 = numberOption(args, '--from') ?? -Infinity;
  const t1 = numberOption(args, '--to') ?? Infinity;
  if (t0 > t1) throw new UsageError('--from must not be after --to');
  const json = args.flags.has('--json');
  const rowSpec = args.values.get('--rows');
  if (rowSpec === undefined) {
    // A SLOG-2 file on disk: in parts, two threads formatting them in turns (dumpSlog2.ts).
    const file = await slog2OnDisk(args.positionals[0]!);
    if (file !== undefined) {
      try {
        const warnings = await dumpSlog2(file, { t0, t1, json, write });
        for (const w of warnings) process.stderr.write(`warning: ${escapeControlsOnly(w)}\n`);
        return 0;
      } finally {
        await file.close();
      }
    }
  }
  const { trace, keep } =
    rowSpec === undefined ? { trace: await openTrace(args.positionals[0]!), keep: () => true } : await openWithRows(args.positionals[0]!, rowSpec, args);
  try {
    let out = '';
    const lines = new DumpLines(trace.categories);
    // By batch (a leaf's drawables): a promise per drawable was a twentieth of the time.
    for await (const batch of trace.drawableBatches(t0, t1)) {
      for (const d of batch) {
        if (!keep(d)) continue;
        out += (json ? JSON.stringify(dumpRecord(d, trace.categories)) : lines.line(d)) + '\n';
      }
      if (out.length > 1 << 16) {
        await write(out);
        out = '';
      }
    }
    await write(out);
    for (const w of trace.warnings) process.stderr.write(`warning: ${escapeControlsOnly(w)}\n`);
    return 0;
  } finally {
    await trace.close();
  }
}

/** A SLOG-2 trace and the test "has a vertex on one of the rows SPEC". */
async function openWithRows(path: string, spec: string, args: ReturnType<typeof parseArgs>): Promise<{ trace: OpenedTrace; keep: (d: Drawable) => boolean }> {
  const ranges = parseRowSpec(spec);
  const file = await openSlog2Path(path);
  const mapIndex = intOption(args, '--map', 0, file.lineIDMaps.length - 1) ?? defaultMapIndex(file.lineIDMaps);
  const { rowOfLine } = rowLayoutOf(file.lineIDMaps[mapIndex]!);
  const lines = new Set<number>();
  for (const [id, row] of rowOfLine) if (ranges.some(([a, b]) => row >= a && row < b)) lines.add(id);
  const onRows = (p: Primitive): boolean => p.vertices.some((v) => lines.has(v.lineID));
  const trace: OpenedTrace = {
    format: 'slog2',
    categories: file.categories,
    lineIDMaps: file.lineIDMaps,
    timeRange: file.timeRange,
    info: () => Promise.reject(new Error('not used')),
    drawables: (a, b) => file.drawablesInTimeOrder(a, b),
    drawableBatches: (a, b) => file.drawableBatchesInTimeOrder(a, b),
    warnings: file.warnings,
    close: () => file.close(),
  };
  return { trace, keep: (d) => (d.kind === 'primitive' ? onRows(d) : d.primitives.some(onRows)) };
}

/** Writes with back-pressure so a huge dump piped to `head` does not buffer the whole file. */
function write(text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (text.length === 0) return resolve();
    process.stdout.write(text, (e) => (e ? reject(e) : resolve()));
  });
}

registerCommand('dump', { summary: 'list the real drawables of a time window', usage: USAGE, run: runDump });
