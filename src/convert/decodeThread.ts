/**
 * A whole-file pass's side of the decoder thread (dist/decoder.js): starts it on a SLOG-2 file,
 * yields the batches it posts as PrimitiveBatch columns, and sends each back when the next is
 * asked for (the pass is done with a batch by then, as with ColumnStreamOptions.reuse). Errors of
 * the thread are rebuilt here (a FormatError stays one); a thread that dies without answering
 * fails the iteration with a clear message instead of waiting for ever. The thread is always
 * stopped when iteration ends, early or not.
 */
import { Worker } from 'node:worker_threads';
import { primitiveBatchesInTimeOrder, type PrimitiveBatch } from '../core/formats/slog2/columnStream';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { FileSource } from '../io/fileSource';
import type { SourceLocation } from '../core/model/types';
import { isDecoderToPass, wireBuffers, type DecoderToPass, type PassToDecoder, type WireBatch } from '../protocol/decoder';
import { deserializeError } from './threadErrors';
import { bundledScript, stopThread } from './threadScripts';

/**
 * The decoder holds a few leaves and batches: far below this. Not lower: with 256–1024 MB the
 * thread decoded 1 GB 1.1–1.25× slower (more full collections of the short-lived node columns).
 */
const MAX_HEAP_MB = 2048;
/** A small young generation: collected sooner, the columns' buffers are freed sooner (−15 MB peak RSS on 1 GB, same speed; 96 MB: +40 MB). */
const YOUNG_MB = 16;
/** dist/decoder.js next to the running bundle (dist/cli.js, dist/analysis.js), if it is there. */
export function bundledDecoderScript(): string | undefined {
  return bundledScript('decoder.js');
}

export interface DecodeThreadOptions {
  readonly signal?: AbortSignal;
  /** The file's site table (Slog2File.sourceLocationTable.sites): the thread sends indices into it. */
  readonly sites: readonly SourceLocation[];
  /** As ColumnStreamOptions (statistics): the last vertex and info columns filled; nodes checked against their bounds. */
  readonly withLastAndInfo?: boolean;
  readonly withinNodes?: boolean;
}

/** The per-row object columns of the batches yielded (reused: each batch is done with before the next). */
class ObjectColumns {
  infoSource: (Uint8Array | undefined)[] = [];
  site: (SourceLocation | undefined)[] = [];

  fit(rows: number): void {
    if (rows <= this.site.length) return;
    const n = Math.max(rows, 2 * this.site.length);
    this.infoSource = new Array<Uint8Array | undefined>(n);
    this.site = new Array<SourceLocation | undefined>(n);
  }
}

/**
 * Leaf bytes in a range below which a range is decoded in this thread: starting a thread (an
 * isolate, its bundle, the file's directory) costs about what decoding a few MiB does.
 */
const MIN_THREAD_BYTES = 32 << 20;

/**
 * The unfiltered column stream of `file`: decoded in a decoder thread when the file is on disk (a
 * FileSource), dist/decoder.js is there and the range's leaves hold ≥ 32 MiB; in this thread
 * otherwise. Undefined when the thread can never be used.
 */
export function threadDecoded(
  file: Slog2File,
  options: Omit<DecodeThreadOptions, 'sites'> = {},
  script = bundledDecoderScript(),
): ((t0: number, t1: number) => AsyncIterable<PrimitiveBatch>) | undefined {
  const source = file.source;
  if (script === undefined || !(source instanceof FileSource)) return undefined;
  const sites = file.sourceLocationTable?.sites ?? [];
  const { signal, withLastAndInfo, withinNodes } = options;
  return (t0, t1) => {
    let bytes = 0;
    for (const leaf of file.nodesOverlapping(0, t0, t1)) bytes += leaf.size;
    if (bytes >= MIN_THREAD_BYTES) return batchesFromDecoderThread(script, source.name, t0, t1, { ...options, sites });
    return primitiveBatchesInTimeOrder(file, t0, t1, {
      reuse: true,
      ...(signal ? { signal } : {}),
      ...(withLastAndInfo ? { withLastAndInfo } : {}),
      ...(withinNodes ? { withinNodes } : {}),
    });
  };
}

/** exactStatsOfFile's `decoded` option for `file` (the stream it needs, in a decoder thread), if it can have one. */
export function statsDecoded(file: Slog2File, signal?: AbortSignal): { decoded?: (t0: number, t1: number) => AsyncIterable<PrimitiveBatch> } {
  const decoded = threadDecoded(file, { withLastAndInfo: true, withinNodes: true, ...(signal ? { signal } : {}) });
  return decoded === undefined ? {} : { decoded };
}

/** The real drawables overlapping [t0, t1] of the SLOG-2 file at `file`, decoded in the thread at `script`. */
export async function* batchesFromDecoderThread(
  script: string,
  file: string,
  t0: number,
  t1: number,
  options: DecodeThreadOptions,
): AsyncGenerator<PrimitiveBatch> {
  const worker = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_MB } });
  const inbox: DecoderToPass[] = [];
  let failure: Error | undefined;
  let exited = false;
  let done = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const fail = (e: Error): void => {
    failure ??= e;
    notify();
  };
  worker.on('message', (m: unknown) => {
    if (isDecoderToPass(m)) inbox.push(m);
    else fail(new Error('decoding: unexpected message from the decoder thread'));
    notify();
  });
  worker.on('error', (e: Error) =>
    fail(
      (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new Error(`decoding ${file} needs more than the decoder thread's ${MAX_HEAP_MB} MB heap`)
        : e,
    ),
  );
  worker.on('exit', (code) => {
    exited = true;
    if (!done) fail(new Error(`the decoder thread stopped before the end of ${file} (exit code ${code})`));
  });
  const onAbort = (): void => notify();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const send = (m: PassToDecoder, transfer: ArrayBuffer[] = []): void => worker.postMessage(m, transfer);
  const withLastAndInfo = options.withLastAndInfo === true;
  send({ kind: 'start', path: file, t0, t1, withLastAndInfo, withinNodes: options.withinNodes === true });
  const objects = new ObjectColumns();
  let lent: WireBatch | undefined;
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      if (lent !== undefined) {
        send({ kind: 'recycle', batch: lent }, wireBuffers(lent));
        lent = undefined;
      }
      const m = inbox.shift();
      if (m === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (m.kind === 'error') throw deserializeError(m.error);
      if (m.kind === 'done') {
        done = true;
        return;
      }
      const w = m.batch;
      lent = w;
      objects.fit(w.rows);
      const { site, infoSource } = objects;
      for (let i = 0; i < w.rows; i++) {
        const s = w.site[i]!;
        site[i] = s >= 0 ? options.sites[s] : undefined;
      }
      if (withLastAndInfo) infoSource.fill(w.info, 0, w.rows);
      yield { ...w, site, siteIndex: w.site, infoSource };
    }
  } finally {
    done = true;
    options.signal?.removeEventListener('abort', onAbort);
    if (!exited) await stopThread(worker, () => worker.postMessage({ kind: 'stop' } satisfies PassToDecoder));
  }
}
