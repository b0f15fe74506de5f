/**
 * `mpe-trace stats FILE [--from T] [--to T] [--by category|row|pair] [--json|--csv] [--quick]`:
 * exact summary statistics of a time range (default: the whole trace), the same numbers as the
 * side panel (SLOG2.md §16). SLOG-2 files are read node by node (only nodes overlapping the
 * range). CLOG2 / old CLOG files are first converted to a temporary SLOG-2 file exactly as
 * `mpe-trace convert` does (which is also what the editor shows), so their statistics equal those
 * of the converted file in every output form, --quick and --approximate included. Other formats go
 * through their time-ordered drawable stream.
 */
import fs from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import type { LineIDMap } from '../../core/model/types';
import { Slog2File } from '../../core/formats/slog2/slog2File';
import {
  batchesOf,
  chooseApproximateLevel,
  computeRangeStats,
  exactStatsOfFile,
  nodeBatches,
  statsJson,
  statsTable,
  summaryStats,
  toCsv,
  type RangeStats,
  type Table,
  type TableName,
} from '../../core/stats';
import { openTraceInput } from '../../io/traceInput';
import { statsDecoded } from '../../convert/decodeThread';
import { bundledConverterScript, convertFile } from '../../convert/convertJob';
import { computeSiteProfile, siteJson, siteTable, type SiteProfile } from '../../core/stats/siteIndex';
import { openRun } from '../openRun';
import { numberOption, parseArgs, UsageError, type ParsedArgs } from '../args';
import { openSlog1File } from '../../io/slog1Source';
import { previewStatisticsTable } from '../slog1PreviewTable';
import { openSlog2ByteSource, openTrace } from '../openTrace';
import { registerCommand } from '../registry';
import { escapeControlsOnly } from '../../core/text/safeText';

const USAGE =
  'usage: mpe-trace stats FILE [--from T] [--to T] [--by category|row|pair|site] [--json|--csv] [--quick|--approximate]\n' +
  '  Per category (count, message bytes, inclusive/exclusive time, min/mean/max duration, share),\n' +
  '  share = exclusive time / (range length x timelines in scope), states only (sums to <= 1),\n' +
  '  per timeline, and messages per sender/receiver pair, for [from, to] (seconds, closed;\n' +
  '  default the whole trace). --json prints everything; --csv the table chosen by --by.\n' +
  '  --quick: whole-trace numbers from the SLOG-2 category summaries, without reading any node.\n' +
  "  --approximate: from the preview shadows of a coarse tree level (Jumpshot's way; SLOG-2 only).\n" +
  "  --preview: a SLOG-1 file's stored preview statistics over time (one row per bin, one column per\n" +
  "  type: summed overlap in bin widths), as Jumpshot-3's preview window showed them.\n" +
  '  --by site: one row per recorded source line (file, line): count = drawables whose start or end\n' +
  '  location is that line, total = their summed duration in the range (events 0), mean, min, max,\n' +
  '  share = total / (range length x timelines), worstRank = the timeline with the largest total;\n' +
  '  --json adds per category and per rank count, total, min/median/max.';

type By = 'category' | 'row' | 'pair' | 'site';

function byOption(args: ParsedArgs): By {
  const v = args.values.get('--by') ?? 'category';
  if (v !== 'category' && v !== 'row' && v !== 'pair' && v !== 'site')
    throw new UsageError(`--by must be category, row, pair or site, got ${JSON.stringify(v)}`);
  return v;
}

function resolveRange(args: ParsedArgs, whole: readonly [number, number]): [number, number] {
  const from = numberOption(args, '--from') ?? whole[0];
  const to = numberOption(args, '--to') ?? whole[1];
  if (!(from <= to)) throw new UsageError(`--from ${from} is after --to ${to}`);
  return [from, to];
}

/** `name` is the file the user named (for messages) when `path` is a temporary conversion. */
async function slog2Stats(path: string, args: ParsedArgs, name = path): Promise<RangeStats | undefined> {
  // Sniffed first: a CLOG2 (.gz) input is never unpacked into memory here.
  const source = await openSlog2ByteSource(path);
  if (source === undefined) return undefined;
  let file: Slog2File | undefined;
  try {
    file = await Slog2File.open(source);
    if (args.flags.has('--quick')) {
      if (args.values.has('--from') || args.values.has('--to')) throw new UsageError('--quick gives whole-trace numbers only (no --from/--to)');
      const quick = summaryStats(file.categories, file.timeRange, file.lineIDMaps);
      if (quick === undefined) throw new UsageError(`${name}: no category summaries (SLOG-2 2.0.5?); run without --quick`);
      return quick;
    }
    const range = resolveRange(args, file.timeRange);
    const f = file;
    const level = args.flags.has('--approximate')
      ? chooseApproximateLevel(f.maxDepth, (d) => f.nodesOverlapping(d, range[0], range[1]).length, { exactLeaves: 0 })
      : undefined;
    const stats =
      level === undefined
        ? await exactStatsOfFile(file, range, statsDecoded(file))
        : await computeRangeStats(file, nodeBatches(file.query(range[0], range[1], { lowestDepth: level })), range, { approximate: true });
    for (const w of file.warnings) process.stderr.write(`warning: ${escapeControlsOnly(w)}\n`);
    return stats;
  } finally {
    if (file !== undefined) await file.close();
    else await source.close();
  }
}

/** CLOG2 / old CLOG: statistics of the SLOG-2 file the conversion writes (undefined for other formats). */
async function clogStats(path: string, args: ParsedArgs): Promise<RangeStats | undefined> {
  const input = await openTraceInput(path);
  const format = input.format;
  await input.file.close();
  if (format !== 'clog2' && format !== 'clog') return undefined;
  const dir = await fs.promises.mkdtemp(nodePath.join(os.tmpdir(), 'mpe-trace-stats-'));
  try {
    const converted = nodePath.join(dir, 'converted.slog2');
    const result = await convertFile(path, converted, { converterScript: bundledConverterScript(path) });
    for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
    return await slog2Stats(converted, args, path);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Any other format the CLI can open: its drawables come in increasing start time. */
async function streamStats(path: string, args: ParsedArgs): Promise<RangeStats> {
  if (args.flags.has('--quick')) throw new UsageError('--quick needs a SLOG-2 file (category summaries)');
  if (args.flags.has('--approximate')) throw new UsageError('--approximate needs a SLOG-2 file (preview shadows)');
  const trace = await openTrace(path);
  try {
    const lineIDMaps: readonly LineIDMap[] = trace.lineIDMaps;
    const whole = args.values.has('--from') && args.values.has('--to') ? ([0, 0] as const) : (await trace.info()).timeRange;
    const range = resolveRange(args, whole);
    const stats = await computeRangeStats(
      { categories: trace.categories, lineIDMaps },
      batchesOf(trace.drawables(range[0], range[1]), { ordered: true }),
      range,
    );
    for (const w of trace.warnings) process.stderr.write(`warning: ${escapeControlsOnly(w)}\n`);
    return stats;
  } finally {
    await trace.close();
  }
}

/** Site statistics of any run; `name` is the file the user named when `path` is a temporary conversion. */
async function runSiteProfile(path: string, args: ParsedArgs): Promise<SiteProfile> {
  const run = await openRun(path);
  try {
    const range = resolveRange(args, run.timeRange ?? [-Infinity, Infinity]);
    const profile = await computeSiteProfile(() => run.meta(), run.drawables(range[0], range[1]), range);
    for (const w of run.warnings) process.stderr.write(`warning: ${w}\n`);
    return profile;
  } finally {
    await run.close();
  }
}

/** CLOG2 / old CLOG go through their SLOG-2 conversion (as the editor does), others directly. */
async function siteProfile(path: string, args: ParsedArgs): Promise<SiteProfile> {
  if (args.flags.has('--quick') || args.flags.has('--approximate')) throw new UsageError('--by site is exact only (no --quick or --approximate)');
  const input = await openTraceInput(path);
  const format = input.format;
  await input.file.close();
  if (format !== 'clog2' && format !== 'clog') return runSiteProfile(path, args);
  const dir = await fs.promises.mkdtemp(nodePath.join(os.tmpdir(), 'mpe-trace-stats-'));
  try {
    const converted = nodePath.join(dir, 'converted.slog2');
    const result = await convertFile(path, converted, { converterScript: bundledConverterScript(path) });
    for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
    return await runSiteProfile(converted, args);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

async function printSites(path: string, args: ParsedArgs): Promise<number> {
  const profile = await siteProfile(path, args);
  if (args.flags.has('--json')) process.stdout.write(JSON.stringify(siteJson(profile)) + '\n');
  else if (args.flags.has('--csv')) process.stdout.write(toCsv(siteTable(profile)));
  else {
    const [t0, t1] = profile.range;
    process.stdout.write(`range ${t0} .. ${t1} s on ${profile.timelines} timelines, ${profile.sites.length} source sites\n\n`);
    process.stdout.write(formatTable(siteTable(profile)));
  }
  return 0;
}

const TABLE_OF: Record<Exclude<By, 'site'>, TableName> = { category: 'categories', row: 'rows', pair: 'pairs' };

function num(v: string | number | undefined): string {
  if (v === undefined) return '-';
  if (typeof v === 'string') return v;
  if (Number.isInteger(v)) return String(v);
  return v.toPrecision(6);
}

/** A readable fixed-width table (text columns left-aligned, numbers right-aligned). */
export function formatTable(t: Table): string {
  // Category and row names come from the file: no terminal escapes (issue 14 §10).
  const cells = [t.columns.map(String), ...t.rows.map((r) => r.map((v) => escapeControlsOnly(num(v))))];
  const numeric = t.columns.map((_, i) => t.rows.every((r) => r[i] === undefined || typeof r[i] === 'number'));
  // A loop, not Math.max(...cells): 10^6 rows (categories) would overflow the call stack.
  const widths = t.columns.map((_, i) => cells.reduce((w, r) => Math.max(w, r[i]!.length), 0));
  return (
    cells
      .map((r) =>
        r
          .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** `--preview`: the SLOG-1 preview statistics, whole trace, as stored. */
async function previewStats(path: string, args: ParsedArgs): Promise<number> {
  for (const o of ['--from', '--to', '--by'])
    if (args.values.has(o)) throw new UsageError(`--preview prints the stored whole-trace statistics; it takes no ${o}`);
  if (args.flags.has('--quick') || args.flags.has('--approximate')) throw new UsageError('--preview takes no --quick or --approximate');
  const file = await openSlog1File(path);
  if (file === undefined) throw new UsageError(`${path}: --preview needs a SLOG-1 file (its stored preview statistics)`);
  try {
    const stats = file.previewStatistics;
    if (stats === undefined) throw new UsageError(`${path}: the file has no preview statistics (its writer did not finish, or it is truncated)`);
    if (args.flags.has('--json')) process.stdout.write(JSON.stringify(stats) + '\n');
    else if (args.flags.has('--csv')) process.stdout.write(toCsv(previewStatisticsTable(stats)));
    else {
      process.stdout.write(
        `preview statistics ${stats.start} .. ${stats.end} s, ${stats.bins} bins of ${(stats.end - stats.start) / stats.bins} s, ${stats.sets.length} types\n\n`,
      );
      process.stdout.write(formatTable(previewStatisticsTable(stats)));
    }
    return 0;
  } finally {
    await file.close();
  }
}

export async function runStats(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--from', '--to', '--by'], ['--json', '--csv', '--quick', '--approximate', '--preview']);
  if (args.flags.has('--preview')) {
    if (args.positionals.length !== 1) throw new UsageError(`stats needs exactly one FILE`, USAGE);
    if (args.flags.has('--json') && args.flags.has('--csv')) throw new UsageError('choose one of --json and --csv');
    return previewStats(args.positionals[0]!, args);
  }
  if (args.flags.has('--quick') && args.flags.has('--approximate')) throw new UsageError('choose one of --quick and --approximate');
  if (args.positionals.length !== 1) throw new UsageError(`stats needs exactly one FILE`, USAGE);
  if (args.flags.has('--json') && args.flags.has('--csv')) throw new UsageError('choose one of --json and --csv');
  const by = byOption(args);
  const path = args.positionals[0]!;
  if (by === 'site') return printSites(path, args);
  const stats = (await slog2Stats(path, args)) ?? (await clogStats(path, args)) ?? (await streamStats(path, args));
  if (args.flags.has('--json')) {
    process.stdout.write(JSON.stringify(statsJson(stats)) + '\n');
    return 0;
  }
  const table = statsTable(stats, TABLE_OF[by]);
  if (args.flags.has('--csv')) {
    process.stdout.write(toCsv(table));
    return 0;
  }
  const [t0, t1] = stats.range;
  const note =
    stats.kind === 'summary'
      ? ' (summary: from the category summaries; no rows or messages)'
      : stats.kind === 'approximate'
        ? ' (approximate: from preview shadows; fractional counts, no durations)'
        : '';
  const clamped = stats.clampedStates > 0 ? `, ${stats.clampedStates} states ending before they start (counted as 0 s)` : '';
  process.stdout.write(
    `range ${t0} .. ${t1} s (${t1 - t0} s) on ${stats.timelines} timelines, ${stats.drawables} drawables, ${stats.messages.count} messages${clamped}${note}\n` +
      'share = exclusive time / (range length x timelines), states only\n\n',
  );
  process.stdout.write(formatTable(table));
  return 0;
}

registerCommand('stats', { summary: 'summary statistics of a time range (per category, timeline, message pair)', usage: USAGE, run: runStats });
