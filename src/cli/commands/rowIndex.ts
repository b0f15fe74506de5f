/**
 * `mpe-trace index FILE.slog2 [-o INDEX] [--check]`: builds the rows × time index of a SLOG-2
 * (src/core/rowIndex) next to it (FILE.mperowidx), for batch use before opening wide traces;
 * --check verifies an existing index instead (current, intact, every segment's checksum) and
 * exits 1 when it is not usable.
 */
import { looksLikeSlog2 } from '../../core/formats/slog2/header';
import { Slog2File } from '../../core/formats/slog2/slog2File';
import { FormatError, isFormatError } from '../../core/bytes/formatError';
import { emptyStats } from '../../core/index/rowIndex';
import { FileSource } from '../../io/fileSource';
import { defaultRowIndexPath, openRowIndexFile, writeRowIndexFile } from '../../io/rowIndexFile';
import { parseArgs, UsageError } from '../args';
import { registerCommand } from '../registry';

/** Nodes checked per read (bounds the check's memory). */
const CHECK_NODES = 32;

const USAGE =
  'usage: mpe-trace index FILE.slog2 [-o INDEX] [--check]\n' +
  '  Builds the rows × time index of FILE (default INDEX: FILE.mperowidx) so that windows of a few\n' +
  '  rows read only those rows. The SLOG-2 is not modified. --check verifies an existing index.';

/** The SLOG-2 file on `source` when its first bytes say SLOG-2; else undefined, `source` closed (also when opening fails). */
async function openIfSlog2(source: FileSource): Promise<Slog2File | undefined> {
  try {
    const head = await source.read(0, Math.min(64, source.size));
    if (looksLikeSlog2(head)) return await Slog2File.open(source);
  } catch (e) {
    await source.close();
    throw e;
  }
  await source.close();
  return undefined;
}

/** The SLOG-2 file at `path` when it is one, uncompressed on disk (else undefined: another opener reads it or says why not). */
export async function slog2OnDisk(path: string): Promise<Slog2File | undefined> {
  const source = await FileSource.open(path).catch(() => undefined);
  return source === undefined ? undefined : openIfSlog2(source);
}

/** Opens an uncompressed SLOG-2 file by path (the row index addresses its bytes). */
export async function openSlog2Path(path: string): Promise<Slog2File> {
  const file = await openIfSlog2(await FileSource.open(path));
  if (file === undefined) throw new FormatError(path, 0, 'not an uncompressed SLOG-2 file (convert CLOG/CLOG2 inputs first: mpe-trace convert)');
  return file;
}

async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['-o'], ['--check']);
  if (args.positionals.length !== 1) throw new UsageError(`index needs exactly one FILE`, USAGE);
  const path = args.positionals[0]!;
  const out = args.values.get('-o') ?? defaultRowIndexPath(path);
  const file = await openSlog2Path(path);
  try {
    if (args.flags.has('--check')) {
      const opened = await openRowIndexFile(file, path, out);
      if (!('index' in opened)) {
        process.stdout.write(`${out}: not usable: ${opened.problem}\n`);
        return 1;
      }
      const index = opened.index;
      try {
        // A few nodes at a time: the items of a whole index do not fit in memory (1 GB: out of heap).
        const stats = emptyStats();
        const keys: [number, number][] = [[0, Math.max(0, index.header.keys - 1)]];
        for (let first = 0; first < index.header.nodes; first += CHECK_NODES) {
          const some = Array.from({ length: Math.min(CHECK_NODES, index.header.nodes - first) }, (_, i) => first + i);
          await index.readNodes(some, keys, new Set(some), stats);
        }
        process.stdout.write(`${out}: ok, ${index.header.nodes} nodes, ${index.header.keys} keys, ${stats.decoded} items, ${stats.bytesRead} bytes checked\n`);
        return 0;
      } catch (e) {
        if (!isFormatError(e)) throw e;
        process.stdout.write(`${out}: damaged: ${e.message}\n`);
        return 1;
      } finally {
        await index.close();
      }
    }
    const started = performance.now();
    const report = await writeRowIndexFile(file, path, out);
    const s = (performance.now() - started) / 1000;
    const size = file.source.size;
    process.stdout.write(
      `${out}: ${report.bytes} bytes (${(report.bytes / size).toFixed(2)}× the SLOG-2), ${report.nodes} nodes, ${report.keys} timelines, ${report.items} items, ` +
        `${report.chunks} chunks, ${report.runs} runs in ${s.toFixed(2)} s (${(size / 1048576 / s).toFixed(0)} MB/s of SLOG-2)\n`,
    );
    return 0;
  } finally {
    await file.close();
  }
}

registerCommand('index', { summary: 'build (or --check) the rows × time index of a SLOG-2 file', usage: USAGE, run });
