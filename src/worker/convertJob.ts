/**
 * The conversion job shared by `mpe-trace convert` and the worker thread: input path (CLOG2 or
 * old CLOG, optionally gzip'd) → SLOG-2 output path, atomically, with progress in input bytes
 * consumed and cancellation through an AbortSignal (which leaves no file behind).
 */
import type { ByteChunks, ByteSource } from '../format/bytes/byteSource';
import { FormatError } from '../format/bytes/formatError';
import { chunksOf } from '../format/bytes/memorySource';
import { convertClogFormat, detectClogFormat } from '../format/info/clogInfo';
import { writeConversion, type Slog2WriteSummary } from '../format/slog2/writer';
import { writeAtomically } from '../io/atomicWrite';
import { FileSource } from '../io/fileSource';
import { gunzipChunks, hasGzipMagic } from '../io/gzip';
import { peekChunks } from '../io/traceInput';

export interface ConvertJobOptions {
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
  /** Replace an existing output. */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  /** Input bytes read so far (of the file on disk, compressed if gzip'd) and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Reproduce the reference converter's quirks (msg_size 0 of receive-before-send arrows): tests. */
  readonly referenceQuirks?: boolean;
}

export interface ConvertJobResult {
  readonly input: string;
  readonly output: string;
  readonly format: 'clog2' | 'clog';
  readonly inputBytes: number;
  readonly written: Slog2WriteSummary;
  readonly unmatchedEvents: number;
  readonly sourceLocations: { readonly records: number; readonly sites: number };
  readonly warnings: readonly string[];
}

/** Default output name: IN.clog2 / IN.clog / IN.clog2.gz → IN.slog2. */
export function defaultOutputPath(input: string): string {
  return input.replace(/\.gz$/i, '').replace(/\.(clog2|clog)$/i, '') + '.slog2';
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

export async function convertFile(input: string, output: string, options: ConvertJobOptions = {}): Promise<ConvertJobResult> {
  const file = await FileSource.open(input, { maxBlocks: 2 });
  try {
    const source = new ProgressSource(file, options.onProgress ?? (() => undefined));
    const gz = await hasGzipMagic(file);
    const { first, all } = await peekChunks(readAhead(gz ? gunzipChunks(source, 256 << 10) : chunksOf(source, 1 << 20)));
    const format = detectClogFormat(first);
    if (format === undefined) throw new FormatError(input, 0, 'not a CLOG2 or CLOG trace (expected "CLOG-02…" or an old-CLOG record header)');
    const conversion = convertClogFormat(format, all, { name: input, signal: options.signal, referenceQuirks: options.referenceQuirks });
    const written = await writeAtomically(output, { force: options.force }, (sink) =>
      writeConversion(conversion, sink, { childrenPerNode: options.childrenPerNode, leafBytes: options.leafBytes, signal: options.signal }),
    );
    const summary = conversion.summary;
    return {
      input,
      output,
      format,
      inputBytes: file.size,
      written,
      unmatchedEvents: summary.unmatched.reference,
      sourceLocations: summary.sourceLocations,
      warnings: summary.warnings,
    };
  } finally {
    await file.close();
  }
}
