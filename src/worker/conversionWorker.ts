// worker_threads entry: conversion runs here, off the extension host's event loop. The message
// protocol is src/protocol/worker.ts: `convert` starts a job, `cancel` aborts it (the temporary
// output is removed), and the worker answers with `progress`, then `done` or `error`.
import { parentPort, workerData } from 'node:worker_threads';
import { isFormatError } from '../core/bytes/formatError';
import { isHostToWorker, type ConvertStart, type RowIndexStart, type WorkerToHost } from '../protocol/worker';
import type { ConverterHandoffData, HandedOverConverter } from '../convert/converterHandoff';
import { Slog2File } from '../core/formats/slog2/slog2File';
import { FileSource } from '../io/fileSource';
import { writeRowIndexFile } from '../io/rowIndexFile';
import { TargetExistsError } from '../io/atomicWrite';
import { bundledConverterScript, convertFile, type ConversionSnapshot } from '../convert/convertJob';

/** Progress is posted at most this often (ms), plus at 100 %. */
const PROGRESS_INTERVAL_MS = 100;

const jobs = new Map<number, AbortController>();

/** The converter thread the host started beside this worker, for its first conversion only. */
let handedOver: HandedOverConverter | undefined = (workerData as ConverterHandoffData | null)?.converter;

function post(message: WorkerToHost): void {
  parentPort?.postMessage(message);
}

async function runJob(m: ConvertStart): Promise<void> {
  const controller = new AbortController();
  jobs.set(m.id, controller);
  const started = Date.now();
  let lastPost = 0;
  const converterHandoff = handedOver;
  handedOver = undefined;
  try {
    const r = await convertFile(m.input, m.output, {
      force: m.force,
      childrenPerNode: m.childrenPerNode,
      leafBytes: m.leafBytes,
      signal: controller.signal,
      // A preview's few MiB convert faster here than the converter thread starts (~0.25 s).
      converterScript: m.prefixBytes === undefined ? bundledConverterScript(m.input) : undefined,
      ...(converterHandoff !== undefined ? { converterHandoff } : {}),
      rowIndex: m.rowIndex,
      ...(m.prefixBytes !== undefined ? { prefixBytes: m.prefixBytes } : {}),
      ...(m.snapshotEveryMs !== undefined
        ? {
            snapshots: {
              everyMs: m.snapshotEveryMs,
              onSnapshot: (s: ConversionSnapshot) => {
                const { path, base, header, tail, drawables, bytesRead, totalBytes } = s;
                parentPort?.postMessage({ kind: 'snapshot', id: m.id, path, base, header, tail, drawables, bytesRead, totalBytes } satisfies WorkerToHost, [
                  header.buffer as ArrayBuffer,
                  tail.buffer as ArrayBuffer,
                ]);
              },
            },
          }
        : {}),
      onProgress: (bytesRead, totalBytes) => {
        const now = Date.now();
        if (now - lastPost < PROGRESS_INTERVAL_MS && bytesRead < totalBytes) return;
        lastPost = now;
        post({ kind: 'progress', id: m.id, bytesRead, totalBytes });
      },
    });
    post({
      kind: 'done',
      id: m.id,
      result: {
        output: r.output,
        format: r.format,
        inputBytes: r.inputBytes,
        outputBytes: r.written.bytes,
        drawables: r.written.drawables,
        nodes: r.written.nodes,
        maxTreeDepth: r.written.maxTreeDepth,
        seconds: (Date.now() - started) / 1000,
        sourceLocations: r.sourceLocations,
        locatedDrawables: r.written.locatedDrawables,
        unmatchedEvents: r.unmatchedEvents,
        warnings: r.warnings,
        ...(r.runEnd !== undefined ? { runEnd: r.runEnd } : {}),
        rowIndex:
          r.rowIndex === undefined
            ? undefined
            : 'report' in r.rowIndex
              ? { written: true, note: `${r.rowIndex.report.keys} timelines, ${r.rowIndex.report.bytes} bytes` }
              : { written: false, note: r.rowIndex.skipped },
      },
    });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const reason = controller.signal.aborted
      ? 'cancelled'
      : e instanceof TargetExistsError
        ? 'exists'
        : isFormatError(e) || isMissingFile(e)
          ? 'input'
          : 'failed';
    post({ kind: 'error', id: m.id, reason, message: reason === 'cancelled' ? 'conversion cancelled' : message });
  } finally {
    jobs.delete(m.id);
  }
}

/** Builds a row index (same progress/error messages as a conversion; `rowIndexDone` at the end). */
async function runRowIndexJob(m: RowIndexStart): Promise<void> {
  const controller = new AbortController();
  jobs.set(m.id, controller);
  const started = Date.now();
  let lastPost = 0;
  let file: Slog2File | undefined;
  try {
    file = await Slog2File.open(await FileSource.open(m.trace));
    const report = await writeRowIndexFile(file, m.trace, m.index, {
      signal: controller.signal,
      onProgress: (done, total) => {
        const now = Date.now();
        if (now - lastPost < PROGRESS_INTERVAL_MS && done < total) return;
        lastPost = now;
        post({ kind: 'progress', id: m.id, bytesRead: done, totalBytes: total });
      },
    });
    post({ kind: 'rowIndexDone', id: m.id, bytes: report.bytes, seconds: (Date.now() - started) / 1000 });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const reason = controller.signal.aborted ? 'cancelled' : isFormatError(e) || isMissingFile(e) ? 'input' : 'failed';
    post({ kind: 'error', id: m.id, reason, message: reason === 'cancelled' ? 'row index cancelled' : message });
  } finally {
    await file?.close().catch(() => undefined);
    jobs.delete(m.id);
  }
}

function isMissingFile(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR' || code === 'ENOTREG';
}

parentPort?.on('message', (m: unknown) => {
  if (!isHostToWorker(m)) return;
  if (m.kind === 'cancel') jobs.get(m.id)?.abort(new Error('conversion cancelled'));
  else if (m.kind === 'rowIndex') void runRowIndexJob(m);
  else void runJob(m);
});
