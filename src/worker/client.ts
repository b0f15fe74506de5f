/**
 * Host side of the conversion worker (no VS Code API, so it is testable in plain Node): starts
 * dist/worker.js, sends one `convert` job, relays progress, and cancels cooperatively — the worker
 * removes its temporary file and answers; if it does not within a grace period it is terminated.
 */
import { Worker } from 'node:worker_threads';
import { isWorkerToHost, type ConvertResult, type ConvertStart, type HostToWorker, type WorkerToHost } from '../protocol/worker';

export interface ConversionRequest {
  readonly input: string;
  readonly output: string;
  readonly force: boolean;
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
}

export class ConversionFailed extends Error {
  constructor(
    readonly reason: 'cancelled' | 'exists' | 'input' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'ConversionFailed';
  }
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

export function startConversion(workerScript: string, request: ConversionRequest, onProgress: (bytesRead: number, totalBytes: number) => void): RunningConversion {
  const id = nextId++;
  const worker = new Worker(workerScript);
  let settled = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const send = (m: HostToWorker): void => worker.postMessage(m);

  const done = new Promise<ConvertResult>((resolve, reject) => {
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      if (graceTimer) clearTimeout(graceTimer);
      void worker.terminate();
      action();
    };
    worker.on('message', (m: unknown) => {
      if (!isWorkerToHost(m) || m.id !== id) return;
      const msg: WorkerToHost = m;
      if (msg.kind === 'progress') onProgress(msg.bytesRead, msg.totalBytes);
      else if (msg.kind === 'done') finish(() => resolve(msg.result));
      else finish(() => reject(new ConversionFailed(msg.reason, msg.message)));
    });
    worker.on('error', (e) => finish(() => reject(new ConversionFailed('failed', `conversion worker crashed: ${e.message}`))));
    worker.on('exit', (code) => finish(() => reject(new ConversionFailed('failed', `conversion worker exited (code ${code})`))));
  });

  const start: ConvertStart = { kind: 'convert', id, ...request };
  send(start);
  return {
    done,
    cancel: () => {
      if (settled || graceTimer) return;
      send({ kind: 'cancel', id });
      graceTimer = setTimeout(() => void worker.terminate(), CANCEL_GRACE_MS);
    },
  };
}
