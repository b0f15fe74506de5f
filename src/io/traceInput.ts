/**
 * Opens a trace file for sequential reading: detects gzip by its magic bytes, decompresses as a
 * stream, and detects the format from the first (decompressed) bytes. The CLOG readers consume
 * the chunk stream with bounded memory, whatever the file size.
 */
import type { ByteChunks } from '../core/bytes/byteSource';
import { chunksOf } from '../core/bytes/memorySource';
import { detectInputFormat, type InputFormat } from '../core/formats/detectFormat';
import { FileSource } from './fileSource';
import { gunzipChunks, hasGzipMagic } from './gzip';

export type DetectedFormat = InputFormat | undefined;

export interface TraceInput {
  readonly path: string;
  /** The file as stored (compressed when gzip'd). */
  readonly file: FileSource;
  readonly gzip: boolean;
  readonly format: DetectedFormat;
  /** The (decompressed) content from its first byte; single use. */
  readonly chunks: ByteChunks;
}

/** Splits off the first chunk (for format detection) and re-yields it in front of the rest. */
export async function peekChunks(chunks: ByteChunks): Promise<{ first: Uint8Array; all: ByteChunks }> {
  const it = chunks[Symbol.asyncIterator]();
  const head = await it.next();
  const first = head.done ? new Uint8Array(0) : head.value;
  async function* all(): AsyncGenerator<Uint8Array> {
    if (!head.done) yield first;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { first, all: all() };
}

export function detectFormat(first: Uint8Array): DetectedFormat {
  return detectInputFormat(first);
}

/** Opens `path`; the caller closes `input.file`. */
export async function openTraceInput(path: string): Promise<TraceInput> {
  const file = await FileSource.open(path, { maxBlocks: 2 });
  try {
    const gzip = await hasGzipMagic(file);
    const { first, all } = await peekChunks(gzip ? gunzipChunks(file, 256 << 10) : chunksOf(file, 1 << 20));
    return { path, file, gzip, format: detectFormat(first), chunks: all };
  } catch (e) {
    await file.close();
    throw e;
  }
}
