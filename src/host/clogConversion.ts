/**
 * CLOG/CLOG2 inputs are shown through a cached SLOG-2 conversion in the extension's global storage,
 * keyed by path + size + mtime, so reopening an unchanged trace is instant. The cache is kept
 * under a size limit (oldest first out; a hit refreshes the entry's mtime).
 */
import type * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ROW_INDEX_MIN_ROWS, rowIndexPathFor } from './rowIndexPath';
import type { RowIndexRequest, SnapshotFile } from '../protocol/worker';
import { removeStaleTempFiles } from '../io/tempFiles';

export class ConversionUnavailableError extends Error {}

export interface ConversionProgress {
  /** 0..1 */
  report(fraction: number, message?: string): void;
  /** Snapshots of the SLOG-2 being written, at most every `everyMs` (an uncompressed CLOG2 only): the editor shows it as it goes. */
  readonly snapshots?: { readonly everyMs: number; onSnapshot(snapshot: SnapshotFile): void };
}

/**
 * Runs one CLOG/CLOG2 → SLOG-2 conversion (input path → output path, written atomically) with
 * progress and cancel: `workerConversionJob` of src/host/convertCommand.ts (a worker thread).
 */
export type ConversionJob = (
  input: string,
  output: string,
  progress: ConversionProgress,
  signal: AbortSignal,
  options?: ConversionJobOptions,
) => Promise<ConversionJobResult | void>;

export interface ConversionJobResult {
  /** What the conversion dropped or could not match. */
  readonly warnings: readonly string[];
  /** A prefix's conversion: the time of the input's last event record (the run's end). */
  readonly runEnd?: number;
}

export interface ConversionJobOptions {
  /** Write the row index too, as the SLOG-2 is written (no second pass; issue 16). */
  readonly rowIndex?: RowIndexRequest;
  /** Convert only the first this many bytes of an uncompressed CLOG2 (a preview). */
  readonly prefixBytes?: number;
}

/**
 * What the conversion of a cached file reported (dropped records with NaN/∞ times, unmatched
 * events, …), kept beside it so a reopen from the cache shows the same warnings as the first open.
 */
function warningsFileOf(target: string): string {
  return `${target}.warnings.json`;
}

/** The warnings the conversion of `target` reported ([] when none were kept). */
export async function conversionWarnings(target: string): Promise<string[]> {
  try {
    const parsed: unknown = JSON.parse(await fs.readFile(warningsFileOf(target), 'utf8'));
    return Array.isArray(parsed) ? parsed.filter((w): w is string => typeof w === 'string').slice(0, MAX_KEPT_WARNINGS) : [];
  } catch {
    return [];
  }
}

const MAX_KEPT_WARNINGS = 200;

/** Where the conversion of `input` (as it is now: path, size, mtime) lives in the cache. */
export async function cacheEntry(storage: vscode.Uri, input: vscode.Uri): Promise<{ readonly dir: string; readonly target: string }> {
  if (input.scheme !== 'file')
    throw new ConversionUnavailableError(`CLOG/CLOG2 files must be on a local (or remote-window) file system to be converted: ${input.toString(true)}`);
  const st = await fs.stat(input.fsPath);
  const key = createHash('sha256').update(`${input.fsPath}\n${st.size}\n${st.mtimeMs}`).digest('hex').slice(0, 32);
  const dir = path.join(storage.fsPath, 'slog2-cache');
  return { dir, target: path.join(dir, `${key}.slog2`) };
}

/** The cached conversion of `input` when there is one (marked as just used), else undefined. */
export async function findCachedSlog2(storage: vscode.Uri, input: vscode.Uri): Promise<string | undefined> {
  const { target } = await cacheEntry(storage, input);
  try {
    await fs.access(target);
  } catch {
    return undefined;
  }
  // Use is marked on a sidecar file, not the SLOG-2: its mtime is part of the row index's identity
  // (touching it made every reopen rebuild the index; utimes rounds it to the millisecond).
  await fs.writeFile(usedMarkerOf(target), '');
  return target;
}

/** The file whose mtime says when a cached conversion was last opened. */
function usedMarkerOf(target: string): string {
  return `${target}.used`;
}

export async function cachedSlog2For(
  storage: vscode.Uri,
  input: vscode.Uri,
  cacheLimitBytes: number,
  job: ConversionJob | undefined,
  progress: ConversionProgress,
  signal: AbortSignal,
): Promise<string> {
  const hit = await findCachedSlog2(storage, input);
  if (hit !== undefined) return hit;
  const { dir, target } = await cacheEntry(storage, input);
  await fs.mkdir(dir, { recursive: true });
  if (job === undefined)
    throw new ConversionUnavailableError('Conversion of CLOG/CLOG2 files is not available in this build; convert the file to SLOG-2 first.');
  const indexPath = rowIndexPathFor(storage.fsPath, target);
  await fs.mkdir(path.dirname(indexPath), { recursive: true });
  const warnings = (await job(input.fsPath, target, progress, signal, { rowIndex: { path: indexPath, minLines: ROW_INDEX_MIN_ROWS } }))?.warnings;
  if (warnings && warnings.length > 0) await fs.writeFile(warningsFileOf(target), JSON.stringify(warnings.slice(0, MAX_KEPT_WARNINGS)));
  else await fs.rm(warningsFileOf(target), { force: true });
  await trimCache(dir, cacheLimitBytes, target, (trace) => rowIndexPathFor(storage.fsPath, trace));
  return target;
}

/** Size of a file, 0 when it does not exist. */
async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * Deletes the least recently used cached conversions until the cache fits (never `keep`), and the
 * temporary files of conversions whose process was killed (never those of a live process). With
 * `rowIndexOf`, each conversion's row index counts with it and goes with it.
 */
export async function trimCache(dir: string, limitBytes: number, keep: string, rowIndexOf?: (trace: string) => string): Promise<void> {
  await removeStaleTempFiles(dir);
  const entries: { file: string; size: number; used: number }[] = [];
  for (const name of await fs.readdir(dir)) {
    if (!name.endsWith('.slog2')) continue;
    const file = path.join(dir, name);
    const s = await fs.stat(file);
    // Last use: the conversion, or the last reopen (findCachedSlog2's marker).
    const reopened = await fs.stat(usedMarkerOf(file)).then(
      (m) => m.mtimeMs,
      () => 0,
    );
    entries.push({ file, size: s.size + (rowIndexOf ? await sizeOf(rowIndexOf(file)) : 0), used: Math.max(reopened, s.mtimeMs) });
  }
  let total = entries.reduce((n, e) => n + e.size, 0);
  entries.sort((a, b) => a.used - b.used);
  for (const e of entries) {
    if (total <= limitBytes) break;
    if (e.file === keep) continue;
    await fs.rm(e.file, { force: true });
    await fs.rm(warningsFileOf(e.file), { force: true });
    await fs.rm(usedMarkerOf(e.file), { force: true });
    if (rowIndexOf) await fs.rm(rowIndexOf(e.file), { force: true });
    total -= e.size;
  }
}
