// Work shared by its callers: one run per key at a time (a second caller joins the running one),
// and waiting for work that may outlive the waiter.

export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  /** The running work of `key`, or `start()`'s, kept until it settles. */
  run(key: string, start: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running !== undefined) return running;
    const work = start().finally(() => this.running.delete(key));
    this.running.set(key, work);
    return work;
  }

  has(key: string): boolean {
    return this.running.has(key);
  }
}

/** `work`, or a rejection with the abort reason as soon as `signal` aborts (the work itself goes on). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
