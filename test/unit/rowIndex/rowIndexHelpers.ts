/** Helpers of the row-index tests: open fixtures, synthesize wide traces, build indexes in memory. */
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink } from '../../../src/core/formats/slog2/writer/sink';
import { writeConversion } from '../../../src/core/formats/slog2/writer/writeConversion';
import { buildRowIndex } from '../../../src/core/index/build';
import { RowIndex } from '../../../src/core/index/rowIndex';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipToMemory } from '../../../src/io/gzip';
import { fixture } from '../../helpers/paths';
import { synthToMemory } from '../synth/synthUtil';

export const IDENTITY = { path: '/x/t.slog2', size: 1, mtimeMs: 2 };

export async function openSlog2Fixture(name: string): Promise<Slog2File> {
  const path = fixture(name);
  if (name.endsWith('.gz')) {
    const gz = await FileSource.open(path);
    try {
      return await Slog2File.open(await gunzipToMemory(gz, 64 << 20));
    } finally {
      await gz.close();
    }
  }
  return Slog2File.open(await FileSource.open(path));
}

/** A synthetic wide trace converted to SLOG-2 in memory (small leaves, so the tree has depth). */
export async function synthSlog2(ranks: number, bytes: number, seed = 7, leafBytes = 16384): Promise<Slog2File> {
  const { bytes: clog } = await synthToMemory({ ranks, bytes, seed, srcloc: true, subComms: true });
  async function* once(): AsyncGenerator<Uint8Array> {
    yield clog;
  }
  const sink = new MemorySink();
  await writeConversion(convertClog2(once(), { name: 'synth.clog2' }), sink, { leafBytes });
  return Slog2File.open(new MemorySource(`synth_${ranks}.slog2`, sink.bytes()));
}

export async function indexBytes(file: Slog2File, options: { blockKeys?: number; chunkBytes?: number } = {}): Promise<Uint8Array> {
  const sink = new MemorySink();
  await buildRowIndex(file, sink, IDENTITY, options);
  return sink.bytes();
}

export async function openIndex(file: Slog2File, bytes: Uint8Array): Promise<RowIndex> {
  return RowIndex.open(new MemorySource('t.mperowidx', bytes), file, IDENTITY);
}
