/**
 * Host side of the analysis worker (no VS Code API, so it is testable in plain Node): one lazily
 * started worker thread under a heap cap, shared by every editor and view; each request is a
 * promise with progress and an AbortSignal; the worker is stopped after a while without requests
 * and restarted (pending requests fail with a clear message) if it crashes.
 */
import { Worker } from 'node:worker_threads';
import type { AnalysisResult } from '../core/analysis/types';
import type { Drawable } from '../core/model/types';
import type { RangeStats } from '../core/stats/types';
import type { FullRunProfile } from '../core/compare/profile';
import type { SiteProfile } from '../core/stats/siteIndex';
import {
  isAnalysisToHost,
  type AnalysisToHost,
  type CountDone,
  type FindDone,
  type HostToAnalysis,
  type WindowWorkDone,
  type WireSearchQuery,
} from '../protocol/analysis';
import type { WindowRequest } from '../core/query/windowRequest';
import type { WireWindow } from '../core/query/windowColumns';
import type { WindowIdentities } from '../core/query/buildWindow';
import type { SiteMarks } from '../core/search/siteMarks';
import { ReasonedError, RpcChannel } from '../protocol/rpc';

export class AnalysisFailed extends ReasonedError<'cancelled' | 'format' | 'query' | 'failed'> {
  override readonly name = 'AnalysisFailed';
}

export interface AnalysisOptions {
  readonly maxHeapMB?: number;
  /** Stop the worker after this long without requests (ms). */
  readonly idleMs?: number;
}

type AnalysisFailReason = AnalysisFailed['reason'];
type OnProgress = (fraction: number | undefined, drawables: number | undefined) => void;
interface Progress {
  readonly fraction: number | undefined;
  readonly drawables: number | undefined;
}

export class AnalysisClient {
  private worker: Worker | undefined;
  private nextId = 1;
  /** Requests in flight; a `superseded` or `timeout` failure never happens here (no keys, no timeouts). */
  private readonly calls = new RpcChannel<AnalysisToHost, Progress, AnalysisFailReason>(
    (f) => new AnalysisFailed(f.reason === 'cancelled' || f.reason === 'format' || f.reason === 'query' ? f.reason : 'failed', f.message),
    (id) => this.worker?.postMessage({ kind: 'cancel', id } satisfies HostToAnalysis),
  );
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly maxHeapMB: number;
  private readonly idleMs: number;

  constructor(
    private readonly workerScript: string,
    options: AnalysisOptions = {},
  ) {
    this.maxHeapMB = options.maxHeapMB ?? 1024;
    this.idleMs = options.idleMs ?? 30_000;
  }

  stats(
    path: string,
    range: readonly [number, number],
    lowestDepth: number,
    options: { signal?: AbortSignal; onProgress?: OnProgress } = {},
  ): Promise<RangeStats> {
    return this.request({ kind: 'stats', id: 0, path, range, lowestDepth, approximate: lowestDepth > 0 }, options).then(
      (m) => (m as { stats: RangeStats }).stats,
    );
  }

  count(
    path: string,
    query: WireSearchQuery,
    bins: number,
    options: { signal?: AbortSignal; range?: readonly [number, number]; onProgress?: OnProgress } = {},
  ): Promise<CountDone> {
    return this.request({ kind: 'count', id: 0, path, query, bins, ...(options.range ? { range: options.range } : {}) }, options) as Promise<CountDone>;
  }

  find(
    path: string,
    query: WireSearchQuery,
    from: { time: number } | { drawable: Drawable },
    direction: 1 | -1,
    wrap: boolean,
    options: { signal?: AbortSignal } = {},
  ): Promise<FindDone> {
    return this.request({ kind: 'find', id: 0, path, query, from, direction, wrap }, options) as Promise<FindDone>;
  }

  ordinal(path: string, query: WireSearchQuery, drawable: Drawable, options: { signal?: AbortSignal } = {}): Promise<number> {
    return this.request({ kind: 'ordinal', id: 0, path, query, drawable }, options).then((m) => (m as { ordinal: number }).ordinal);
  }

  /** Wait states, critical path and trace problems of the file (or of `range`). */
  waits(
    path: string,
    options: { signal?: AbortSignal; range?: readonly [number, number]; maxInstances?: number; onProgress?: OnProgress } = {},
  ): Promise<AnalysisResult> {
    const message = { kind: 'waits', id: 0, path, maxInstances: options.maxInstances ?? 100_000, ...(options.range ? { range: options.range } : {}) } as const;
    return this.request(message, options).then((m) => (m as { result: AnalysisResult }).result);
  }

  /** Statistics, per-site numbers and iterations of one run (for a comparison). */
  profile(path: string, range: readonly [number, number], options: { signal?: AbortSignal; marker?: string } = {}): Promise<FullRunProfile> {
    return this.request({ kind: 'profile', id: 0, path, range, ...(options.marker !== undefined ? { marker: options.marker } : {}) }, options).then(
      (m) => (m as { profile: FullRunProfile }).profile,
    );
  }

  /** Per source site numbers of [t0, t1] (CodeLenses, hovers). */
  sites(path: string, range: readonly [number, number], options: { signal?: AbortSignal; lines?: readonly number[] } = {}): Promise<SiteProfile> {
    const lines = options.lines;
    return this.request({ kind: 'sites', id: 0, path, range, ...(lines !== undefined ? { lines } : {}) }, options).then(
      (m) => (m as { profile: SiteProfile }).profile,
    );
  }

  /** A timeline payload of the file built in the worker (see WindowWorkRequest), with its identities. */
  window(
    path: string,
    request: WindowRequest,
    depth: number,
    options: { signal?: AbortSignal; marks?: SiteMarks } = {},
  ): Promise<{ readonly wire: WireWindow; readonly ids: WindowIdentities | undefined }> {
    const message = { kind: 'window', id: 0, path, request, depth, ...(options.marks !== undefined ? { marks: options.marks } : {}) } as const;
    return this.request(message, options).then((m) => {
      const done = m as WindowWorkDone;
      return { wire: done.window, ids: done.ids };
    });
  }

  /** The file changed or closed: the worker drops its open reader. */
  forget(path: string): void {
    if (this.worker) this.worker.postMessage({ kind: 'forget', id: this.nextId++, path } satisfies HostToAnalysis);
  }

  /** Number of live worker threads (0 or 1), for leak tests. */
  get liveWorkers(): number {
    return this.worker ? 1 : 0;
  }

  dispose(): void {
    this.disposed = true;
    this.stop(new AnalysisFailed('cancelled', 'analysis worker disposed'));
  }

  private request(
    message: Exclude<HostToAnalysis, { kind: 'cancel' | 'forget' }>,
    options: { signal?: AbortSignal; onProgress?: OnProgress },
  ): Promise<AnalysisToHost> {
    if (this.disposed) return Promise.reject(new AnalysisFailed('cancelled', 'analysis worker disposed'));
    if (options.signal?.aborted) return Promise.reject(new AnalysisFailed('cancelled', 'cancelled'));
    const worker = this.ensureWorker();
    const onProgress = options.onProgress;
    const reply = this.calls.call(
      (id) => {
        this.nextId = id + 1;
        worker.postMessage({ ...message, id });
      },
      { ...(options.signal ? { signal: options.signal } : {}), ...(onProgress ? { onProgress: (p: Progress) => onProgress(p.fraction, p.drawables) } : {}) },
    );
    const settled = (): void => {
      if (this.calls.size === 0) this.armIdleTimer();
    };
    reply.then(settled, settled);
    return reply;
  }

  private ensureWorker(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerScript, { resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMB } });
    worker.unref();
    worker.on('message', (m: unknown) => {
      if (!isAnalysisToHost(m)) return;
      if (m.kind === 'progress') this.calls.progress(m.id, { fraction: m.fraction, drawables: m.drawables });
      else if (m.kind === 'error') this.calls.fail(m.id, { reason: m.reason, message: m.message });
      else this.calls.answer(m.id, m);
    });
    worker.on('error', (e: NodeJS.ErrnoException) => {
      const message =
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `analysis stopped: it needed more than its memory cap of ${this.maxHeapMB} MB`
          : `analysis worker crashed: ${e.message}`;
      this.stop(new AnalysisFailed('failed', message));
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.stop(new AnalysisFailed('failed', 'analysis worker exited'));
    });
    this.worker = worker;
    return worker;
  }

  private armIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.stop(undefined), this.idleMs);
    this.idleTimer.unref?.();
  }

  /** Terminates the worker; pending requests fail with `failure`. */
  private stop(failure: AnalysisFailed | undefined): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const worker = this.worker;
    this.worker = undefined;
    const f = failure ?? new AnalysisFailed('cancelled', 'analysis worker stopped');
    this.calls.failAll({ reason: f.reason, message: f.message });
    if (worker) void worker.terminate();
  }
}
