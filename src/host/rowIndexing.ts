/**
 * The row index of an opened trace in the editor: opened from the cache (global storage,
 * row-index/, next to the conversion cache) when current; else built in the worker thread on
 * first open, with progress in the status bar, while the plain query keeps serving windows; the
 * build goes on when the editor closes, and a reopen joins it. Only for traces with many
 * timelines (few-row traces gain nothing). A stale index is rebuilt; a damaged one is reported,
 * dropped and rebuilt on the next open.
 */
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { rowIndexPathFor } from './rowIndexPath';
import { InFlight, untilAborted } from './inFlight';
import * as vscode from 'vscode';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import type { RowIndex } from '../core/index/rowIndex';
import { RowKeyMapper } from '../core/query/indexedSource';
import type { IndexedRows } from '../core/query/windowService';
import { openRowIndexFile } from '../io/rowIndexFile';
import { startRowIndexBuild } from '../worker/conversionClient';

import { ROW_INDEX_MIN_ROWS } from './rowIndexPath';
export { ROW_INDEX_MIN_ROWS };

export type RowIndexJob = (trace: string, index: string, progress: (fraction: number) => void, signal: AbortSignal) => Promise<void>;

export function workerRowIndexJob(extensionUri: vscode.Uri): RowIndexJob {
  const script = vscode.Uri.joinPath(extensionUri, 'dist', 'worker.js').fsPath;
  return async (trace, index, progress, signal) => {
    signal.throwIfAborted();
    const run = startRowIndexBuild(script, trace, index, (done, total) => progress(total > 0 ? done / total : 1));
    const onAbort = (): void => run.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await run.built;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
}

/**
 * Index builds in flight, by index path. A build outlives the editor that started it: closing the
 * editor of a 1 GB trace a few seconds after opening it would otherwise throw the work away, and
 * every reopen would start over (and never get its index). A reopen joins the running build.
 */
const building = new InFlight<void>();
/** Aborts the builds in flight (extension deactivation). */
const builds = new AbortController();

export function cancelRowIndexBuilds(): void {
  builds.abort(new Error('the extension is shutting down'));
}

function buildOnce(indexPath: string, trace: string, rows: number, job: RowIndexJob): Promise<void> {
  return building.run(indexPath, async () => {
    await mkdir(path.dirname(indexPath), { recursive: true });
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Indexing ${rows} timelines` }, async (progress) => {
      let last = 0;
      await job(
        trace,
        indexPath,
        (f) => {
          progress.report({ increment: (f - last) * 100 });
          last = f;
        },
        builds.signal,
      );
    });
  });
}

/**
 * Opens or builds the index of `file` (the SLOG-2 at `trace` on disk); resolves undefined when
 * the trace does not need one or it could not be made (with a warning on the file).
 */
export async function prepareRowIndex(
  file: Slog2File,
  trace: string,
  storage: vscode.Uri,
  job: RowIndexJob | undefined,
  signal: AbortSignal,
  onDamage: (e: Error) => void,
): Promise<IndexedRows | undefined> {
  let rows = 0;
  for (const m of file.lineIDMaps) rows = Math.max(rows, m.rows.length);
  if (rows < ROW_INDEX_MIN_ROWS) return undefined;
  const indexPath = rowIndexPathFor(storage.fsPath, trace);
  const wrap = (opened: { index: RowIndex }): IndexedRows => ({ index: opened.index, mapper: new RowKeyMapper(opened.index), damaged: onDamage });
  const first = await openRowIndexFile(file, trace, indexPath);
  if ('index' in first) return wrap(first);
  if (job === undefined) return undefined;
  if (!first.missing) file.warnings.push(`${first.problem}; rebuilding`);
  try {
    await untilAborted(buildOnce(indexPath, trace, rows, job), signal);
  } catch (e) {
    if (!signal.aborted) file.warnings.push(`row index not built: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  if (signal.aborted) return undefined;
  const again = await openRowIndexFile(file, trace, indexPath);
  if ('index' in again) return wrap(again);
  file.warnings.push(again.problem);
  return undefined;
}
