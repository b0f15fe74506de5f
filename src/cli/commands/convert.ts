/** `mpe-trace convert IN.clog2|IN.clog|IN.alog|IN.slog[.gz] [-o OUT.slog2] [--force] [--children N] [--leaf-bytes B] [--index]` */
import { bundledConverterScript, convertFile, defaultOutputPath } from '../../convert/convertJob';
import { escapeControlsOnly } from '../../core/text/safeText';
import { defaultRowIndexPath } from '../../io/rowIndexFile';
import { checkOutputFor } from '../../io/outputGuard';
import { intOption, parseArgs, UsageError } from '../args';
import { registerCommand } from '../registry';
import { onInterruption, takeConverterHandoff } from '../jobThread';
import { CONVERT_FLAG_OPTIONS, CONVERT_VALUE_OPTIONS } from '../convertLaunch';

const USAGE = [
  'usage: mpe-trace convert IN.clog2|IN.clog|IN.alog|IN.slog[.gz] [-o OUT.slog2] [--force] [--children N] [--leaf-bytes B] [--index]',
  '  Converts a CLOG2, old CLOG, ALOG or SLOG-1 trace to SLOG-2 2.0.6 (readable by Jumpshot-4), keeping source locations.',
  '  -o OUT          output file (default: the input name with .slog2)',
  '  --force         overwrite OUT if it exists (a regular file or symbolic link, never the input)',
  '  --children N    children per tree node (default 2)',
  '  --leaf-bytes B  leaf node byte size (default 65536)',
  '  --index         also write the rows × time index (OUT.mperowidx) while converting, no second pass',
  '                  (CLOG2 inputs whose ranks all appear, old CLOG whose ranks all draw before the first',
  '                  tree node; otherwise says why, and `mpe-trace index` builds it)',
  '  --quiet         no progress line on the terminal',
].join('\n');

export async function runConvert(argv: string[]): Promise<number> {
  const args = parseArgs(argv, CONVERT_VALUE_OPTIONS, CONVERT_FLAG_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError(`convert needs exactly one input file`, USAGE);
  const input = args.positionals[0]!;
  const output = args.values.get('-o') ?? args.values.get('--output') ?? defaultOutputPath(input);
  if (output === input) throw new UsageError('the output would overwrite the input; give another name with -o');
  const childrenPerNode = intOption(args, '--children', 2, 32767);
  const leafBytes = intOption(args, '--leaf-bytes', 64, 0x7fffffff);
  const force = args.flags.has('--force');
  // Same file under another name, a link to it, a FIFO or device as output: refused up front.
  const target = await checkOutputFor(input, output);
  if (force && target.symlinkNote !== undefined) process.stderr.write(`note: ${target.symlinkNote}\n`);

  // the converter thread the main thread started with this job thread, if it did
  const converterHandoff = takeConverterHandoff();
  const controller = new AbortController();
  // Ctrl-C, SIGTERM or a closed terminal: without a handler the process would die at once and
  // leave its temporary file (a later run removes such leftovers: io/tempFiles.ts).
  const stopListening = onInterruption(() => controller.abort(new Error('interrupted')));
  const tty = process.stderr.isTTY === true && !args.flags.has('--quiet');
  let lastPercent = -1;
  const started = Date.now();
  try {
    const result = await convertFile(input, output, {
      childrenPerNode,
      leafBytes,
      force,
      signal: controller.signal,
      // Two threads (converter + writer) when dist/converter.js is installed next to the CLI and the input is big enough.
      converterScript: bundledConverterScript(input),
      ...(converterHandoff !== undefined ? { converterHandoff } : {}),
      rowIndex: args.flags.has('--index') ? { path: defaultRowIndexPath(output) } : undefined,
      onProgress: tty
        ? (read, total) => {
            const percent = total > 0 ? Math.floor((100 * read) / total) : 100;
            if (percent !== lastPercent) {
              lastPercent = percent;
              process.stderr.write(`\rconverting ${input}: ${percent}%`);
            }
          }
        : undefined,
    });
    if (tty) process.stderr.write('\r\x1b[K');
    const w = result.written;
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write(
      `${output}: ${w.drawables} drawables, ${w.nodes} tree nodes (depth ${w.maxTreeDepth}), ${w.bytes} bytes in ${seconds.toFixed(2)} s` +
        (result.sourceLocations.records > 0 ? `; source locations: ${result.sourceLocations.records} records, ${w.locatedDrawables} drawables located` : '') +
        (result.unmatchedEvents > 0 ? `; ${result.unmatchedEvents} unmatched events` : '') +
        // Never a silent drop: records and drawables left out are counted on the summary line.
        (result.badTimes > 0 ? `; ${result.badTimes} records with NaN/infinite times dropped` : '') +
        (w.droppedDrawables > 0 ? `; ${w.droppedDrawables} drawables the writer could not place dropped` : '') +
        '\n',
    );
    const ri = result.rowIndex;
    if (ri !== undefined) {
      if ('report' in ri)
        process.stderr.write(
          `${defaultRowIndexPath(output)}: ${ri.report.bytes} bytes, ${ri.report.keys} timelines, ${ri.report.chunks} chunks, ${ri.report.runs} runs\n`,
        );
      else process.stderr.write(`note: no row index written: ${escapeControlsOnly(ri.skipped)}\n`);
    }
    for (const warning of result.warnings) process.stderr.write(`warning: ${escapeControlsOnly(warning)}\n`);
    return 0;
  } catch (e) {
    if (tty) process.stderr.write('\r\x1b[K');
    if (controller.signal.aborted) {
      process.stderr.write(`mpe-trace: conversion interrupted; ${output} was not written\n`);
      return 130;
    }
    throw e;
  } finally {
    stopListening();
  }
}

registerCommand('convert', { summary: 'convert a CLOG2/CLOG/ALOG/SLOG-1 trace to SLOG-2 (keeps source locations)', usage: USAGE, run: runConvert });
