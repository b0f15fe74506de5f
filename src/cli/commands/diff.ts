/**
 * `mpe-trace diff A B [--by category|site|rank] [--json|--csv] [--from T --to T] [--marker NAME]`:
 * the computed difference of two runs — per category, call site or (rank, category): count,
 * inclusive and exclusive time in A and B, delta and ratio, what moved most first. Categories are
 * matched by name; a row present in one run only is listed with zeros for the other.
 */
import { diffRuns } from '../../core/compare/diff';
import { diffJson, diffTable, type DiffBy } from '../../core/compare/diffTables';
import { profileRun, type FullRunProfile } from '../../core/compare/profile';
import { toCsv } from '../../core/stats';
import { numberOption, parseArgs, UsageError, type ParsedArgs } from '../args';
import { openRun } from '../openRun';
import { registerCommand } from '../registry';
import { formatTable } from './stats';

const USAGE =
  'usage: mpe-trace diff A B [--by category|site|rank] [--json|--csv] [--from T] [--to T] [--marker NAME]\n' +
  '  Compares two runs: per category (default), per call site (SRCLOC file:line) or per rank and\n' +
  '  category: count, inclusive and exclusive time (s) in A and B, delta = B - A of the time that\n' +
  '  moved (exclusive for states, inclusive for arrows) and ratio B/A, largest |delta| first.\n' +
  '  --from/--to: the same window (seconds) in both runs (default: each whole run).\n' +
  '  --json also lists the iterations of each run (marker category: --marker, or found).';

function byOption(args: ParsedArgs): DiffBy {
  const v = args.values.get('--by') ?? 'category';
  if (v !== 'category' && v !== 'site' && v !== 'rank') throw new UsageError(`--by must be category, site or rank, got ${JSON.stringify(v)}`);
  return v;
}

async function profile(path: string, args: ParsedArgs): Promise<FullRunProfile> {
  const run = await openRun(path);
  try {
    const whole = run.timeRange ?? [-Infinity, Infinity];
    const range = [numberOption(args, '--from') ?? whole[0], numberOption(args, '--to') ?? whole[1]] as const;
    if (!(range[0] <= range[1])) throw new UsageError(`--from ${range[0]} is after --to ${range[1]}`);
    const result = await profileRun(() => run.meta(), run.drawables(range[0], range[1]), range, { marker: args.values.get('--marker') });
    for (const w of run.warnings) process.stderr.write(`warning: ${path}: ${w}\n`);
    return result;
  } finally {
    await run.close();
  }
}

function fmt(v: number | undefined): string {
  return v === undefined ? '-' : Number.isInteger(v) ? String(v) : v.toPrecision(6);
}

export async function runDiff(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--by', '--from', '--to', '--marker'], ['--json', '--csv']);
  if (args.positionals.length !== 2) throw new UsageError(`diff needs two files A and B`, USAGE);
  if (args.flags.has('--json') && args.flags.has('--csv')) throw new UsageError('choose one of --json and --csv');
  const by = byOption(args);
  const [pathA, pathB] = args.positionals as [string, string];
  const a = await profile(pathA, args);
  const b = await profile(pathB, args);
  const d = diffRuns(a, b);
  if (args.flags.has('--json')) {
    process.stdout.write(JSON.stringify(diffJson(d, { a: a.iterations, b: b.iterations })) + '\n');
    return 0;
  }
  const table = diffTable(d, by);
  if (args.flags.has('--csv')) {
    process.stdout.write(toCsv(table));
    return 0;
  }
  const span = (r: readonly [number, number]): string => `${fmt(r[0])} .. ${fmt(r[1])} s`;
  process.stdout.write(`A ${pathA}: ${span(d.rangeA)}, ${a.stats.drawables} drawables, ${a.iterations.starts.length} iterations\n`);
  process.stdout.write(`B ${pathB}: ${span(d.rangeB)}, ${b.stats.drawables} drawables, ${b.iterations.starts.length} iterations\n\n`);
  if (by === 'site' && table.rows.length === 0) process.stdout.write('(neither run recorded source locations)\n');
  else process.stdout.write(formatTable(table));
  return 0;
}

registerCommand('diff', { summary: 'compare two runs: per category, call site or rank, A vs B, delta and ratio', usage: USAGE, run: runDiff });
