// Opens a SLOG-2 reader on a byte source, closing the source if the file is not valid SLOG-2.
import type { ByteSource } from '../core/bytes/byteSource';
import { Slog2File } from '../core/formats/slog2/slog2File';

export async function openSlog2(source: ByteSource): Promise<Slog2File> {
  try {
    // Parsed upper nodes are large (shadow buffers); 64 keeps a few zoom levels of one region warm.
    return await Slog2File.open(source, { nodeCacheSize: 64 });
  } catch (e) {
    await source.close();
    throw e;
  }
}
