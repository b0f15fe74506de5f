/**
 * The row index as a file next to its trace (CLI: FILE.mperowidx) or in the extension's cache
 * (host): identity from stat, built atomically (temp + rename), opened with every check of
 * RowIndex.open. A missing, stale or damaged index is reported with a reason, never used.
 */
import { stat } from 'node:fs/promises';
import { isFormatError } from '../core/bytes/formatError';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { buildRowIndex, type BuildOptions, type BuildReport } from '../core/index/build';
import type { SourceIdentity } from '../core/index/format';
import { RowIndex } from '../core/index/rowIndex';
import { writeAtomically } from './atomicWrite';
import { FileSource } from './fileSource';

export const ROW_INDEX_SUFFIX = '.mperowidx';

export function defaultRowIndexPath(tracePath: string): string {
  return tracePath + ROW_INDEX_SUFFIX;
}

export async function identityOf(path: string): Promise<SourceIdentity> {
  const st = await stat(path);
  return { path, size: st.size, mtimeMs: st.mtimeMs };
}

/** Builds the index of an opened SLOG-2 (`tracePath` on disk) into `indexPath`, atomically. */
export async function writeRowIndexFile(slog: Slog2File, tracePath: string, indexPath: string, options: BuildOptions = {}): Promise<BuildReport> {
  const identity = await identityOf(tracePath);
  return writeAtomically(indexPath, { force: true }, (sink) => buildRowIndex(slog, sink, identity, options));
}

export type OpenedIndex = { readonly index: RowIndex } | { readonly problem: string; readonly missing: boolean };

/** Opens the index file if it is there, current and intact; else says why not. */
export async function openRowIndexFile(slog: Slog2File, tracePath: string, indexPath: string): Promise<OpenedIndex> {
  let source: FileSource;
  try {
    source = await FileSource.open(indexPath, { blockBytes: 16384, maxBlocks: 256 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: `${indexPath}: ${code === 'ENOENT' ? 'no row index yet' : String(e)}`, missing: code === 'ENOENT' };
  }
  try {
    const index = await RowIndex.open(source, slog, await identityOf(tracePath));
    return { index };
  } catch (e) {
    await source.close();
    if (!isFormatError(e)) throw e;
    return { problem: `row index ignored: ${e.message}`, missing: false };
  }
}

/**
 * The index of `slog`, building (or rebuilding, when stale or damaged) it first; `note` hears why
 * a rebuild happened.
 */
export async function ensureRowIndexFile(
  slog: Slog2File,
  tracePath: string,
  indexPath: string,
  options: BuildOptions & { note?: (m: string) => void } = {},
): Promise<RowIndex> {
  const first = await openRowIndexFile(slog, tracePath, indexPath);
  if ('index' in first) return first.index;
  if (!first.missing) options.note?.(`${first.problem}; rebuilding`);
  await writeRowIndexFile(slog, tracePath, indexPath, options);
  const again = await openRowIndexFile(slog, tracePath, indexPath);
  if ('index' in again) return again.index;
  throw new Error(`the row index just built is unusable: ${again.problem}`);
}
