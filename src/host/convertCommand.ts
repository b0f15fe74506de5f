/**
 * "MPE Trace: Convert to SLOG-2" (command palette and explorer context menu on *.clog2, *.clog and
 * their .gz, *.alog, *.slog): converts in a worker thread (src/worker) with a cancellable progress notification,
 * asks before overwriting an existing .slog2, and offers to open the result.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ConvertResult } from '../protocol/worker';
import type { ConversionJobOptions, ConversionJobResult, ConversionProgress } from './clogConversion';
import { ConversionFailed, startConversion, type ConversionRequest } from '../worker/conversionClient';
import { defaultOutputPath } from '../convert/convertJob';
import { checkOutputFor } from '../io/outputGuard';

export const CONVERT_COMMAND = 'mpeTrace.convertToSlog2';
const TIMELINE_VIEW_TYPE = 'mpeTrace.timeline';
const CLOG_NAME = /\.(clog2|clog)(\.gz)?$|\.(alog|slog)$/i;

export function registerConvertCommand(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(CONVERT_COMMAND, async (uri?: vscode.Uri, selected?: vscode.Uri[]) => {
      const inputs = selected && selected.length > 0 ? selected : uri ? [uri] : await pickInputs();
      for (const input of inputs ?? []) {
        if (!(await convertOne(context, input))) break;
      }
    }),
  );
}

/**
 * A conversion job for other host code (e.g. opening a CLOG file through a cached SLOG-2): runs
 * in the worker, writes `output` (replacing it), reports progress as a fraction, honours `signal`.
 */
export function workerConversionJob(extensionUri: vscode.Uri) {
  return async (
    input: string,
    output: string,
    progress: ConversionProgress,
    signal: AbortSignal,
    options: ConversionJobOptions = {},
  ): Promise<ConversionJobResult> => {
    signal.throwIfAborted();
    const snapshots = progress.snapshots;
    const request: ConversionRequest = { input, output, force: true, ...options, ...(snapshots ? { snapshotEveryMs: snapshots.everyMs } : {}) };
    const run = startConversion(
      workerScript(extensionUri),
      request,
      (read, total) => progress.report(total > 0 ? read / total : 1, progressMessage(read, total)),
      {},
      snapshots && ((s) => snapshots.onSnapshot(s)),
    );
    const onAbort = (): void => run.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const r = await run.done;
      return { warnings: r.warnings, ...(r.runEnd !== undefined ? { runEnd: r.runEnd } : {}) };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
}

function workerScript(extensionUri: vscode.Uri): string {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'worker.js').fsPath;
}

async function pickInputs(): Promise<vscode.Uri[] | undefined> {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const active = tab instanceof vscode.TabInputCustom || tab instanceof vscode.TabInputText ? tab.uri : undefined;
  if (active && CLOG_NAME.test(active.path)) return [active];
  return vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: 'Convert to SLOG-2',
    filters: { 'CLOG2 / CLOG / ALOG / SLOG-1 traces': ['clog2', 'clog', 'alog', 'slog', 'gz'] },
  });
}

/** Converts one file; false when the user cancelled (stop converting the rest of a selection). */
async function convertOne(context: vscode.ExtensionContext, input: vscode.Uri): Promise<boolean> {
  if (input.scheme !== 'file') {
    void vscode.window.showErrorMessage(`Only files on a local (or remote-window) file system can be converted: ${input.toString(true)}`);
    return true;
  }
  const target = await chooseOutput(input.fsPath);
  if (target === undefined) return false;
  const request: ConversionRequest = { input: input.fsPath, output: target.path, force: target.overwrite };
  const name = path.basename(input.fsPath);
  let result: ConvertResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Converting ${name} to SLOG-2`, cancellable: true },
      async (progress, token) => {
        let reported = 0;
        const run = startConversion(workerScript(context.extensionUri), request, (read, total) => {
          const percent = total > 0 ? Math.min(100, (100 * read) / total) : 100;
          progress.report({ increment: Math.max(0, percent - reported), message: progressMessage(read, total) });
          reported = Math.max(reported, percent);
        });
        const subscription = token.onCancellationRequested(() => run.cancel());
        try {
          return await run.done;
        } finally {
          subscription.dispose();
        }
      },
    );
  } catch (e) {
    if (e instanceof ConversionFailed && e.reason === 'cancelled') {
      void vscode.window.showInformationMessage(`Conversion of ${name} cancelled; no file was written.`);
      return false;
    }
    void vscode.window.showErrorMessage(`Converting ${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    return true;
  }
  const details = [`${result.drawables} drawables`, `${result.seconds.toFixed(1)} s`];
  if (result.sourceLocations.records > 0) details.push(`${result.locatedDrawables} with source locations`);
  if (result.unmatchedEvents > 0) details.push(`${result.unmatchedEvents} unmatched events`);
  if (result.warnings.length > 0) details.push(`${result.warnings.length} warnings`);
  // Not awaited: the command completes when the file is written, whether or not anyone answers.
  void vscode.window.showInformationMessage(`Converted ${name} → ${path.basename(result.output)} (${details.join(', ')}).`, 'Open').then((open) => {
    if (open === 'Open') void vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(result.output), TIMELINE_VIEW_TYPE);
  });
  return true;
}

/** The output path and whether it may replace an existing file (the user confirmed). */
async function chooseOutput(input: string): Promise<{ path: string; overwrite: boolean } | undefined> {
  const output = defaultOutputPath(input);
  // Identity, not path text: the default name may be a link to the input, or a FIFO (src/io/outputGuard.ts).
  const check = await guardOutput(input, output);
  if (check === undefined) return undefined;
  if (!check.exists) return { path: output, overwrite: false };
  const what =
    check.symlinkNote !== undefined
      ? `${path.basename(output)} is a symbolic link; replacing it replaces the link, not the file it points to.`
      : `${path.basename(output)} already exists.`;
  const choice = await vscode.window.showWarningMessage(`${what} Replace it?`, { modal: true }, 'Replace', 'Save As…');
  if (choice === 'Replace') return { path: output, overwrite: true };
  if (choice !== 'Save As…') return undefined;
  const picked = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(output), filters: { 'SLOG-2': ['slog2'] }, saveLabel: 'Convert' });
  if (picked === undefined) return undefined;
  if ((await guardOutput(input, picked.fsPath)) === undefined) return undefined;
  // The save dialog has already asked about replacing an existing file.
  return { path: picked.fsPath, overwrite: true };
}

/** The output check, or undefined after telling the user why the output cannot be used. */
async function guardOutput(input: string, output: string): Promise<Awaited<ReturnType<typeof checkOutputFor>> | undefined> {
  try {
    return await checkOutputFor(input, output);
  } catch (e) {
    void vscode.window.showErrorMessage(`Cannot convert to ${output}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

function progressMessage(read: number, total: number): string {
  const mb = (n: number) => (n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0);
  return `${mb(read)} of ${mb(total)} MB read`;
}
