/**
 * The row index a conversion writes beside its SLOG-2 (issue 16): a temporary file the direct
 * builder fills while the SLOG-2 is written, completed once the SLOG-2 is in place (the index
 * records its size and mtime) and then moved onto the index path, or deleted with the reason
 * when the trace turned out not to match what was indexed.
 */
import { DirectRowIndexBuilder, type DirectIndexResult } from '../core/index/direct';
import { Slog2File } from '../core/formats/slog2/slog2File';
import { AtomicFile } from '../io/atomicWrite';
import { FileSource } from '../io/fileSource';
import { identityOf } from '../io/rowIndexFile';

export interface ConversionIndexOptions {
  /** Where the index goes (replaced if there). */
  readonly path: string;
  /** Fewer timelines than this: no index. */
  readonly minLines?: number;
}

export class ConversionIndex {
  private constructor(
    private readonly file: AtomicFile,
    readonly builder: DirectRowIndexBuilder,
  ) {}

  static async create(options: ConversionIndexOptions, output: string, declaredLines: () => number | undefined): Promise<ConversionIndex> {
    const file = await AtomicFile.create(options.path, { force: true });
    return new ConversionIndex(file, new DirectRowIndexBuilder(file.sink, output, output, declaredLines, { minLines: options.minLines }));
  }

  /** After the SLOG-2 at `output` is complete and in place: the index's last chunks, directory and header. */
  async complete(output: string): Promise<DirectIndexResult> {
    if (this.builder.skipReason !== undefined) {
      await this.file.abort();
      return { skipped: this.builder.skipReason };
    }
    let slog: Slog2File | undefined;
    try {
      const identity = await identityOf(output);
      slog = await Slog2File.open(await FileSource.open(output));
      const result = await this.builder.finish(slog, identity);
      if ('report' in result) await this.file.commit();
      else await this.file.abort();
      return result;
    } catch (e) {
      await this.file.abort();
      throw e;
    } finally {
      await slog?.close().catch(() => undefined);
    }
  }

  /** The conversion failed or was cancelled: no index. */
  async abort(): Promise<void> {
    await this.file.abort();
  }
}
