/**
 * Fuzz target `rowindex`: builds the row index of a (mutated) SLOG-2, damages the index bytes
 * (flips, overwrites, truncation) or leaves it intact, then compares random row windows through
 * the index with the plain query. Invariant: the index path either refuses with a FormatError
 * (the editor then falls back) or returns exactly the plain window — never a wrong picture. The
 * same for windows built from scanned node bytes of the mutated SLOG-2 (ScannedWindowSource, the
 * wide-trace path before its index exists).
 *
 * Fuzz target `directindex`: converts a (mutated) CLOG2 or old CLOG with the row index written by the
 * converter (index/direct.ts). Invariant: the index is either not written, with a reason, or
 * opens against the written SLOG-2 and returns exactly the plain windows.
 */
import { isFormatError } from '../../src/core/bytes/formatError';
import { MemorySource } from '../../src/core/bytes/memorySource';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { MemorySink } from '../../src/core/formats/slog2/writer';
import { buildWindow, type WindowSource, type WindowSpec } from '../../src/core/query/buildWindow';
import { rowLayoutOf, type RowLayout } from '../../src/core/query/rows';
import { buildRowIndex } from '../../src/core/index/build';
import { IndexedWindowSource, RowKeyMapper } from '../../src/core/query/indexedSource';
import { RowIndex } from '../../src/core/index/rowIndex';
import type { Prng } from '../../src/core/synth/prng';
import { comparable } from '../helpers/windowComparable';
import type { ClogConversion } from '../../src/core/formats/convert/result';
import { writeConversion } from '../../src/core/formats/slog2/writer/writeConversion';
import { DirectRowIndexBuilder } from '../../src/core/index/direct';
import { fileKeysOf, ScannedWindowSource } from '../../src/core/query/scannedSource';

const IDENTITY = { path: 'fuzz.slog2', size: 1, mtimeMs: 1 };

async function orFormatError<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (isFormatError(e)) return undefined;
    throw e;
  }
}

function damage(bytes: Uint8Array, rng: Prng): Uint8Array {
  const out = bytes.slice();
  const what = rng.int(0, 3);
  if (what === 0) return out; // intact: must equal the plain query
  if (what === 1) return out.subarray(0, rng.int(0, out.length - 1)); // truncated
  for (let i = rng.int(1, 8); i > 0; i--) {
    const at = rng.int(0, out.length - 1);
    out[at] = what === 2 ? out[at]! ^ (1 << rng.int(0, 7)) : rng.int(0, 255);
  }
  return out;
}

export async function rowIndexTarget(bytes: Uint8Array, rng: Prng, check: (ok: boolean, message: string) => void): Promise<void> {
  const file = await Slog2File.open(new MemorySource('fuzz.slog2', bytes));
  await compareScanned(file, rng, check);
  const sink = new MemorySink();
  if ((await orFormatError(buildRowIndex(file, sink, IDENTITY, { blockKeys: rng.pick([1, 2, 16]), chunkBytes: rng.pick([1024, 1 << 20]) }))) === undefined)
    return;
  const indexBytes = damage(sink.bytes(), rng);
  const index = await orFormatError(RowIndex.open(new MemorySource('fuzz.mperowidx', indexBytes), file, IDENTITY));
  if (index === undefined) return;
  await compareWindows(file, index, rng, check);
}

/** Random row windows from scanned node bytes (no index: ScannedWindowSource) against the plain query. */
function compareScanned(file: Slog2File, rng: Prng, check: (ok: boolean, message: string) => void): Promise<void> {
  const keys = fileKeysOf(file);
  return compareSourceWindows(file, rng, 3, 'a window from scanned node bytes', check, (layout, mapIndex, rowStart, rowEnd) => {
    const ranges = keys.keyRanges(layout, mapIndex, rowStart, rowEnd);
    return ranges === undefined ? undefined : new ScannedWindowSource(file, keys, ranges);
  });
}

/** Random row windows through `index` against the plain query of `file`. */
function compareWindows(file: Slog2File, index: RowIndex, rng: Prng, check: (ok: boolean, message: string) => void): Promise<void> {
  const mapper = new RowKeyMapper(index);
  return compareSourceWindows(file, rng, 4, 'a window through the row index', check, (layout, mapIndex, rowStart, rowEnd) => {
    const ranges = mapper.keyRanges(layout, mapIndex, rowStart, rowEnd);
    return ranges === undefined ? undefined : new IndexedWindowSource(index, ranges);
  });
}

/** `rounds` random row windows from `sourceFor` against the plain query; either may refuse with a FormatError. */
async function compareSourceWindows(
  file: Slog2File,
  rng: Prng,
  rounds: number,
  what: string,
  check: (ok: boolean, message: string) => void,
  sourceFor: (layout: RowLayout, mapIndex: number, rowStart: number, rowEnd: number) => WindowSource | undefined,
): Promise<void> {
  const [a, b] = file.timeRange;
  for (let round = 0; round < rounds; round++) {
    const mapIndex = rng.int(0, file.lineIDMaps.length - 1);
    const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
    const rowStart = rng.int(0, layout.labels.length);
    const rowEnd = rng.int(rowStart, layout.labels.length);
    const t0 = a + (b - a) * rng.next();
    const t1 = t0 + (b - t0) * rng.next();
    const spec: WindowSpec = { t0, t1, rowStart, rowEnd, mapIndex, lowestDepth: rng.int(0, file.maxDepth), rowOfLine: layout.rowOfLine };
    const source = sourceFor(layout, mapIndex, rowStart, rowEnd);
    if (source === undefined) continue;
    const other = await orFormatError(buildWindow(source, spec));
    if (other === undefined) continue;
    const plain = await orFormatError(buildWindow(file, spec));
    if (plain === undefined) continue;
    check(
      JSON.stringify(comparable(other)) === JSON.stringify(comparable(plain)),
      `${what} differs from the plain query (map ${mapIndex}, rows [${rowStart}, ${rowEnd}), t [${t0}, ${t1}])`,
    );
  }
}

export async function directIndexTarget(conversion: ClogConversion, rng: Prng, check: (ok: boolean, message: string) => void): Promise<void> {
  const indexSink = new MemorySink();
  const builder = new DirectRowIndexBuilder(indexSink, IDENTITY.path, 'fuzz.slog2', () => conversion.declaredLines?.(), {
    blockKeys: rng.pick([1, 2, 16]),
    chunkBytes: rng.pick([512, 4096, 1 << 20]),
  });
  const sink = new MemorySink();
  const written = await orFormatError(writeConversion(conversion, sink, { leafBytes: rng.pick([512, 2048, 65536]), indexer: builder }));
  if (written === undefined) return;
  const file = await Slog2File.open(new MemorySource('fuzz.slog2', sink.bytes()));
  const result = await builder.finish(file, IDENTITY);
  if ('skipped' in result) {
    check(result.skipped.length > 0, 'a direct index not written must say why');
    return;
  }
  const index = await orFormatError(RowIndex.open(new MemorySource('fuzz.mperowidx', indexSink.bytes()), file, IDENTITY));
  check(index !== undefined, 'the index the converter wrote does not open against the SLOG-2 it wrote');
  if (index !== undefined) await compareWindows(file, index, rng, check);
}
