/**
 * A converter thread started by one thread for the writer in another: the CLI's main thread starts
 * `mpe-trace convert`'s converter thread together with its job thread (cli/jobThread.ts), so the
 * two start in parallel and the converter reads its first batches while the job thread loads,
 * instead of starting only once the job thread is up and has started it (one thread's start after
 * the other's). The converter thread speaks its protocol (protocol/converter.ts) with the writer
 * over a port of its own (`data`), batches going straight from one to the other; the starting
 * thread keeps the Worker, tells the writer how the thread ended (`events`: a crash, its heap cap,
 * its exit) and stops it (`close`). The writer takes the thread only for the `start` it was started
 * with (`ConverterThreadOptions.handedOver`), else stops it and starts its own.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { ConverterStart } from '../protocol/converter';
import type { ThreadEvent } from '../protocol/threadMessages';
import { converterResourceLimits } from './converterThread';
import { serializeError } from './threadErrors';
import { stopThread } from './threadScripts';

/** What the writer's thread is given (transfer `data` and `events`). */
export interface HandedOverConverter {
  /** What the thread was started on. */
  readonly start: ConverterStart;
  /** The writer's end of the thread's protocol. */
  readonly data: MessagePort;
  /** How the thread ended, from the thread that started it. */
  readonly events: MessagePort;
}

/**
 * The workerData of a thread given a converter thread (the CLI's job thread, the editor's
 * conversion worker): the thread takes it for the conversion it was started for.
 */
export interface ConverterHandoffData {
  readonly converter?: HandedOverConverter;
}

export class ConverterHandoff {
  /** For the writer's thread: transfer with `transferList`. */
  readonly handedOver: HandedOverConverter;
  private readonly worker: Worker;
  private readonly events: MessagePort;
  private exited = false;
  private closing: Promise<void> | undefined;

  /** Starts the converter thread (`script`) on `start` at once. */
  constructor(script: string, start: ConverterStart) {
    const data = new MessageChannel();
    const events = new MessageChannel();
    this.worker = new Worker(script, { resourceLimits: converterResourceLimits(), workerData: { port: data.port1 }, transferList: [data.port1] });
    this.worker.postMessage(start);
    this.events = events.port1;
    this.handedOver = { start, data: data.port2, events: events.port2 };
    const tell = (m: ThreadEvent): void => this.events.postMessage(m);
    this.worker.on('error', (e: Error) =>
      tell({ kind: 'crash', outOfMemory: (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY', error: serializeError(e) }),
    );
    this.worker.on('exit', (code) => {
      this.exited = true;
      tell({ kind: 'exit', code });
    });
  }

  /** The ports to transfer with `handedOver`. */
  get transferList(): MessagePort[] {
    return [this.handedOver.data, this.handedOver.events];
  }

  /** Stops the thread if it still runs (see stopThread) and waits for its end; idempotent. */
  close(): Promise<void> {
    return (this.closing ??= (this.exited ? Promise.resolve() : stopThread(this.worker, () => this.worker.postMessage({ kind: 'stop' }))).finally(() =>
      this.events.close(),
    ));
  }
}
