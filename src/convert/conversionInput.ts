/**
 * Opening a conversion's input: a CLOG2 or old CLOG file (optionally gzip'd) → its format and the
 * converter's drawable stream, with progress in input bytes read. Shared by the in-thread
 * conversion (convertJob.ts) and the converter thread of the two-thread one (converter.ts).
 */
import type { ByteChunks, ByteSource } from '../core/bytes/byteSource';
import { FormatError } from '../core/bytes/formatError';
import { chunksOf, type ChunkRecycling } from '../core/bytes/memorySource';
import type { ClogConversion, ConvertibleFormat } from '../core/formats/convert/result';
import { detectInputFormat } from '../core/formats/detectFormat';
import { convertSlog1Source } from '../core/formats/slog1/convertSlog1';
import { convertClogFormat } from '../core/info/clogInfo';
import { FileSource } from '../io/fileSource';
import { gunzipChunks, gunzipToMemory, hasGzipMagic } from '../io/gzip';
import { MAX_GUNZIPPED_SLOG1_BYTES } from '../io/slog1Source';
import { peekChunks } from '../io/traceInput';
import type { ConvertOptions } from '../core/formats/convert/result';
import { looksLikeClog2, parsePreamble, PREAMBLE_BYTES } from '../core/formats/clog2/preamble';
import { convertClog2 } from '../core/formats/clog2/convertClog2';
import { readClog2Definitions, type Clog2Definitions } from '../core/formats/clog2/tailDefinitions';

export interface ConversionInputOptions {
  readonly signal?: AbortSignal;
  /** Input bytes read so far (of the file on disk, compressed if gzip'd) and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Reproduce the reference converter's quirks (msg_size 0 of receive-before-send arrows): tests. */
  readonly referenceQuirks?: boolean;
  /**
   * Convert only the first this many bytes of an uncompressed CLOG2 (the editor's preview while
   * the whole file converts). A merged CLOG2 is in time order, so its prefix is the trace up to a
   * time; the reader treats the cut as a truncated log (open states become unmatched).
   */
  readonly prefixBytes?: number;
  /**
   * The conversion will be shown as it goes (snapshots of the SLOG-2 being written): an
   * uncompressed CLOG2's definitions at its end are read ahead, so `trailerSoFar` can name the
   * categories the records use long before the definitions are reached.
   */
  readonly snapshots?: boolean;
}

export interface ConversionInput {
  readonly file: FileSource;
  readonly format: ConvertibleFormat;
  readonly conversion: ClogConversion;
}

/**
 * A ByteSource that remembers how far into the file reads have got (progress), and ends at
 * `size` (the whole file, or the prefix a preview converts).
 */
class ProgressSource implements ByteSource {
  private furthest = 0;
  constructor(
    private readonly inner: ByteSource,
    private readonly report: (bytesRead: number, total: number) => void,
    readonly size: number = inner.size,
  ) {
    if (inner.readInto) this.readInto = (offset, target) => this.readIntoInner(offset, target);
  }
  readonly readInto?: (offset: number, target: Uint8Array) => Promise<void>;
  get name(): string {
    return this.inner.name;
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    this.checkRange(offset, length);
    const bytes = await this.inner.read(offset, length);
    this.reached(offset + length);
    return bytes;
  }
  /** Straight into the caller's buffer where the file can (chunksOf: no second buffer and copy per chunk). */
  private async readIntoInner(offset: number, target: Uint8Array): Promise<void> {
    this.checkRange(offset, target.length);
    await this.inner.readInto!(offset, target);
    this.reached(offset + target.length);
  }
  private checkRange(offset: number, length: number): void {
    if (offset < 0 || length < 0 || offset + length > this.size)
      throw new RangeError(`read(${offset}, ${length}) beyond the ${this.size} bytes of ${this.name}`);
  }
  private reached(end: number): void {
    if (end > this.furthest) {
      this.furthest = end;
      this.report(this.furthest, this.size);
    }
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Chunks of an uncompressed input. */
const CHUNK_BYTES = 1 << 20;

/**
 * Buffers a CLOG2's chunks take turns in. The CLOG2 reader keeps no view of a chunk once the next
 * one's first bytes are pushed (a record cut at a chunk's end is copied into a seam; cargo bytes
 * are copied): while chunk k is read ahead, chunk k − 1 is being parsed and chunk k − 2's cut
 * record may still be read, so chunk k can go into chunk k − 3's buffer.
 */
export const CLOG2_CHUNK_RING = 3;

/** A CLOG2 file's bytes from `source` as the converter reads them: chunks recycled, the next one read ahead. */
export function clog2Chunks(source: ByteSource, chunkBytes = CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  return readAhead(chunksOf(source, chunkBytes, 0, { ring: CLOG2_CHUNK_RING }));
}

/**
 * Re-yields a chunk stream while the next chunk is already being read (the disk works while the
 * converter parses).
 */
async function* readAhead(chunks: ByteChunks): AsyncGenerator<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  let next = it.next();
  try {
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = it.next();
      // A failure of the prefetch surfaces when it is awaited; never as an unhandled rejection.
      next.catch(() => undefined);
      yield r.value;
    }
  } finally {
    await it.return?.();
  }
}

/** The file for positional reads; closing it is left to the caller (it closes `file`). */
function borrowed(file: FileSource): ByteSource {
  return { name: file.name, size: file.size, read: (o, n) => file.read(o, n), close: async () => undefined };
}

/** Opens `input` for conversion; the caller closes `file` when done. */
export async function openConversionInput(input: string, options: ConversionInputOptions = {}): Promise<ConversionInput> {
  const file = await FileSource.open(input, { maxBlocks: 2 });
  try {
    const gz = await hasGzipMagic(file);
    const convertOptions = { name: input, signal: options.signal, referenceQuirks: options.referenceQuirks };
    if (options.prefixBytes !== undefined) {
      if (gz || !(options.prefixBytes > 0)) throw new FormatError(input, 0, 'a preview converts a prefix of an uncompressed CLOG2 file only');
      return { file, format: 'clog2', conversion: await clog2PrefixConversion(file, options.prefixBytes, options, convertOptions) };
    }
    const source = new ProgressSource(file, options.onProgress ?? (() => undefined));
    // recycled once the format is known to be CLOG2 (the other readers' views are not audited for it)
    const recycling: ChunkRecycling = { ring: 0 };
    const { first, all } = await peekChunks(readAhead(gz ? gunzipChunks(source, 256 << 10) : chunksOf(source, CHUNK_BYTES, 0, recycling)));
    const format = detectInputFormat(first);
    if (format === 'clog2') recycling.ring = CLOG2_CHUNK_RING;
    if (format === undefined || format === 'slog2') {
      throw new FormatError(
        input,
        0,
        `not a CLOG2, CLOG, ALOG or SLOG-1 trace (expected "CLOG-02…", an old-CLOG record header, an ALOG header line or a SLOG-1 0.7 header)${format === 'slog2' ? ': it is SLOG-2 already' : ''}`,
      );
    }
    if (format === 'slog1') {
      // SLOG-1 is read by position (the header points at its tables and frames): the file itself,
      // or its decompressed bytes when gzip'd.
      void all[Symbol.asyncIterator]().return?.(undefined);
      const source = gz ? await gunzipToMemory(file, MAX_GUNZIPPED_SLOG1_BYTES) : borrowed(file);
      // Progress by frames converted (the statistics at the end are read at open, so the furthest read says nothing).
      const scale = file.size / Math.max(1, source.size);
      const onProgress = options.onProgress === undefined ? undefined : (read: number) => options.onProgress!(Math.round(read * scale), file.size);
      const { conversion } = await convertSlog1Source(source, { ...convertOptions, onProgress });
      return { file, format, conversion };
    }
    const ahead = options.snapshots === true && format === 'clog2' && !gz ? await definitionsAhead(file, options.signal) : undefined;
    const conversion = ahead !== undefined ? convertClog2(all, convertOptions, undefined, ahead) : convertClogFormat(format, all, convertOptions);
    return { file, format, conversion };
  } catch (e) {
    await file.close();
    throw e;
  }
}

/** The last bytes of a CLOG2 searched for the definitions a prefix lacks (MPE writes the MPI states' at finalize). */
const DEFINITIONS_TAIL_BYTES = 4 << 20;

/**
 * The conversion of a CLOG2's first `prefixBytes` (whole blocks, at least one), with the category
 * definitions of its last blocks applied first (tailDefinitions.ts). A merged CLOG2 is in time
 * order, so this is the trace up to a time; the cut reads as a truncated log.
 */
async function clog2PrefixConversion(
  file: FileSource,
  prefixBytes: number,
  options: ConversionInputOptions,
  convertOptions: ConvertOptions,
): Promise<ClogConversion> {
  const name = file.name;
  const head = await file.read(0, Math.min(PREAMBLE_BYTES, file.size));
  if (!looksLikeClog2(head)) throw new FormatError(name, 0, 'a preview converts a prefix of a CLOG2 file only (no "CLOG-02" preamble)');
  const blockStart = blockStartOf(head, name);
  const cut = Math.min(file.size, Math.max(blockStart(prefixBytes), PREAMBLE_BYTES + blockSize(head, name)));
  const definitions = await readDefinitionsFrom(file, head, Math.max(cut, blockStart(file.size - DEFINITIONS_TAIL_BYTES)), options.signal);
  const source = new ProgressSource(file, options.onProgress ?? (() => undefined), cut);
  return convertClog2(clog2Chunks(source), convertOptions, definitions);
}

function blockSize(head: Uint8Array, name: string): number {
  return parsePreamble(head, name).blockSize;
}

/** The start of the block holding a byte offset (the preamble's end for offsets in it). */
function blockStartOf(head: Uint8Array, name: string): (at: number) => number {
  const size = blockSize(head, name);
  return (at) => PREAMBLE_BYTES + Math.floor(Math.max(0, at - PREAMBLE_BYTES) / size) * size;
}

/** The definitions of the blocks from `start` to the end of the file (none when `start` is the end). */
async function readDefinitionsFrom(file: FileSource, head: Uint8Array, start: number, signal: AbortSignal | undefined): Promise<Clog2Definitions | undefined> {
  return start < file.size ? await readClog2Definitions(preambleThen(head.slice(), file, start), file.name, signal) : undefined;
}

/**
 * The definitions at a whole CLOG2's end, for its snapshots; undefined if the tail cannot tell (a
 * damaged tail costs the snapshots their names, never the conversion).
 */
async function definitionsAhead(file: FileSource, signal: AbortSignal | undefined): Promise<Clog2Definitions | undefined> {
  try {
    const head = await file.read(0, Math.min(PREAMBLE_BYTES, file.size));
    if (!looksLikeClog2(head)) return undefined;
    return await readDefinitionsFrom(file, head, blockStartOf(head, file.name)(file.size - DEFINITIONS_TAIL_BYTES), signal);
  } catch (e) {
    if (signal?.aborted) throw e;
    return undefined;
  }
}

/** The preamble, then the file from `start` (a block boundary) to its end. */
async function* preambleThen(preamble: Uint8Array, file: FileSource, start: number): AsyncGenerator<Uint8Array> {
  yield preamble;
  yield* chunksOf(borrowed(file), 1 << 20, start);
}
