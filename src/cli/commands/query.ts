/**
 * `mpe-trace query FILE.slog2 --from T --to T [--rows SPEC] [--map N] [--depth D] [--plain] [--profile] [--json]`:
 * builds the window the editor would ask for and prints what it holds, or with --profile what it
 * cost (nodesRead, bytesRead, decoded, returned, ms). With --rows and a current row index
 * (FILE.mperowidx, `mpe-trace index`), the window is read through the index.
 */
import { defaultMapIndex, rowLayoutOf } from '../../core/query/rows';
import { profiledWindow, type QueryProfile } from '../../core/query/windowProfile';
import { IndexedWindowSource, RowKeyMapper } from '../../core/query/indexedSource';
import { stateAt } from '../../core/query/stateAt';
import { defaultRowIndexPath, openRowIndexFile } from '../../io/rowIndexFile';
import { intOption, numberOption, parseArgs, UsageError } from '../args';
import { registerCommand } from '../registry';
import { parseRowSpec } from '../rowSpec';
import { openSlog2Path } from './rowIndex';

const USAGE =
  'usage: mpe-trace query FILE.slog2 --from T --to T [--rows SPEC] [--map N] [--depth D] [--plain] [--profile] [--json]\n' +
  '       mpe-trace query FILE.slog2 --at T [--rows SPEC] [--map N] [--plain] [--json]\n' +
  '  Builds the timeline window of [from, to] (seconds) for the rows SPEC (e.g. 0-39,64; default all)\n' +
  '  of Y map N (default: the process map) at tree depth D (0 = every real drawable, the default)\n' +
  '  and prints its contents, or with --profile its cost: nodesRead, bytesRead, decoded, returned, ms.\n' +
  '  --at T prints the state stack (outermost first) of every asked row at time T.\n' +
  '  Reads through the row index FILE.mperowidx when it is current (see `mpe-trace index`); --plain never does.';

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--from', '--to', '--at', '--rows', '--map', '--depth'], ['--plain', '--profile', '--json']);
  if (args.positionals.length !== 1) throw new UsageError(`query needs exactly one FILE`, USAGE);
  const path = args.positionals[0]!;
  const file = await openSlog2Path(path);
  try {
    const [a, b] = file.timeRange;
    const t0 = numberOption(args, '--from') ?? a;
    const t1 = numberOption(args, '--to') ?? b;
    if (!(t0 < t1)) throw new UsageError('--from must be before --to');
    const mapIndex = intOption(args, '--map', 0, file.lineIDMaps.length - 1) ?? defaultMapIndex(file.lineIDMaps);
    const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
    const rowSpec = args.values.get('--rows');
    const rows =
      rowSpec === undefined
        ? [[0, layout.labels.length] as [number, number]]
        : parseRowSpec(rowSpec).map(([s, e]): [number, number] => [s, Math.min(e, layout.labels.length)]);
    const lowestDepth = intOption(args, '--depth', 0, file.maxDepth) ?? 0;
    let index;
    if (!args.flags.has('--plain')) {
      const opened = await openRowIndexFile(file, path, defaultRowIndexPath(path));
      if ('index' in opened) index = { index: opened.index, mapper: new RowKeyMapper(opened.index) };
      else if (!opened.missing) process.stderr.write(`warning: ${opened.problem}; using the plain query\n`);
    }
    const at = numberOption(args, '--at');
    if (at !== undefined) {
      const ranges = index?.mapper.keyRangesOfRows(layout, mapIndex, rows);
      const source = index !== undefined && ranges !== undefined ? new IndexedWindowSource(index.index, ranges) : file;
      const stacks = await stateAt(source, layout, at, rows);
      await index?.index.close();
      const name = (c: number): string => file.categories.get(c)?.name ?? `category ${c}`;
      const json = args.flags.has('--json');
      let out = '';
      for (const s of stacks) {
        out += json
          ? `${JSON.stringify({ row: s.row, label: layout.labels[s.row], states: s.states.map((x) => ({ ...x, name: name(x.category) })) })}\n`
          : `${layout.labels[s.row]}: ${s.states.map((x) => name(x.category)).join(' > ')}\n`;
      }
      process.stdout.write(out);
      return 0;
    }
    const total: QueryProfile = { nodesRead: 0, bytesRead: 0, decoded: 0, returned: 0, ms: 0 };
    const counts = { states: 0, shadows: 0, arrows: 0, events: 0 };
    const via = new Set<string>();
    for (const [rowStart, rowEnd] of rows) {
      if (rowStart >= rowEnd) continue;
      const spec = { t0, t1, rowStart, rowEnd, mapIndex, lowestDepth, rowOfLine: layout.rowOfLine };
      const r = await profiledWindow(file, layout, spec, index);
      via.add(r.via);
      for (const k of ['nodesRead', 'bytesRead', 'decoded', 'returned', 'ms'] as const) total[k] += r.profile[k];
      counts.states += r.columns.states.start.length;
      counts.shadows += r.columns.shadows.start.length;
      counts.arrows += r.columns.arrows.start.length;
      counts.events += r.columns.events.time.length;
    }
    await index?.index.close();
    total.ms = Math.round(total.ms * 1000) / 1000;
    const json = args.flags.has('--json');
    if (args.flags.has('--profile')) {
      const p = { nodesRead: total.nodesRead, bytesRead: total.bytesRead, decoded: total.decoded, returned: total.returned, ms: total.ms };
      process.stdout.write(
        json
          ? `${JSON.stringify(p)}\n`
          : `${Object.entries(p)
              .map(([k, v]) => `${k} ${v}`)
              .join('\n')}\nvia ${[...via].join('+') || 'nothing'}\n`,
      );
    } else {
      process.stdout.write(
        json
          ? `${JSON.stringify(counts)}\n`
          : `${Object.entries(counts)
              .map(([k, v]) => `${k} ${v}`)
              .join('\n')}\n`,
      );
    }
    for (const w of file.warnings) process.stderr.write(`warning: ${w}\n`);
    return 0;
  } finally {
    await file.close();
  }
}

registerCommand('query', { summary: 'build one timeline window (rows, time) and print it or its cost', usage: USAGE, run });
