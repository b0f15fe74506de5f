/** `mpe-trace dump FILE [--from T] [--to T] [--json]`: every real drawable intersecting the window, one per line. */
import { infoText } from '../../core/model/infoFormat';
import { javaDouble } from '../../core/model/javaNumber';
import type { Category, Drawable, Primitive, SourceLocation } from '../../core/model/types';
import { unknownCategory } from '../../core/formats/slog2/categoryMap';
import { escapeControlsOnly } from '../../core/text/safeText';
import { numberOption, parseArgs, UsageError } from '../args';
import { openTrace } from '../openTrace';
import { registerCommand } from '../registry';

const USAGE =
  'usage: mpe-trace dump FILE [--from T] [--to T] [--json]\n' +
  '  One line per real drawable intersecting [from, to] (seconds, closed), in increasing start time:\n' +
  '  category, kind, vertices (time, lineID), popup text, and "@ file:line .. file:line" where the\n' +
  '  trace recorded a source location (start .. end). --json prints JSON lines.';

export interface DumpRecord {
  readonly category: number;
  readonly name: string;
  readonly kind: 'state' | 'arrow' | 'event' | 'composite';
  readonly earliest: number;
  readonly latest: number;
  readonly vertices: [number, number][];
  readonly info: string;
  /** Where the drawable was logged in the code (start = state start / arrow send / event; end = state end / arrow receive). */
  readonly source?: { readonly start?: SourceLocation; readonly end?: SourceLocation };
  readonly members?: DumpRecord[];
}

function primitiveRecord(p: Primitive, categories: ReadonlyMap<number, Category>): DumpRecord {
  const c = categories.get(p.category) ?? unknownCategory(p.category);
  return {
    category: p.category,
    name: c.name,
    kind: c.topology,
    earliest: p.earliest,
    latest: p.latest,
    vertices: p.vertices.map((v) => [v.time, v.lineID]),
    info: infoText(c.infoKeys, c.infoTypes, p.info),
    ...(p.source !== undefined && (p.source.start !== undefined || p.source.end !== undefined) ? { source: p.source } : {}),
  };
}

export function dumpRecord(d: Drawable, categories: ReadonlyMap<number, Category>): DumpRecord {
  if (d.kind === 'primitive') return primitiveRecord(d, categories);
  const c = categories.get(d.category) ?? unknownCategory(d.category);
  const members = d.primitives.map((p) => primitiveRecord(p, categories));
  return {
    category: d.category,
    name: c.name,
    kind: 'composite',
    earliest: d.earliest,
    latest: d.latest,
    vertices: members.flatMap((m) => m.vertices),
    info: infoText(c.infoKeys, c.infoTypes, d.info),
    members,
  };
}

/** Text form: `name[index] kind (t, line) (t, line) : popup`, composites followed by their members. */
export function formatDumpLine(r: DumpRecord): string {
  const head = (x: DumpRecord) => `${x.name}[${x.category}] ${x.kind} ${x.vertices.map(([t, l]) => `(${javaDouble(t)}, ${l})`).join(' ')}`;
  const text = (x: DumpRecord) => (x.info === '' ? '' : ` : ${JSON.stringify(x.info).slice(1, -1)}`);
  const at = (l: SourceLocation | undefined) => (l === undefined ? '' : `${l.file}:${l.line}`);
  const source = (x: DumpRecord) => (x.source === undefined ? '' : ` @ ${at(x.source.start) || '-'}${x.source.end ? ` .. ${at(x.source.end)}` : ''}`);
  if (r.members === undefined) return head(r) + text(r) + source(r);
  return `${r.name}[${r.category}] composite [${javaDouble(r.earliest)}, ${javaDouble(r.latest)}]${text(r)} { ${r.members.map((m) => head(m) + text(m)).join(' ; ')} }`;
}

export async function runDump(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--from', '--to'], ['--json']);
  if (args.positionals.length !== 1) throw new UsageError(`dump needs exactly one FILE\n${USAGE}`);
  const t0 = numberOption(args, '--from') ?? -Infinity;
  const t1 = numberOption(args, '--to') ?? Infinity;
  if (t0 > t1) throw new UsageError('--from must not be after --to');
  const json = args.flags.has('--json');
  const trace = await openTrace(args.positionals[0]!);
  try {
    let out = '';
    for await (const d of trace.drawables(t0, t1)) {
      const r = dumpRecord(d, trace.categories);
      out += (json ? JSON.stringify(r) : escapeControlsOnly(formatDumpLine(r))) + '\n';
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

/** Writes with back-pressure so a huge dump piped to `head` does not buffer the whole file. */
function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (text === '') return resolve();
    process.stdout.write(text, (e) => (e ? reject(e) : resolve()));
  });
}

registerCommand('dump', { summary: 'list the real drawables of a time window', usage: USAGE, run: runDump });
