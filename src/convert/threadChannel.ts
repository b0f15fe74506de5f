/**
 * The caller side of a worker thread's message channel, shared by the converter and decoder
 * threads: the thread's messages in arrival order, and every way it can fail as an exception — an
 * `error` it posted (rebuilt: a FormatError keeps file and byte offset), a crash, running out of
 * its heap, an exit before its last message, or an abort of the caller's signal. `close` stops it.
 * Or the same channel to a thread another thread started and handed over (`handedOver`: the
 * CLI's main thread starts the converter thread before the job thread is up, converterHandoff.ts):
 * its messages come through a port of its own, and how it ended from the thread that started it.
 */
import { Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import { isThreadEvent, type SerializedError } from '../protocol/threadMessages';
import { deserializeError } from './threadErrors';
import { stopThread } from './threadScripts';

/** The `error` message both protocols have. */
interface ThreadFailed {
  readonly kind: 'error';
  readonly error: SerializedError;
}

export interface ThreadChannelOptions<Out> {
  readonly script: string;
  readonly resourceLimits: ResourceLimits;
  /** The protocol's guard for thread → caller messages. */
  readonly isMessage: (m: unknown) => m is Out;
  /** The error text for a message the guard refuses. */
  readonly unexpected: string;
  /** The error for a thread that ran out of its heap. */
  readonly outOfMemory: () => Error;
  /** The error for a thread that exited before `ended` was called. */
  readonly stoppedEarly: (exitCode: number) => Error;
  readonly signal?: AbortSignal;
  /** The thread is another thread's, handed over (converterHandoff.ts): no Worker is started here. */
  readonly handedOver?: { readonly data: MessagePort; readonly events: MessagePort };
}

export class ThreadChannel<In, Out extends { readonly kind: string }> {
  private readonly worker: Worker | MessagePort;
  private handedOver: ThreadChannelOptions<Out>['handedOver'];
  private readonly inbox: Out[] = [];
  private failure: Error | undefined;
  private exited = false;
  private over = false;
  private wake: (() => void) | undefined;
  private readonly onAbort = (): void => this.notify();

  constructor(private readonly o: ThreadChannelOptions<Out>) {
    const onMessage = (m: unknown): void => {
      if (o.isMessage(m)) this.inbox.push(m);
      else this.fail(new Error(o.unexpected));
      this.notify();
    };
    if (o.handedOver !== undefined) {
      const { data, events } = (this.handedOver = o.handedOver);
      this.worker = data;
      data.on('message', onMessage);
      events.on('message', (m: unknown) => {
        if (!isThreadEvent(m)) return;
        if (m.kind === 'crash') this.fail(m.outOfMemory ? o.outOfMemory() : deserializeError(m.error));
        else {
          this.exited = true;
          if (!this.over) this.fail(o.stoppedEarly(m.code));
        }
      });
    } else {
      const worker = (this.worker = new Worker(o.script, { resourceLimits: o.resourceLimits }));
      worker.on('message', onMessage);
      worker.on('error', (e: Error) => this.fail((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? o.outOfMemory() : e));
      worker.on('exit', (code) => {
        this.exited = true;
        if (!this.over) this.fail(o.stoppedEarly(code));
      });
    }
    o.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  send(m: In, transfer: ArrayBuffer[] = []): void {
    if (!this.exited) this.worker.postMessage(m, transfer);
  }

  /** The next message other than an `error` (which is thrown, as every failure is). */
  async next(): Promise<Exclude<Out, ThreadFailed>> {
    for (;;) {
      this.o.signal?.throwIfAborted();
      const m = this.inbox.shift();
      if (m === undefined) {
        if (this.failure) throw this.failure;
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      if (isThreadFailed(m)) throw deserializeError(m.error);
      // Not an `error` message, checked above (TypeScript does not narrow a generic union).
      return m as Exclude<Out, ThreadFailed>;
    }
  }

  /** The thread's last message has come: its exit is no failure any more. */
  ended(): void {
    this.over = true;
  }

  /**
   * Stops the thread with `stop` (see stopThread); idempotent. A thread handed over is only asked:
   * the thread that started it waits for its end (and terminates it if need be).
   */
  async close(stop: In): Promise<void> {
    this.over = true;
    this.o.signal?.removeEventListener('abort', this.onAbort);
    const handedOver = this.handedOver;
    if (handedOver !== undefined) {
      this.handedOver = undefined;
      if (!this.exited) this.send(stop);
      this.exited = true;
      handedOver.data.close();
      handedOver.events.close();
    } else if (!this.exited && this.worker instanceof Worker) {
      const worker = this.worker;
      await stopThread(worker, () => this.send(stop));
    }
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.notify();
  }
}

function isThreadFailed(m: { readonly kind: string }): m is ThreadFailed {
  return m.kind === 'error';
}
