/**
 * Reader side of the source-location table (layout and placement: table.ts): finds it in an
 * SLOG-2 file, and attaches each drawable's {file, line} to the drawables of a node.
 */
import { FormatError } from '../bytes/formatError';
import type { Drawable, DrawableSource } from '../model/types';
import type { Slog2File } from '../slog2/slog2File';
import type { TreeNodeInfo } from '../slog2/treeDir';
import { decodeSourceLocationTable, hasSourceLocationMagic, type SourceLocationTable } from './table';

/** Tables larger than this are refused (13 bytes per located drawable: ~80 M drawables). */
const MAX_TABLE_BYTES = 1 << 30;
const PREFIX_BYTES = 16;

/**
 * The table of a file written by our writer, or undefined when the file has none (every
 * reference-written file). A present but damaged table throws a FormatError.
 */
export async function readSourceLocations(file: Slog2File): Promise<SourceLocationTable | undefined> {
  const h = file.header;
  const source = file.source;
  const start = h.treeRoot.fptr + h.treeRoot.size;
  const end = h.categories.fptr;
  if (end - start < PREFIX_BYTES || start < 108 || end > source.size) return undefined;
  const prefix = await source.read(start, PREFIX_BYTES);
  if (!hasSourceLocationMagic(prefix)) return undefined;
  const size = end - start;
  if (size > MAX_TABLE_BYTES) throw new FormatError(source.name, start, `source-location table of ${size} bytes exceeds the ${MAX_TABLE_BYTES}-byte limit`);
  const bytes = (await source.read(start, size)).slice();
  return decodeSourceLocationTable(bytes, start, source.name);
}

/** `info --json` sourceLocations of a file: the input's record and site counts, or zeros. */
export function sourceLocationCounts(table: SourceLocationTable | undefined): { records: number; sites: number } {
  return table ? { records: table.records, sites: table.inputSites } : { records: 0, sites: 0 };
}

/**
 * The source of each drawable of a node, aligned with `drawables` as the reader returns them
 * (nestless list, then nestable list, each in file order). `nestlessCount` is the node's nestless
 * list length; use nodeSources() to have it read from the file.
 */
export function sourcesFor(table: SourceLocationTable, depth: number, xpos: number, drawableCount: number, nestlessCount: number): (DrawableSource | undefined)[] {
  const out = new Array<DrawableSource | undefined>(drawableCount).fill(undefined);
  const node = table.forNode(depth, xpos);
  if (node === undefined) return out;
  for (const [i, s] of node.nestless) if (i < nestlessCount && i < drawableCount) out[i] = s;
  for (const [i, s] of node.nestable) if (nestlessCount + i < drawableCount) out[nestlessCount + i] = s;
  return out;
}

/** Reads a node and returns its drawables with `source` set from the table. */
export async function drawablesWithSources(file: Slog2File, table: SourceLocationTable, info: TreeNodeInfo): Promise<Drawable[]> {
  const node = await file.readNode(info);
  const countBytes = await file.source.read(info.fptr + 34, 4);
  const nestlessCount = new DataView(countBytes.buffer, countBytes.byteOffset, 4).getInt32(0);
  const sources = sourcesFor(table, info.depth, info.xpos, node.drawables.length, nestlessCount);
  return node.drawables.map((d, i) => {
    const s = sources[i];
    return s !== undefined && d.kind === 'primitive' ? { ...d, source: s } : d;
  });
}
