/**
 * The writer thread's side of a two-thread conversion: starts the converter thread
 * (dist/converter.js), yields the drawable batches it posts, and sends each back once written.
 * Errors of the converter thread are rebuilt here (a FormatError stays a FormatError naming the
 * file and byte offset); if the thread dies without answering (crash, heap cap) iteration fails
 * with a clear message instead of waiting forever. close() always stops the thread.
 */
import { Worker } from 'node:worker_threads';
import { batchBuffers, type DrawableBatch } from '../core/formats/slog2/writer/drawableBatch';
import { isConverterToWriter, type ConverterDone, type ConverterToWriter, type WriterToConverter } from '../protocol/converter';
import { deserializeError } from './threadErrors';
import { stopThread } from './threadScripts';

export interface ConverterThreadOptions {
  readonly referenceQuirks?: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Heap cap of the converter thread (MB). */
  readonly maxHeapMB?: number;
}

/**
 * The converter holds open states and pending messages, not the trace: far below this. Not lower:
 * V8 sizes the young generation from the cap, and under ~2 GB the converter's short-lived
 * drawable objects cost 1.3–1.5× the time in garbage collection (measured on the 300 MB bench).
 */
const DEFAULT_MAX_HEAP_MB = 2048;

export class ConverterThread implements AsyncIterable<DrawableBatch> {
  private readonly worker: Worker;
  private readonly inbox: ConverterToWriter[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private finished: ConverterDone | undefined;
  private closed = false;
  private exited = false;
  private lines: number | undefined;

  constructor(
    script: string,
    input: string,
    private readonly options: ConverterThreadOptions = {},
  ) {
    this.worker = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMB ?? DEFAULT_MAX_HEAP_MB } });
    this.worker.on('message', (m: unknown) => {
      if (isConverterToWriter(m)) this.inbox.push(m);
      else this.fail(new Error('conversion: unexpected message from the converter thread'));
      this.notify();
    });
    this.worker.on('error', (e: Error) => {
      const oom = (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(
        oom ? new Error(`converting ${input} needs more memory than the converter thread's ${options.maxHeapMB ?? DEFAULT_MAX_HEAP_MB} MB heap cap`) : e,
      );
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      if (!this.finished) this.fail(new Error(`the converter thread stopped before the end of ${input} (exit code ${code})`));
    });
    options.signal?.addEventListener('abort', () => this.notify(), { once: true });
    this.send({ kind: 'start', input, referenceQuirks: options.referenceQuirks ?? false });
  }

  /** What the converter reported at the end of the input; available once iteration has ended. */
  get result(): ConverterDone {
    if (!this.finished) throw new Error('internal error: conversion result read before the end of the input');
    return this.finished;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DrawableBatch> {
    for (;;) {
      this.options.signal?.throwIfAborted();
      const m = this.inbox.shift();
      if (m === undefined) {
        if (this.failure) throw this.failure;
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      if (m.kind === 'error') throw deserializeError(m.error);
      if (m.kind === 'done') {
        this.finished = m;
        this.options.onProgress?.(m.inputBytes, m.inputBytes);
        return;
      }
      this.options.onProgress?.(m.bytesRead, m.totalBytes);
      if (m.declaredLines !== undefined) this.lines = m.declaredLines;
      yield m.batch;
    }
  }

  /** The line IDs the input declares up front, once a batch has said (ClogConversion.declaredLines). */
  get declaredLines(): number | undefined {
    return this.lines;
  }

  /** Returns a written batch to the converter (reuse, and room for the next one). */
  recycle(batch: DrawableBatch): void {
    if (!this.closed && !this.finished) this.send({ kind: 'recycle', batch }, batchBuffers(batch));
  }

  /** Stops the converter thread (idempotent; see stopThread). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.exited) return;
    await stopThread(this.worker, () => this.send({ kind: 'stop' }));
  }

  private send(m: WriterToConverter, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }
}
