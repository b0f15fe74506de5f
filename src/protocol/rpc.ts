/**
 * The one request/reply helper of every channel (host ↔ workers, host ↔ webviews): ids, the table
 * of calls in flight, cancellation by AbortSignal (the peer is told), timeouts, stale answers
 * dropped (an answer to an id no longer in flight is ignored; a newer call under the same `key`
 * supersedes the older one), progress, and errors as values (`outcome`) or as rejections (`call`).
 * Pure: no Node or DOM API, so it runs in the host, workers, webviews and tests.
 */

/** An error that says why in a word (`reason`), for callers that branch on it. */
export class ReasonedError<R extends string> extends Error {
  constructor(
    readonly reason: R,
    message: string,
  ) {
    super(message);
  }
}

export type RpcFailureReason = 'cancelled' | 'superseded' | 'timeout' | 'failed';

/** Why a call ended without an answer (or with the peer's error, mapped by the caller). */
export interface RpcFailure<E = string> {
  readonly reason: RpcFailureReason | E;
  readonly message: string;
}

export type Outcome<T, E = string> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RpcFailure<E> };

export interface CallOptions<P> {
  readonly signal?: AbortSignal;
  /** Fail with `timeout` after this long without an answer (ms). */
  readonly timeoutMs?: number;
  /** A newer call with the same key supersedes this one (its answer is dropped). */
  readonly key?: string;
  readonly onProgress?: (progress: P) => void;
}

interface InFlight<R, P> {
  readonly resolve: (r: R) => void;
  readonly reject: (e: Error) => void;
  readonly onProgress: ((p: P) => void) | undefined;
  readonly key: string | undefined;
  readonly cleanup: () => void;
}

/**
 * The calls of one channel. `send(id)` posts the request; `cancel(id)` tells the peer to stop
 * (optional). Answers come back through `answer`, `progress` and `fail`; `toError` turns a
 * failure into the Error a rejected call carries.
 */
export class RpcChannel<R, P = never, E = string> {
  private nextId = 1;
  private readonly inFlight = new Map<number, InFlight<R, P>>();
  private readonly byKey = new Map<string, number>();
  /** The failure behind each rejection, for `outcome`. */
  private readonly failures = new WeakMap<Error, RpcFailure<E>>();

  constructor(
    private readonly toError: (f: RpcFailure<E>) => Error,
    private readonly cancelPeer: (id: number) => void = () => undefined,
    /** Where ids come from (default: 1, 2, … per channel; channels sharing one peer share a counter). */
    private readonly newId: () => number = () => this.nextId++,
  ) {}

  /** Calls in flight. */
  get size(): number {
    return this.inFlight.size;
  }

  /** Starts a call: `send` posts the request under `id`. Rejects with `toError(failure)`. */
  call(send: (id: number) => void, options: CallOptions<P> = {}): Promise<R> {
    if (options.signal?.aborted) {
      const failure: RpcFailure<E> = { reason: 'cancelled', message: 'cancelled' };
      const error = this.toError(failure);
      this.failures.set(error, failure);
      return Promise.reject(error);
    }
    const id = this.newId();
    if (options.key !== undefined) {
      const older = this.byKey.get(options.key);
      if (older !== undefined) {
        this.cancelPeer(older);
        this.fail(older, { reason: 'superseded', message: 'superseded by a newer request' });
      }
      this.byKey.set(options.key, id);
    }
    return new Promise<R>((resolve, reject) => {
      const onAbort = (): void => {
        this.cancelPeer(id);
        this.fail(id, { reason: 'cancelled', message: 'cancelled' });
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const timer =
        options.timeoutMs !== undefined
          ? setTimeout(() => this.fail(id, { reason: 'timeout', message: `no answer within ${options.timeoutMs} ms` }), options.timeoutMs)
          : undefined;
      this.inFlight.set(id, {
        resolve,
        reject,
        onProgress: options.onProgress,
        key: options.key,
        cleanup: () => {
          options.signal?.removeEventListener('abort', onAbort);
          if (timer !== undefined) clearTimeout(timer);
        },
      });
      send(id);
    });
  }

  /** The same call, with its failure as a value instead of a rejection. */
  async outcome(send: (id: number) => void, options: CallOptions<P> = {}): Promise<Outcome<R, E>> {
    try {
      return { ok: true, value: await this.call(send, options) };
    } catch (e) {
      const failure = e instanceof Error ? this.failures.get(e) : undefined;
      return { ok: false, error: failure ?? { reason: 'failed', message: e instanceof Error ? e.message : String(e) } };
    }
  }

  /** True when `id` is in flight (an answer to anything else is stale). */
  has(id: number): boolean {
    return this.inFlight.has(id);
  }

  /** The answer to `id`; false (and dropped) when stale. */
  answer(id: number, reply: R): boolean {
    const c = this.take(id);
    if (!c) return false;
    c.resolve(reply);
    return true;
  }

  progress(id: number, p: P): boolean {
    const c = this.inFlight.get(id);
    if (!c) return false;
    c.onProgress?.(p);
    return true;
  }

  /** Ends `id` with a failure; false when it was not in flight. */
  fail(id: number, failure: RpcFailure<E>): boolean {
    const c = this.take(id);
    if (!c) return false;
    const error = this.toError(failure);
    this.failures.set(error, failure);
    c.reject(error);
    return true;
  }

  /** Ends every call in flight with `failure` (the peer died, the channel closes). */
  failAll(failure: RpcFailure<E>): void {
    for (const id of [...this.inFlight.keys()]) this.fail(id, failure);
  }

  private take(id: number): InFlight<R, P> | undefined {
    const c = this.inFlight.get(id);
    if (!c) return undefined;
    this.inFlight.delete(id);
    if (c.key !== undefined && this.byKey.get(c.key) === id) this.byKey.delete(c.key);
    c.cleanup();
    return c;
  }
}
