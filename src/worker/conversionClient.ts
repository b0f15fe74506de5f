/**
 * Host side of the conversion worker (no VS Code API, so it is testable in plain Node): starts
 * dist/worker.js, sends one `convert` job, relays progress, and cancels cooperatively — the worker
 * removes its temporary file and answers; if it does not within a grace period it is terminated.
 * The worker runs under a heap cap; whenever it ends without answering (crash, out of memory,
 * terminated) the host removes the temporary file it left, so no partial output survives.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker, type MessagePort } from 'node:worker_threads';
import { ConverterHandoff, type ConverterHandoffData } from '../convert/converterHandoff';
import { worthTwoThreads } from '../convert/convertJob';
import { converterStart } from '../convert/converterThread';
import { removeStrayTempFiles } from '../io/atomicWrite';
import { ReasonedError, RpcChannel } from '../protocol/rpc';
import {
  isWorkerToHost,
  type ConvertResult,
  type ConvertStart,
  type HostToWorker,
  type RowIndexRequest,
  type SnapshotFile,
  type WorkerToHost,
} from '../protocol/worker';

export interface ConversionRequest {
  readonly input: string;
  readonly output: string;
  readonly force: boolean;
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
  readonly rowIndex?: RowIndexRequest;
  readonly prefixBytes?: number;
  readonly snapshotEveryMs?: number;
}

export interface ConversionLimits {
  /** Heap cap of the worker (MB): a conversion needing more is stopped with a clear message, not an OOM of the host. */
  readonly maxHeapMB?: number;
}

/** The writer needs tree depth × leaf size plus open drawables; 1 GiB leaves a wide margin. */
const DEFAULT_MAX_HEAP_MB = 1024;
/**
 * The conversion worker's young generation (MB), as the CLI's job thread's (cli/jobThread.ts): the
 * writer makes no object per drawable. Converted as the editor does (this client, dist/worker.js;
 * 3 alternating runs, medians), the 2048-rank bench CLOG2 peaked at 180 MB against 209 MB with
 * V8's default, in the same time (5.60 s against 5.64 s); the 16-rank one at 116 MB against 121 MB.
 * Row index builds keep the default.
 */
const CONVERSION_YOUNG_MB = 4;

export class ConversionFailed extends ReasonedError<'cancelled' | 'exists' | 'input' | 'failed'> {
  override readonly name = 'ConversionFailed';
}

export interface RunningConversion {
  /** Resolves with the result; rejects with ConversionFailed. */
  readonly done: Promise<ConvertResult>;
  /** Asks the worker to stop (the promise then rejects with reason `cancelled`). */
  cancel(): void;
}

/** How long a cancelled worker may take to clean up before it is terminated. */
const CANCEL_GRACE_MS = 5000;
/** Heap cap of the row index build (its memory follows the open rows, not the file). */
const ROW_INDEX_HEAP_MB = 512;

type JobReason = ConversionFailed['reason'];

interface WorkerJob<R> {
  readonly script: string;
  readonly maxHeapMB: number;
  /** Its young generation (MB), if not V8's default. */
  readonly maxYoungMB?: number;
  /** The job's start message under `id`. */
  readonly start: (id: number) => HostToWorker;
  /** The job's final answer, from the worker's `done` or `rowIndexDone` (undefined: not this job's kind). */
  readonly result: (m: WorkerToHost) => R | undefined;
  /** The file the job writes (its temporary sibling is removed when the worker dies). */
  readonly output: string;
  readonly onProgress: (done: number, total: number) => void;
  /** The SLOG-2 being written, as the worker posts it (a conversion asked for snapshots). */
  readonly onSnapshot?: (snapshot: SnapshotFile) => void;
  /** What a crash or an exit without answer says ("conversion worker", "row index worker"). */
  readonly what: string;
  /** The worker's workerData, and the ports in it to transfer. */
  readonly workerData?: unknown;
  readonly transferList?: MessagePort[];
}

/**
 * One job in its own worker thread, as a call of the RPC helper: the worker's progress, answer or
 * error settle the call; a worker that dies without answering could not remove its temporary file,
 * so the host removes it and fails the call. Cancel asks the worker (it cleans up and answers
 * `cancelled`); one stuck past the grace period is terminated.
 */
function runWorkerJob<R>(job: WorkerJob<R>): { readonly done: Promise<R>; cancel(): void } {
  const young = job.maxYoungMB !== undefined ? { maxYoungGenerationSizeMb: job.maxYoungMB } : {};
  const worker = new Worker(job.script, {
    resourceLimits: { maxOldGenerationSizeMb: job.maxHeapMB, ...young },
    ...(job.workerData !== undefined ? { workerData: job.workerData, transferList: job.transferList ?? [] } : {}),
  });
  const calls = new RpcChannel<R, readonly [number, number], JobReason>((f) => new ConversionFailed(isJobReason(f.reason) ? f.reason : 'failed', f.message));
  let id = 0;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let cancelRequested = false;
  const done = calls.call(
    (callId) => {
      id = callId;
      worker.postMessage(job.start(callId));
    },
    { onProgress: ([n, total]) => job.onProgress(n, total) },
  );
  const settle = (): void => {
    if (graceTimer) clearTimeout(graceTimer);
    void worker.terminate();
  };
  void done.then(settle, settle);
  worker.on('message', (m: unknown) => {
    if (!isWorkerToHost(m) || !calls.has(m.id)) return;
    if (m.kind === 'progress') calls.progress(m.id, [m.bytesRead, m.totalBytes]);
    else if (m.kind === 'snapshot') job.onSnapshot?.(m);
    else if (m.kind === 'error') calls.fail(m.id, { reason: m.reason, message: m.message });
    else {
      const r = job.result(m);
      if (r !== undefined) calls.answer(m.id, r);
    }
  });
  /** The worker ended without its own answer (crash, out of memory, killed): it could not remove its temp file. */
  let dying = false;
  const unclean = (failure: ConversionFailed): void => {
    // The first of 'error' and 'exit' says why (an 'exit' always follows an 'error').
    if (!calls.has(id) || dying) return;
    dying = true;
    void worker
      .terminate()
      .then(() => removeStrayTempFiles(job.output))
      .then(
        () => calls.fail(id, { reason: failure.reason, message: failure.message }),
        (e: Error) =>
          calls.fail(id, { reason: failure.reason, message: `${failure.message}; a temporary file next to ${job.output} could not be removed: ${e.message}` }),
      );
  };
  worker.on('error', (e: NodeJS.ErrnoException) =>
    unclean(
      new ConversionFailed(
        'failed',
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `${job.what} stopped: it needed more than its memory cap of ${job.maxHeapMB} MB`
          : `${job.what} crashed: ${e.message}`,
      ),
    ),
  );
  worker.on('exit', (code) =>
    unclean(cancelRequested ? new ConversionFailed('cancelled', `${job.what} cancelled`) : new ConversionFailed('failed', `${job.what} exited (code ${code})`)),
  );
  return {
    done,
    cancel: () => {
      if (!calls.has(id) || graceTimer) return;
      cancelRequested = true;
      worker.postMessage({ kind: 'cancel', id } satisfies HostToWorker);
      // A worker stuck past the grace period is terminated; its 'exit' then removes the temp file.
      graceTimer = setTimeout(() => void worker.terminate(), CANCEL_GRACE_MS);
    },
  };
}

function isJobReason(r: string): r is JobReason {
  return r === 'cancelled' || r === 'exists' || r === 'input' || r === 'failed';
}

export function startConversion(
  workerScript: string,
  request: ConversionRequest,
  onProgress: (bytesRead: number, totalBytes: number) => void,
  limits: ConversionLimits = {},
  onSnapshot?: (snapshot: SnapshotFile) => void,
): RunningConversion {
  const converter = startConverterBeside(workerScript, request);
  const job = runWorkerJob<ConvertResult>({
    script: workerScript,
    maxHeapMB: limits.maxHeapMB ?? DEFAULT_MAX_HEAP_MB,
    maxYoungMB: CONVERSION_YOUNG_MB,
    start: (id) => ({ kind: 'convert', id, ...request }) satisfies ConvertStart,
    result: (m) => (m.kind === 'done' ? m.result : undefined),
    output: request.output,
    onProgress,
    onSnapshot,
    what: 'conversion worker',
    ...(converter !== undefined
      ? { workerData: { converter: converter.handedOver } satisfies ConverterHandoffData, transferList: converter.transferList }
      : {}),
  });
  if (converter !== undefined) {
    // however the job ended (the worker stops a thread it took; one it did not take, or a dead worker's, stops here)
    const close = (): void => void converter.close();
    void job.done.then(close, close);
  }
  return job;
}

/**
 * The converter thread of a conversion the worker will run in two threads (convertJob.ts: the
 * converter thread next to the worker's script, an input worth it, not a preview), started now
 * beside the worker and handed over to it (converterHandoff.ts): the two threads start at once
 * instead of one after the other, as the CLI's (cli/jobThread.ts).
 */
function startConverterBeside(workerScript: string, request: ConversionRequest): ConverterHandoff | undefined {
  if (request.prefixBytes !== undefined) return undefined;
  const script = path.join(path.dirname(workerScript), 'converter.js');
  // (a missing input: the worker says what is wrong, no thread is started for it)
  if (!existsSync(script) || !worthTwoThreads(request.input, false)) return undefined;
  return new ConverterHandoff(script, converterStart(request.input, request.snapshotEveryMs !== undefined ? { snapshotEveryMs: request.snapshotEveryMs } : {}));
}

/**
 * Builds the row index of the SLOG-2 `trace` into `index` in a worker thread (the host keeps
 * serving windows through the plain query meanwhile). Resolves when the index is in place;
 * rejects with ConversionFailed (the worker removes its temporary file; if it dies, the host does).
 */
export function startRowIndexBuild(
  workerScript: string,
  trace: string,
  index: string,
  onProgress: (done: number, total: number) => void,
): { readonly built: Promise<void>; cancel(): void } {
  const job = runWorkerJob<true>({
    script: workerScript,
    maxHeapMB: ROW_INDEX_HEAP_MB,
    start: (id) => ({ kind: 'rowIndex', id, trace, index }),
    result: (m) => (m.kind === 'rowIndexDone' ? true : undefined),
    output: index,
    onProgress,
    what: 'row index worker',
  });
  return { built: job.done.then(() => undefined), cancel: job.cancel };
}
