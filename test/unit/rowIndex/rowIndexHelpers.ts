/** Helpers of the row-index tests: open fixtures, synthesize wide traces, build indexes in memory, compare windows. */
import assert from 'node:assert/strict';
import { buildWindow, type WindowSource, type WindowSpec } from '../../../src/core/query/buildWindow';
import { rowLayoutOf, type RowLayout } from '../../../src/core/query/rows';
import { IndexedWindowSource, RowKeyMapper } from '../../../src/core/query/indexedSource';
import type { Prng } from '../../../src/core/synth/prng';
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
import { comparable } from '../../helpers/windowComparable';
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

export { comparable };

/** Random windows (maps, rows, times, depths) through the index equal the plain query's. */
export async function checkRandomWindows(file: Slog2File, index: RowIndex, rng: Prng, rounds: number, label: string): Promise<void> {
  const mapper = new RowKeyMapper(index);
  await checkRandomSourceWindows(file, index.keys.mapIndex, rng, rounds, label, (layout, mapIndex, rowStart, rowEnd) => {
    const ranges = mapper.keyRanges(layout, mapIndex, rowStart, rowEnd);
    return ranges === undefined ? undefined : new IndexedWindowSource(index, ranges);
  });
}

/**
 * Random windows (maps, rows, times, depths) from `sourceFor` equal the plain query's. `keysMap`:
 * the map the keys follow (chosen most often); `sourceFor` gives undefined for rows it cannot serve.
 */
export async function checkRandomSourceWindows(
  file: Slog2File,
  keysMap: number,
  rng: Prng,
  rounds: number,
  label: string,
  sourceFor: (layout: RowLayout, mapIndex: number, rowStart: number, rowEnd: number) => WindowSource | undefined,
): Promise<void> {
  const [a, b] = file.timeRange;
  let compared = 0;
  let drawn = 0;
  for (let round = 0; round < rounds; round++) {
    // Mostly the keys' own map (the one the editor shows first); others when they follow its order.
    const mapIndex = rng.next() < 0.6 ? keysMap : rng.int(0, file.lineIDMaps.length - 1);
    const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
    const n = layout.labels.length;
    const rowStart = rng.int(0, Math.max(0, n - 1));
    const rowEnd = Math.min(n, rowStart + rng.int(0, Math.max(1, Math.ceil(n / 3))));
    const span = (b - a) * Math.pow(10, -3 * rng.next());
    const t0 = a - span * 0.05 + rng.next() * (b - a);
    const t1 = t0 + span;
    const lowestDepth = rng.int(0, file.maxDepth);
    const spec: WindowSpec = { t0, t1, rowStart, rowEnd, mapIndex, lowestDepth, rowOfLine: layout.rowOfLine };
    const source = sourceFor(layout, mapIndex, rowStart, rowEnd);
    if (source === undefined) continue; // this map's rows do not follow the key order: the plain path serves it
    const plain = await buildWindow(file, spec);
    const other = await buildWindow(source, spec);
    assert.deepEqual(
      comparable(other),
      comparable(plain),
      `${label} round ${round}: map ${mapIndex} rows [${rowStart}, ${rowEnd}) t [${t0}, ${t1}] depth ${lowestDepth}`,
    );
    compared++;
    if (plain.states.start.length + plain.arrows.start.length + plain.events.time.length + plain.shadows.start.length > 0) drawn++;
  }
  assert.ok(compared >= rounds / 3 && drawn > 0, `${label}: ${compared} of ${rounds} windows compared, ${drawn} with drawables`);
}
