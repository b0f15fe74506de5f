/** `mpe-trace info FILE [--json]`: the trace summary of issue 2 (JSON or a readable table). */
import type { TraceInfo } from '../../core/info/traceInfo';
import { escapeControlsOnly } from '../../core/text/safeText';
import { parseArgs, UsageError } from '../args';
import { openTrace } from '../openTrace';
import { registerCommand } from '../registry';

const USAGE = 'usage: mpe-trace info FILE [--json]\n  Prints format, version, time range, line IDs, drawable counts and categories.';

export function formatInfoTable(info: TraceInfo): string {
  const lines: string[] = [];
  lines.push(`format       ${info.format} (${info.version})`);
  lines.push(`time range   ${info.timeRange[0]} .. ${info.timeRange[1]} s`);
  lines.push(`line IDs     ${info.lineIDs}`);
  const d = info.drawables;
  lines.push(`drawables    ${d.total} (states ${d.state}, arrows ${d.arrow}, events ${d.event}, composites ${d.composite})`);
  lines.push(`source locs  ${info.sourceLocations.records} records, ${info.sourceLocations.sites} sites`);
  if (info.unmatchedEvents !== undefined) lines.push(`unmatched    ${info.unmatchedEvents} events`);
  const x = info.dropped;
  if (x !== undefined && x.badTimes + x.records + x.finals > 0) {
    lines.push(`dropped      ${x.badTimes} records with NaN/infinite times, ${x.records} records of the wrong kind, ${x.finals} state ends without a start`);
  }
  lines.push('');
  lines.push('index  kind   rgba                drawables  name  [info format]');
  for (const c of info.categories) {
    const rgba = c.rgba.join(',');
    const fmt = c.infoFormat === null ? '' : `  [${c.infoFormat}]`;
    lines.push(`${String(c.index).padStart(5)}  ${c.kind.padEnd(5)}  ${rgba.padEnd(18)}  ${String(c.drawables).padStart(9)}  ${c.name}${fmt}`);
  }
  // Names and info formats come from the file: no terminal escapes (issue 14 §10).
  return lines.map(escapeControlsOnly).join('\n') + '\n';
}

export async function runInfo(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [], ['--json']);
  if (args.positionals.length !== 1) throw new UsageError(`info needs exactly one FILE`, USAGE);
  const trace = await openTrace(args.positionals[0]!);
  try {
    const info = await trace.info();
    process.stdout.write(args.flags.has('--json') ? JSON.stringify(info) + '\n' : formatInfoTable(info));
    for (const w of trace.warnings) process.stderr.write(`warning: ${escapeControlsOnly(w)}\n`);
    return 0;
  } finally {
    await trace.close();
  }
}

registerCommand('info', { summary: 'summary of a trace file (format, time range, counts, categories)', usage: USAGE, run: runInfo });
