/**
 * Host side of the conversion worker (no VS Code API, so it is testable in plain Node): starts
 * dist/worker.js, sends one `convert` job, relays progress, and cancels cooperatively — the worker
 * removes its temporary file and answers; if it does not within a grace period it is terminated.
 * The worker runs under a heap cap; whenever it ends without answering (crash, out of memory,
 * terminated) the host removes the temporary file it left, so no partial output survives.
 */
import { Worker } from 'node:worker_threads';
import { removeStrayTempFiles } from '../io/atomicWrite';
import { ReasonedError } from '../protocol/rpc';
import { isWorkerToHost, type ConvertResult, type ConvertStart, type HostToWorker, type WorkerToHost } from '../protocol/worker';

export interface ConversionRequest {
  readonly input: string;
  readonly output: string;
  readonly force: boolean;
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
}

export interface ConversionLimits {
  /** Heap cap of the worker (MB): a conversion needing more is stopped with a clear message, not an OOM of the host. */
  readonly maxHeapMB?: number;
}

/** The writer needs tree depth × leaf size plus open drawables; 1 GiB leaves a wide margin. */
const DEFAULT_MAX_HEAP_MB = 1024;

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

let nextId = 1;

export function startConversion(
  workerScript: string,
  request: ConversionRequest,
  onProgress: (bytesRead: number, totalBytes: number) => void,
  limits: ConversionLimits = {},
): RunningConversion {
  const id = nextId++;
  const maxHeapMB = limits.maxHeapMB ?? DEFAULT_MAX_HEAP_MB;
  const worker = new Worker(workerScript, { resourceLimits: { maxOldGenerationSizeMb: maxHeapMB } });
  let settled = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let cancelRequested = false;
  const send = (m: HostToWorker): void => worker.postMessage(m);

  const done = new Promise<ConvertResult>((resolve, reject) => {
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      if (graceTimer) clearTimeout(graceTimer);
      void worker.terminate();
      action();
    };
    /** The worker ended without its own answer (crash, out of memory, killed): it could not remove its temp file. */
    const finishUnclean = (failure: ConversionFailed): void => {
      if (settled) return;
      settled = true;
      if (graceTimer) clearTimeout(graceTimer);
      void worker
        .terminate()
        .then(() => removeStrayTempFiles(request.output))
        .then(
          () => reject(failure),
          (e: Error) =>
            reject(new ConversionFailed(failure.reason, `${failure.message}; a temporary file next to ${request.output} could not be removed: ${e.message}`)),
        );
    };
    worker.on('message', (m: unknown) => {
      if (!isWorkerToHost(m) || m.id !== id) return;
      const msg: WorkerToHost = m;
      if (msg.kind === 'progress') onProgress(msg.bytesRead, msg.totalBytes);
      else if (msg.kind === 'done') finish(() => resolve(msg.result));
      else if (msg.kind === 'rowIndexDone') return;
      else finish(() => reject(new ConversionFailed(msg.reason, msg.message)));
    });
    worker.on('error', (e: NodeJS.ErrnoException) => {
      const outOfMemory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finishUnclean(
        new ConversionFailed(
          'failed',
          outOfMemory ? `conversion stopped: it needed more than its memory cap of ${maxHeapMB} MB` : `conversion worker crashed: ${e.message}`,
        ),
      );
    });
    worker.on('exit', (code) =>
      finishUnclean(
        cancelRequested ? new ConversionFailed('cancelled', 'conversion cancelled') : new ConversionFailed('failed', `conversion worker exited (code ${code})`),
      ),
    );
  });

  const start: ConvertStart = { kind: 'convert', id, ...request };
  send(start);
  return {
    done,
    cancel: () => {
      if (settled || graceTimer) return;
      cancelRequested = true;
      send({ kind: 'cancel', id });
      // A worker stuck past the grace period is terminated; its 'exit' then removes the temp file.
      graceTimer = setTimeout(() => void worker.terminate(), CANCEL_GRACE_MS);
    },
  };
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
  const id = nextId++;
  const worker = new Worker(workerScript, { resourceLimits: { maxOldGenerationSizeMb: 512 } });
  let settled = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const built = new Promise<void>((resolve, reject) => {
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      if (graceTimer) clearTimeout(graceTimer);
      void worker.terminate();
      action();
    };
    worker.on('message', (m: unknown) => {
      if (!isWorkerToHost(m) || m.id !== id) return;
      if (m.kind === 'progress') onProgress(m.bytesRead, m.totalBytes);
      else if (m.kind === 'rowIndexDone') finish(resolve);
      else if (m.kind === 'error') finish(() => reject(new ConversionFailed(m.reason, m.message)));
    });
    const unclean = (why: string): void => {
      if (settled) return;
      settled = true;
      void worker
        .terminate()
        .then(() => removeStrayTempFiles(index))
        .finally(() => reject(new ConversionFailed('failed', why)));
    };
    worker.on('error', (e: Error) => unclean(`row index worker crashed: ${e.message}`));
    worker.on('exit', (code) => unclean(`row index worker exited (code ${code})`));
  });
  worker.postMessage({ kind: 'rowIndex', id, trace, index } satisfies HostToWorker);
  return {
    built,
    cancel: () => {
      if (settled || graceTimer) return;
      worker.postMessage({ kind: 'cancel', id } satisfies HostToWorker);
      graceTimer = setTimeout(() => void worker.terminate(), CANCEL_GRACE_MS);
    },
  };
}
