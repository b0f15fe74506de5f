/**
 * Reader side of the source locations (layout and placement: table.ts): finds the table of an
 * SLOG-2 file and a node's record of located drawables. `Slog2File` reads the table once at open
 * and attaches each drawable's {file, line} as it parses a node — the one place that does.
 */
import { FormatError } from '../../bytes/formatError';
import type { DrawableSource } from '../../model/types';
import type { Slog2File } from '../slog2/slog2File';
import { HEADER_BYTES } from '../slog2/header';
import type { TreeNodeInfo } from '../slog2/treeDir';
import {
  decodeNodeRecord,
  decodeSourceLocationTable,
  hasNodeRecordMagic,
  hasSourceLocationMagic,
  NODE_RECORD_PREFIX_BYTES,
  nodeRecordSize,
  type NodeSourceLocations,
  type SourceLocationTable,
} from './table';

/** Refused beyond this (the table holds files and sites only; node records 13 bytes per entry). */
const MAX_RECORD_BYTES = 1 << 30;

/**
 * `size` bytes at `at`, a copy: through the source's block cache, or (`direct`, when the source can)
 * read into a buffer of their own: a pass over many nodes far apart would load a block per probe.
 */
async function readBytes(file: Slog2File, at: number, size: number, direct: boolean): Promise<Uint8Array> {
  const into = direct ? file.source.readInto?.bind(file.source) : undefined;
  if (into === undefined) return (await file.source.read(at, size)).slice();
  const bytes = new Uint8Array(size);
  await into(at, bytes);
  return bytes;
}

async function readPrefix(file: Slog2File, at: number, limit: number, direct = false): Promise<Uint8Array | undefined> {
  if (at < HEADER_BYTES || at + NODE_RECORD_PREFIX_BYTES > limit || at + NODE_RECORD_PREFIX_BYTES > file.source.size) return undefined;
  return readBytes(file, at, NODE_RECORD_PREFIX_BYTES, direct);
}

/** Reads `size` bytes at `at` after checking they lie before `limit` and inside the file. */
async function readRecord(file: Slog2File, at: number, size: number, limit: number, what: string, direct = false): Promise<Uint8Array> {
  if (size > MAX_RECORD_BYTES || at + size > limit || at + size > file.source.size) {
    throw new FormatError(file.source.name, at, `${what} of ${size} bytes does not fit before offset ${Math.min(limit, file.source.size)}`);
  }
  return readBytes(file, at, size, direct);
}

/**
 * The table of a file written by our writer, or undefined when the file has none (every
 * reference-written file). A present but damaged table throws a FormatError.
 */
export async function readSourceLocations(file: Slog2File): Promise<SourceLocationTable | undefined> {
  const h = file.header;
  const end = h.categories.fptr;
  let at = h.treeRoot.fptr + h.treeRoot.size;
  let prefix = await readPrefix(file, at, end);
  if (prefix && hasNodeRecordMagic(prefix)) {
    at += nodeRecordSize(prefix, at, file.source.name);
    prefix = await readPrefix(file, at, end);
  }
  if (prefix === undefined || !hasSourceLocationMagic(prefix)) return undefined;
  const bytes = await readRecord(file, at, end - at, end, 'source-location table');
  return decodeSourceLocationTable(bytes, at, file.source.name);
}

/** `info --json` sourceLocations of a file: the input's record and site counts, or zeros. */
export function sourceLocationCounts(table: SourceLocationTable | undefined): { records: number; sites: number } {
  return table ? { records: table.records, sites: table.inputSites } : { records: 0, sites: 0 };
}

/** The located drawables of one node (its record right after its block), or undefined. */
export async function nodeSourceLocations(file: Slog2File, table: SourceLocationTable, info: TreeNodeInfo): Promise<NodeSourceLocations | undefined> {
  const bytes = await nodeRecordBytes(file, info);
  return bytes === undefined ? undefined : decodeNodeRecord(bytes, info.fptr + info.size, file.source.name, table);
}

/**
 * The bytes of a node's record (a copy), or undefined when none follows its block. `direct`: read
 * past the source's block cache (readBytes), for passes over nodes far apart.
 */
export async function nodeRecordBytes(file: Slog2File, info: TreeNodeInfo, direct = false): Promise<Uint8Array | undefined> {
  const at = info.fptr + info.size;
  // Blocks after a node: another node, the table, or the CategoryMap; the record never passes the file end.
  const prefix = await readPrefix(file, at, file.source.size, direct);
  if (prefix === undefined || !hasNodeRecordMagic(prefix)) return undefined;
  const size = nodeRecordSize(prefix, at, file.source.name);
  return readRecord(file, at, size, file.source.size, 'source-location node record', direct);
}

/**
 * The source of each drawable of a node, aligned with `drawables` as the reader returns them
 * (nestless list, then nestable list, each in file order); `nestlessCount` = nestless list length.
 */
export function sourcesFor(node: NodeSourceLocations | undefined, drawableCount: number, nestlessCount: number): (DrawableSource | undefined)[] {
  const out = new Array<DrawableSource | undefined>(drawableCount).fill(undefined);
  if (node === undefined) return out;
  for (const [i, s] of node.nestless) if (i < nestlessCount && i < drawableCount) out[i] = s;
  for (const [i, s] of node.nestable) if (nestlessCount + i < drawableCount) out[nestlessCount + i] = s;
  return out;
}
