/**
 * Opening a conversion's input: a CLOG2 or old CLOG file (optionally gzip'd) → its format and the
 * converter's drawable stream, with progress in input bytes read. Shared by the in-thread
 * conversion (convertJob.ts) and the converter thread of the two-thread one (converter.ts).
 */
import type { ByteChunks, ByteSource } from '../core/bytes/byteSource';
import { FormatError } from '../core/bytes/formatError';
import { chunksOf } from '../core/bytes/memorySource';
import type { ClogConversion } from '../core/formats/convert/result';
import { convertClogFormat, detectClogFormat } from '../core/info/clogInfo';
import { FileSource } from '../io/fileSource';
import { gunzipChunks, hasGzipMagic } from '../io/gzip';
import { peekChunks } from '../io/traceInput';

export interface ConversionInputOptions {
  readonly signal?: AbortSignal;
  /** Input bytes read so far (of the file on disk, compressed if gzip'd) and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Reproduce the reference converter's quirks (msg_size 0 of receive-before-send arrows): tests. */
  readonly referenceQuirks?: boolean;
}

export interface ConversionInput {
  readonly file: FileSource;
  readonly format: 'clog2' | 'clog';
  readonly conversion: ClogConversion;
}

/** A ByteSource that remembers how far into the file reads have got (progress). */
class ProgressSource implements ByteSource {
  private furthest = 0;
  constructor(
    private readonly inner: ByteSource,
    private readonly report: (bytesRead: number, total: number) => void,
  ) {}
  get name(): string {
    return this.inner.name;
  }
  get size(): number {
    return this.inner.size;
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    const bytes = await this.inner.read(offset, length);
    if (offset + length > this.furthest) {
      this.furthest = offset + length;
      this.report(this.furthest, this.inner.size);
    }
    return bytes;
  }
  close(): Promise<void> {
    return this.inner.close();
  }
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

/** Opens `input` for conversion; the caller closes `file` when done. */
export async function openConversionInput(input: string, options: ConversionInputOptions = {}): Promise<ConversionInput> {
  const file = await FileSource.open(input, { maxBlocks: 2 });
  try {
    const source = new ProgressSource(file, options.onProgress ?? (() => undefined));
    const gz = await hasGzipMagic(file);
    const { first, all } = await peekChunks(readAhead(gz ? gunzipChunks(source, 256 << 10) : chunksOf(source, 1 << 20)));
    const format = detectClogFormat(first);
    if (format === undefined) throw new FormatError(input, 0, 'not a CLOG2 or CLOG trace (expected "CLOG-02…" or an old-CLOG record header)');
    const conversion = convertClogFormat(format, all, { name: input, signal: options.signal, referenceQuirks: options.referenceQuirks });
    return { file, format, conversion };
  } catch (e) {
    await file.close();
    throw e;
  }
}
