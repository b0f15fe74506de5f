// worker_threads entry: the converter half of a two-thread conversion (see src/convert/converterThread.ts).
// It reads and converts the input, encodes the drawables into batches and posts them, keeping at
// most MAX_IN_FLIGHT batches unreturned (batchThread.ts); protocol in src/protocol/converter.ts.
import type { DrawableBatch } from '../core/formats/slog2/writer/drawableBatch';
import { batchBuffers } from '../core/formats/slog2/writer/drawableBatch';
import { ConversionBatches } from '../core/formats/slog2/writer/writeConversion';
import type { ConversionTrailer } from '../core/formats/convert/result';
import { isWriterToConverter, type ConverterStart, type ConverterToWriter } from '../protocol/converter';
import { openConversionInput } from '../convert/conversionInput';
import { serveBatchThread, type BatchOutlet } from './batchThread';
import { detachOneBufferNow } from '../convert/bufferDetach';

/**
 * Batches posted and not yet sent back (~1 MiB each): slack for the writer's bursts (a high node, a
 * GC pause). 8, not 16: the same speed, and a 2048-rank conversion's peak RSS about 20 MB lower
 * (7 alternating runs, with the writer's column pool at 16 MB).
 */
const MAX_IN_FLIGHT = 8;

let recycled: ((b: DrawableBatch) => void) | undefined;

async function run(m: ConverterStart, outlet: BatchOutlet<ConverterToWriter>): Promise<void> {
  let bytesRead = 0;
  let totalBytes = 0;
  const { file, format, conversion } = await openConversionInput(m.input, {
    referenceQuirks: m.referenceQuirks,
    ...(m.prefixBytes !== undefined ? { prefixBytes: m.prefixBytes } : {}),
    snapshots: m.snapshotEveryMs !== undefined,
    onProgress: (read, total) => {
      bytesRead = read;
      totalBytes = total;
    },
  });
  try {
    const batches = new ConversionBatches(conversion);
    recycled = (b) => batches.encoder.recycle(b);
    let lastTrailer = Date.now();
    for await (const batch of batches) {
      if (!(await outlet.room())) return;
      // Read now, with every category this batch (and those before it) uses.
      let trailer: ConversionTrailer | undefined;
      if (m.snapshotEveryMs !== undefined && Date.now() - lastTrailer >= m.snapshotEveryMs) {
        trailer = conversion.trailerSoFar?.();
        lastTrailer = Date.now();
      }
      outlet.postBatch(
        { kind: 'batch', batch, bytesRead, totalBytes, declaredLines: conversion.declaredLines?.(), ...(trailer !== undefined ? { trailer } : {}) },
        batchBuffers(batch),
      );
    }
    outlet.post({ kind: 'done', format, inputBytes: file.size, summary: conversion.summary, dropped: batches.dropped });
  } finally {
    await file.close();
  }
}

// every batch posted is transferred, so detached here: the first detach, before the job (bufferDetach.ts)
detachOneBufferNow();
serveBatchThread({
  isInbox: isWriterToConverter,
  maxInFlight: MAX_IN_FLIGHT,
  run,
  recycled: (batch: DrawableBatch) => recycled?.(batch),
  errorMessage: (error): ConverterToWriter => ({ kind: 'error', error }),
});
