// worker_threads entry: the converter half of a two-thread conversion (see src/convert/converterThread.ts).
// It reads and converts the input, encodes the drawables into batches and posts them, keeping at
// most MAX_IN_FLIGHT batches unreturned; protocol in src/protocol/converter.ts. It is stopped
// by terminate() when the writer is cancelled or fails.
import { parentPort } from 'node:worker_threads';
import type { DrawableBatch } from '../core/formats/slog2/writer/drawableBatch';
import { batchBuffers } from '../core/formats/slog2/writer/drawableBatch';
import { ConversionBatches } from '../core/formats/slog2/writer/writeConversion';
import { isWriterToConverter, type ConverterStart, type ConverterToWriter } from '../protocol/converter';
import { serializeError } from '../convert/threadErrors';
import { openConversionInput } from '../convert/conversionInput';

/** Batches posted and not yet sent back (~1 MiB each): slack for the writer's bursts (a high node, a GC pause). */
const MAX_IN_FLIGHT = 16;

let recycled: ((b: DrawableBatch) => void) | undefined;
let running = false;
let stopping = false;
let inFlight = 0;
let wake: (() => void) | undefined;

function post(m: ConverterToWriter, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(m, transfer);
}

async function run(m: ConverterStart): Promise<void> {
  let bytesRead = 0;
  let totalBytes = 0;
  const { file, format, conversion } = await openConversionInput(m.input, {
    referenceQuirks: m.referenceQuirks,
    onProgress: (read, total) => {
      bytesRead = read;
      totalBytes = total;
    },
  });
  try {
    const batches = new ConversionBatches(conversion);
    recycled = (b) => batches.encoder.recycle(b);
    for await (const batch of batches) {
      while (inFlight >= MAX_IN_FLIGHT && !stopping) await new Promise<void>((resolve) => (wake = resolve));
      if (stopping) return;
      inFlight++;
      post({ kind: 'batch', batch, bytesRead, totalBytes, declaredLines: conversion.declaredLines?.() }, batchBuffers(batch));
    }
    post({ kind: 'done', format, inputBytes: file.size, summary: conversion.summary, dropped: batches.dropped });
  } finally {
    await file.close();
  }
}

/** Resumes the run loop if it waits for a returned batch (or to notice `stop`). */
function wakeUp(): void {
  const w = wake;
  wake = undefined;
  w?.();
}

/** Ends the thread by letting its event loop run dry (no terminate()). */
function finish(): void {
  parentPort?.close();
}

parentPort?.on('message', (m: unknown) => {
  if (!isWriterToConverter(m)) return;
  if (m.kind === 'stop') {
    stopping = true;
    wakeUp();
    if (!running) finish();
  } else if (m.kind === 'recycle') {
    inFlight--;
    recycled?.(m.batch);
    wakeUp();
  } else {
    running = true;
    run(m)
      .catch((e: unknown) => {
        if (!stopping) post({ kind: 'error', error: serializeError(e) });
      })
      .finally(() => {
        running = false;
        if (stopping) finish();
      });
  }
});
