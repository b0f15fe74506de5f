/**
 * `mpe-trace dump`'s lines (SLOG-2 drawables as text or JSON records) and its parts: a dump is
 * the time-ordered stream of drawables, which splits at leaf slices (Slog2File.drawableBatches-
 * InTimeOrder `leaves`), so two threads can each format every other part and the parts written in
 * order give the same bytes.
 */
import { infoText } from '../model/infoFormat';
import { javaDouble } from '../model/javaNumber';
import type { Category, Drawable, Primitive, SourceLocation } from '../model/types';
import { unknownCategory } from '../formats/slog2/categoryMap';
import { sliceStarts, type LeafPart, type Slog2File } from '../formats/slog2/slog2File';
import { escapeControlsOnly } from '../text/safeText';

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
  if (r.members === undefined) return headText(r) + infoPart(r) + sourcePart(r);
  let members = '';
  for (let i = 0; i < r.members.length; i++) members += (i === 0 ? '' : ' ; ') + headText(r.members[i]!) + infoPart(r.members[i]!);
  return `${r.name}[${r.category}] composite [${javaDouble(r.earliest)}, ${javaDouble(r.latest)}]${infoPart(r)} { ${members} }`;
}

/**
 * The text line of `d` straight from the drawable: `escapeControlsOnly(formatDumpLine(dumpRecord(d)))`
 * without a record per drawable (its vertex arrays were most of a whole-file dump's garbage) and
 * without scanning the whole line for control characters (a tenth of the dump): only the parts
 * that come from the file as text (names, info text, source files) can hold any, and each
 * category's head is escaped once.
 */
export class DumpLines {
  private readonly heads = new Map<number, string>();
  private readonly compositeHeads = new Map<number, string>();

  constructor(private readonly categories: ReadonlyMap<number, Category>) {}

  line(d: Drawable): string {
    if (d.kind === 'primitive') return this.primitiveText(d) + this.sourceText(d);
    let members = '';
    for (let i = 0; i < d.primitives.length; i++) members += (i === 0 ? '' : ' ; ') + this.primitiveText(d.primitives[i]!);
    const c = this.category(d.category);
    return `${this.head(c, d.category, 'composite')} [${javaDouble(d.earliest)}, ${javaDouble(d.latest)}]${this.infoText(c, d.info)} { ${members} }`;
  }

  private category(index: number): Category {
    return this.categories.get(index) ?? unknownCategory(index);
  }

  /** `name[index] kind`, escaped, once per category (and once more for composites of it). */
  private head(c: Category, index: number, kind: string): string {
    const heads = kind === 'composite' ? this.compositeHeads : this.heads;
    let h = heads.get(index);
    if (h === undefined) heads.set(index, (h = escapeControlsOnly(`${c.name}[${index}] ${kind}`)));
    return h;
  }

  private primitiveText(p: Primitive): string {
    const c = this.category(p.category);
    let s = this.head(c, p.category, c.topology);
    const v = p.vertices;
    for (let i = 0; i < v.length; i++) s += ` (${javaDouble(v[i]!.time)}, ${v[i]!.lineID})`;
    return s + this.infoText(c, p.info);
  }

  private infoText(c: Category, info: Uint8Array | undefined): string {
    const text = infoText(c.infoKeys, c.infoTypes, info);
    return text === '' ? '' : ` : ${escapeControlsOnly(JSON.stringify(text).slice(1, -1))}`;
  }

  private sourceText(p: Primitive): string {
    const src = p.source;
    if (src === undefined || (src.start === undefined && src.end === undefined)) return '';
    return escapeControlsOnly(` @ ${locationText(src.start) || '-'}${src.end ? ` .. ${locationText(src.end)}` : ''}`);
  }
}

// Module functions, not closures made per line: dump formats every drawable of a file.
function headText(x: DumpRecord): string {
  let s = `${x.name}[${x.category}] ${x.kind}`;
  for (const [t, l] of x.vertices) s += ` (${javaDouble(t)}, ${l})`;
  return s;
}

function infoPart(x: DumpRecord): string {
  return x.info === '' ? '' : ` : ${JSON.stringify(x.info).slice(1, -1)}`;
}

function sourcePart(x: DumpRecord): string {
  if (x.source === undefined) return '';
  return ` @ ${locationText(x.source.start) || '-'}${x.source.end ? ` .. ${locationText(x.source.end)}` : ''}`;
}

function locationText(l: SourceLocation | undefined): string {
  return l === undefined ? '' : `${l.file}:${l.line}`;
}

/** Consecutive parts of `leaves` (timeOrderLeaves) holding about `bytes` of leaf blocks each. */
export function dumpParts(leaves: readonly { readonly size: number; readonly latest: number }[], bytes: number): LeafPart[] {
  const starts = sliceStarts(leaves);
  const parts: LeafPart[] = [];
  let from = 0;
  let held = 0;
  for (let i = 0; i < leaves.length; i++) {
    held += leaves[i]!.size;
    if (held >= bytes || i === leaves.length - 1) {
      parts.push({ from, to: i + 1, start: starts[from]! });
      from = i + 1;
      held = 0;
    }
  }
  return parts;
}

/**
 * The dump of one part (`leaves` of timeOrderLeaves(t0, t1)) as text of at least `chunk` characters
 * a piece (the last may be shorter), each line ending in a newline.
 */
export async function* dumpPartText(
  file: Slog2File,
  lines: DumpLines,
  json: boolean,
  t0: number,
  t1: number,
  leaves: LeafPart,
  chunk: number,
): AsyncGenerator<string> {
  let out = '';
  for await (const batch of file.drawableBatchesInTimeOrder(t0, t1, { leaves })) {
    for (const d of batch) out += (json ? JSON.stringify(dumpRecord(d, file.categories)) : lines.line(d)) + '\n';
    if (out.length >= chunk) {
      yield out;
      out = '';
    }
  }
  if (out !== '') yield out;
}
