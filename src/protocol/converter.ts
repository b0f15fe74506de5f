/**
 * The protocol between a conversion's writer thread and its converter thread
 * (src/worker/converter.ts): the converter thread reads and converts the input and posts the
 * drawables as encoded batches (their buffers transferred, not copied); the writer thread sends
 * each batch back once written, which is both buffer reuse and flow control — the converter keeps
 * at most a few batches in flight, so memory stays bounded however fast it runs.
 */
import type { ConversionSummary, ConversionTrailer, ConvertibleFormat } from '../core/formats/convert/result';
import type { DrawableBatch } from '../core/formats/slog2/writer/drawableBatch';
import { isRecord, isSerializedError, type SerializedError } from './threadMessages';

//#region writer → converter

export interface ConverterStart {
  readonly kind: 'start';
  readonly input: string;
  readonly referenceQuirks: boolean;
  /** Convert only this many bytes of the input (conversionInput.ts `prefixBytes`). */
  readonly prefixBytes?: number;
  /** Attach the categories and Y maps so far (`trailer`) to a batch at most this often (ms): the writer snapshots the file then. */
  readonly snapshotEveryMs?: number;
}

/** A batch the writer is done with (the converter reuses it; one more batch may be sent). */
export interface ConverterRecycle {
  readonly kind: 'recycle';
  readonly batch: DrawableBatch;
}

/**
 * Finish: stop reading (if still at it) and let the thread end by itself. Ending a thread with
 * terminate() while V8 compiles its code in the background can abort the whole process (a Node
 * platform assertion seen in CI), so terminate() is only the fallback.
 */
export interface ConverterStop {
  readonly kind: 'stop';
}

export type WriterToConverter = ConverterStart | ConverterRecycle | ConverterStop;

//#endregion

//#region converter → writer

export interface ConverterBatch {
  readonly kind: 'batch';
  readonly batch: DrawableBatch;
  /** Input bytes read so far (of the file on disk) and the file size. */
  readonly bytesRead: number;
  readonly totalBytes: number;
  /** The line IDs the input declares up front (ClogConversion.declaredLines), once known. */
  readonly declaredLines?: number;
  /** The categories and Y maps as of this batch, when the writer is to take a snapshot after it. */
  readonly trailer?: ConversionTrailer;
}

/** The input has been read to the end; every batch has been sent. */
export interface ConverterDone {
  readonly kind: 'done';
  readonly format: ConvertibleFormat;
  readonly inputBytes: number;
  readonly summary: ConversionSummary;
  /** Drawables the one-pass writer could not place (damaged input), dropped. */
  readonly dropped: number;
}

export interface ConverterFailed {
  readonly kind: 'error';
  readonly error: SerializedError;
}

export type ConverterToWriter = ConverterBatch | ConverterDone | ConverterFailed;

//#endregion

export function isWriterToConverter(m: unknown): m is WriterToConverter {
  if (!isRecord(m)) return false;
  if (m.kind === 'start')
    return (
      typeof m.input === 'string' &&
      typeof m.referenceQuirks === 'boolean' &&
      (m.prefixBytes === undefined || typeof m.prefixBytes === 'number') &&
      (m.snapshotEveryMs === undefined || typeof m.snapshotEveryMs === 'number')
    );
  if (m.kind === 'stop') return true;
  return m.kind === 'recycle' && isRecord(m.batch);
}

export function isConverterToWriter(m: unknown): m is ConverterToWriter {
  if (!isRecord(m)) return false;
  if (m.kind === 'batch')
    return (
      isRecord(m.batch) &&
      typeof m.bytesRead === 'number' &&
      typeof m.totalBytes === 'number' &&
      (m.declaredLines === undefined || typeof m.declaredLines === 'number') &&
      (m.trailer === undefined || (isRecord(m.trailer) && Array.isArray(m.trailer.categories) && Array.isArray(m.trailer.lineIDMaps)))
    );
  if (m.kind === 'done')
    return (
      (m.format === 'clog2' || m.format === 'clog' || m.format === 'alog' || m.format === 'slog1') &&
      isRecord(m.summary) &&
      typeof m.dropped === 'number' &&
      typeof m.inputBytes === 'number'
    );
  return m.kind === 'error' && isSerializedError(m.error);
}
