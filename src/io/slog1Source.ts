/**
 * A SLOG-1 file for positional reads (its header points at its tables and frames): the file
 * itself, or its decompressed bytes when gzip'd — sniffed before anything is inflated, so a file
 * that is not SLOG-1 is never unpacked.
 */
import type { ByteSource } from '../core/bytes/byteSource';
import { looksLikeSlog1 } from '../core/formats/slog1/header';
import { Slog1File } from '../core/formats/slog1/slog1File';
import { FileSource } from './fileSource';
import { gunzipChunks, gunzipToMemory, hasGzipMagic } from './gzip';

/** Decompressed SLOG-1 input is held in memory; refuse beyond this. */
export const MAX_GUNZIPPED_SLOG1_BYTES = 2 ** 31;

/** The SLOG-1 file at `path` as a ByteSource, or undefined when its content is not SLOG-1. */
export async function openSlog1ByteSource(path: string): Promise<ByteSource | undefined> {
  const file = await FileSource.open(path);
  let keep = false;
  try {
    if (!(await hasGzipMagic(file))) {
      keep = looksLikeSlog1(await file.read(0, Math.min(64, file.size)));
      return keep ? file : undefined;
    }
    const it = gunzipChunks(file, 64 << 10)[Symbol.asyncIterator]();
    const first = await it.next();
    await it.return?.(undefined);
    if (first.done === true || !looksLikeSlog1(first.value)) return undefined;
    return await gunzipToMemory(file, MAX_GUNZIPPED_SLOG1_BYTES);
  } finally {
    if (!keep) await file.close();
  }
}

/** The SLOG-1 file at `path` opened (its source closed again if the header is bad), or undefined when it is not SLOG-1. */
export async function openSlog1File(path: string): Promise<Slog1File | undefined> {
  const source = await openSlog1ByteSource(path);
  if (source === undefined) return undefined;
  try {
    return await Slog1File.open(source);
  } catch (e) {
    await source.close();
    throw e;
  }
}
