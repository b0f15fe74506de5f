/**
 * The writer thread's side of a two-thread conversion: starts the converter thread
 * (dist/converter.js), yields the drawable batches it posts, and sends each back once written.
 * Errors of the converter thread are rebuilt here (a FormatError stays a FormatError naming the
 * file and byte offset); if the thread dies without answering (crash, heap cap) iteration fails
 * with a clear message instead of waiting forever. close() always stops the thread.
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { HandedOverConverter } from './converterHandoff';
import { batchBuffers, type DrawableBatch } from '../core/formats/slog2/writer/drawableBatch';
import { isConverterToWriter, type ConverterDone, type ConverterStart, type ConverterToWriter, type WriterToConverter } from '../protocol/converter';
import { ThreadChannel, type ThreadChannelOptions } from './threadChannel';
import { detachOneBufferNow } from './bufferDetach';
import type { ConversionTrailer } from '../core/formats/convert/result';

export interface ConverterThreadOptions {
  readonly referenceQuirks?: boolean;
  /** Convert only this many bytes of the input (conversionInput.ts `prefixBytes`). */
  readonly prefixBytes?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Ask for the categories and Y maps so far with a batch at most this often (ms): `takeTrailer`. */
  readonly snapshotEveryMs?: number;
  /** Heap cap of the converter thread (MB). */
  readonly maxHeapMB?: number;
  /**
   * A converter thread another thread started for this one (converterHandoff.ts): taken instead
   * of starting one if it was started on the `start` this conversion asks for, else stopped.
   */
  readonly handedOver?: HandedOverConverter;
}

/**
 * The converter holds open states and pending messages, not the trace: far below this (~1 KB a
 * rank: 66 MB live at 65 536 ranks). Its young generation is set on its own (YOUNG_MB). The cap
 * is also how much garbage V8 lets pile up: it scales the old generation's growing factor with it
 * (up to 4× the live heap with a 2 GB cap, ~1.6× with 1 GB). With 2048 the converter's heap peaked
 * at 70 MB at 16 384 ranks and 214 MB at 65 536; with 1024, 41 and 117 MB (the process: 365 → 345
 * MB and 832 → 715 MB). The editor's conversion worker has the same 1 GB cap.
 */
const DEFAULT_MAX_HEAP_MB = 1024;
/**
 * The converter thread's young generation. It makes no object per drawable (pendingPrimitives.ts),
 * so what it allocates is little and mostly long-lived (open states, queues): a small young
 * generation is collected sooner and holds less. 2048-rank bench input: peak RSS 287 → 256 MB at
 * the same time (7 alternating runs, medians; 16 MB: 263 MB); 2 and 16 ranks: same time and peak.
 * 4 MB (with the CLI's job thread at 4 too, jobThread.ts): another ~8 MB less on every shape.
 */
const YOUNG_MB = 4;

/** The converter thread's heap limits (wherever it is started: here, or converterHandoff.ts). */
export function converterResourceLimits(maxHeapMB = DEFAULT_MAX_HEAP_MB): ResourceLimits {
  return { maxOldGenerationSizeMb: maxHeapMB, maxYoungGenerationSizeMb: YOUNG_MB };
}

/** The converter thread's channel: its script, heap limits, and what each failure says. */
function converterChannelOptions(script: string, input: string, maxHeapMB = DEFAULT_MAX_HEAP_MB): ThreadChannelOptions<ConverterToWriter> {
  return {
    script,
    resourceLimits: converterResourceLimits(maxHeapMB),
    isMessage: isConverterToWriter,
    unexpected: 'conversion: unexpected message from the converter thread',
    outOfMemory: () => new Error(`converting ${input} needs more memory than the converter thread's ${maxHeapMB} MB heap cap`),
    stoppedEarly: (code) => new Error(`the converter thread stopped before the end of ${input} (exit code ${code})`),
  };
}

/** The `start` message for converting `input` with `options`. */
export function converterStart(
  input: string,
  options: Pick<ConverterThreadOptions, 'referenceQuirks' | 'prefixBytes' | 'snapshotEveryMs'> = {},
): ConverterStart {
  return {
    kind: 'start',
    input,
    referenceQuirks: options.referenceQuirks ?? false,
    ...(options.prefixBytes !== undefined ? { prefixBytes: options.prefixBytes } : {}),
    ...(options.snapshotEveryMs !== undefined ? { snapshotEveryMs: options.snapshotEveryMs } : {}),
  };
}

export class ConverterThread implements AsyncIterable<DrawableBatch> {
  private readonly thread: ThreadChannel<WriterToConverter, ConverterToWriter>;
  private finished: ConverterDone | undefined;
  /** The thread being stopped (close(), or at once when its last message came). */
  private stopping: Promise<void> | undefined;
  private lines: number | undefined;
  private trailer: ConversionTrailer | undefined;
  private read = 0;

  constructor(
    script: string,
    input: string,
    private readonly options: ConverterThreadOptions = {},
  ) {
    // every batch sent back to the converter is transferred, so detached in this thread: the
    // first detach, before the writer's code is optimised (bufferDetach.ts)
    detachOneBufferNow();
    const start = converterStart(input, options);
    const given = options.handedOver;
    const taken = given !== undefined && sameStart(given.start, start) && options.maxHeapMB === undefined ? given : undefined;
    if (given !== undefined && taken === undefined) {
      // started on something else: stopped, and a thread of this conversion's own started
      given.data.postMessage({ kind: 'stop' } satisfies WriterToConverter);
      given.data.close();
      given.events.close();
    }
    this.thread = new ThreadChannel<WriterToConverter, ConverterToWriter>({
      ...converterChannelOptions(script, input, options.maxHeapMB),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(taken !== undefined ? { handedOver: taken } : {}),
    });
    if (taken === undefined) this.thread.send(start);
  }

  /** What the converter reported at the end of the input; available once iteration has ended. */
  get result(): ConverterDone {
    if (!this.finished) throw new Error('internal error: conversion result read before the end of the input');
    return this.finished;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DrawableBatch> {
    for (;;) {
      const m = await this.thread.next();
      if (m.kind === 'done') {
        this.finished = m;
        this.thread.ended();
        // Stopped now, not when the caller closes: the thread's teardown (~0.1 s, its heap freed)
        // overlaps the writer's last nodes and the output's rename instead of following them.
        this.close().catch(() => undefined);
        this.options.onProgress?.(m.inputBytes, m.inputBytes);
        return;
      }
      this.options.onProgress?.(m.bytesRead, m.totalBytes);
      if (m.declaredLines !== undefined) this.lines = m.declaredLines;
      this.trailer = m.trailer;
      this.read = m.bytesRead;
      yield m.batch;
    }
  }

  /** The line IDs the input declares up front, once a batch has said (ClogConversion.declaredLines). */
  get declaredLines(): number | undefined {
    return this.lines;
  }

  /** The categories and Y maps that came with the batch just yielded, if it brought them (once). */
  takeTrailer(): ConversionTrailer | undefined {
    const t = this.trailer;
    this.trailer = undefined;
    return t;
  }

  /** Input bytes the converter had read when it posted the batch just yielded. */
  get bytesRead(): number {
    return this.read;
  }

  /** Returns a written batch to the converter (reuse, and room for the next one). */
  recycle(batch: DrawableBatch): void {
    if (this.stopping === undefined && !this.finished) this.thread.send({ kind: 'recycle', batch }, batchBuffers(batch));
  }

  /** Stops the converter thread (idempotent; see stopThread). */
  close(): Promise<void> {
    return (this.stopping ??= this.thread.close({ kind: 'stop' }));
  }
}

function sameStart(a: ConverterStart, b: ConverterStart): boolean {
  return a.input === b.input && a.referenceQuirks === b.referenceQuirks && a.prefixBytes === b.prefixBytes && a.snapshotEveryMs === b.snapshotEveryMs;
}
