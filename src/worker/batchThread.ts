// The thread side of a flow-controlled batch channel, shared by the converter and decoder threads:
// `start` runs the job once; each posted batch counts as in flight until the other side sends it
// back (`recycle`), and the job waits for room before posting more (buffer reuse and flow control
// at once); `stop` makes the job end at its next wait, and the thread ends by closing its port and
// letting the event loop run dry (terminate() during V8's background compilation once aborted the
// process: see converterThread.ts).
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '../convert/threadErrors';
import type { SerializedError } from '../protocol/threadMessages';

export type ThreadInbox<Start, Batch> = Start | { readonly kind: 'recycle'; readonly batch: Batch } | { readonly kind: 'stop' };

/** What a job sees of the channel; `Out` is the protocol's thread → caller message. */
export interface BatchOutlet<Out> {
  /** Waits until fewer than the cap are in flight; false: stop was asked (the job should return). */
  room(): Promise<boolean>;
  /** Posts a message carrying one batch (counted in flight until it comes back). */
  postBatch(message: Out, transfer: ArrayBuffer[]): void;
  /** Posts a message that carries no batch (done, progress). */
  post(message: Out): void;
  /** Stop was asked (a job that never waits for room checks this). */
  stopped(): boolean;
}

export interface BatchThreadOptions<Start, Batch, Out> {
  readonly isInbox: (m: unknown) => m is ThreadInbox<Start, Batch>;
  readonly maxInFlight: number;
  readonly run: (start: Start, outlet: BatchOutlet<Out>) => Promise<void>;
  /** A batch came back: reuse its buffers. */
  readonly recycled: (batch: Batch) => void;
  readonly errorMessage: (error: SerializedError) => Out;
}

export function serveBatchThread<Start extends { readonly kind: 'start' }, Batch, Out>(o: BatchThreadOptions<Start, Batch, Out>): void {
  const control = parentPort;
  if (control === null) return;
  // Started for a thread other than the one that started it (convert/converterHandoff.ts): the
  // protocol runs over the port it was given; `start` and `stop` may come from its starter too.
  const given = (workerData as { port?: unknown } | null)?.port;
  const port = given instanceof MessagePort ? given : control;
  const closePorts = (): void => {
    port.close();
    if (port !== control) control.close();
  };
  let running = false;
  let stopping = false;
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const wakeUp = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const outlet: BatchOutlet<Out> = {
    async room() {
      while (inFlight >= o.maxInFlight && !stopping) await new Promise<void>((resolve) => (wake = resolve));
      return !stopping;
    },
    postBatch(message, transfer) {
      inFlight++;
      port.postMessage(message, transfer);
    },
    post(message) {
      port.postMessage(message);
    },
    stopped: () => stopping,
  };
  const stop = (): void => {
    stopping = true;
    wakeUp();
    if (!running) closePorts();
  };
  const onMessage = (m: unknown): void => {
    if (!o.isInbox(m)) return;
    if (m.kind === 'stop') stop();
    else if (m.kind === 'recycle') {
      inFlight--;
      o.recycled(m.batch);
      wakeUp();
    } else if (!running) {
      running = true;
      o.run(m, outlet)
        .catch((e: unknown) => {
          if (!stopping) port.postMessage(o.errorMessage(serializeError(e)));
        })
        .finally(() => {
          running = false;
          if (stopping) closePorts();
        });
    }
  };
  port.on('message', onMessage);
  if (port !== control) {
    control.on('message', onMessage);
    // the other side let go (its thread ended or failed): nobody takes the batches any more
    port.on('close', () => {
      if (!stopping) stop();
    });
  }
}
