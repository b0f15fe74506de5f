/**
 * Atomic output: the bytes go to a temporary file next to the target, which replaces the target
 * only when everything was written (rename). On error or cancellation the temporary file is
 * removed, so neither a partial target nor a stray file remains. An existing target is never
 * replaced unless `force` is set — checked at creation and again, race-free, at commit.
 */
import { existsSync } from 'node:fs';
import { link, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FileSink, SinkWriteError } from './fileSink';
import { checkReplaceable, UnsafeOutputError } from './outputGuard';
import { removeStaleTempFiles, tempPathFor } from './tempFiles';

export interface AtomicWriteOptions {
  /** Replace an existing target (a regular file or a symbolic link; never anything else). */
  readonly force?: boolean;
  /**
   * fsync before the rename, so even a power loss cannot leave a truncated target. Off by default:
   * it can cost seconds on a busy disk, and the rename-after-complete-write already guarantees
   * that a crash or cancellation of this process never exposes a partial file.
   */
  readonly durable?: boolean;
}

/** Thrown when the target exists and `force` is not set (code EEXIST, like fs errors). */
export class TargetExistsError extends Error {
  readonly code = 'EEXIST';
  constructor(readonly path: string) {
    super(`${path} already exists (use --force to overwrite)`);
    this.name = 'TargetExistsError';
  }
}

/** A write error (ENOSPC, EDQUOT, EFBIG, EIO…) as one line naming the file that could not be written. */
export class OutputWriteError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    cause: unknown,
  ) {
    super(`${path}: could not be written (${code}: ${describeCode(code, cause)}); nothing was written`, { cause });
    this.name = 'OutputWriteError';
  }
}

function describeCode(code: string, cause: unknown): string {
  if (code === 'ENOSPC') return 'no space left on device';
  if (code === 'EDQUOT') return 'disk quota exceeded';
  if (code === 'EFBIG') return 'file too large for this file system or limit';
  const m = cause instanceof Error ? cause.message : String(cause);
  return m.replace(/^[A-Z]+: /, '');
}

/**
 * Errors from writing the output, as OutputWriteError; others (reading the input, cancellation,
 * format errors, refusals) unchanged. `closing`: errno errors of close/fsync/rename count too.
 */
function asWriteError(target: string, e: unknown, closing = false): unknown {
  if (e instanceof SinkWriteError) return new OutputWriteError(target, e.code, e.cause);
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (closing && typeof code === 'string' && /^E[A-Z]+$/.test(code) && code !== 'EEXIST' && code !== 'ENOENT' && !(e instanceof TargetExistsError)) {
    return new OutputWriteError(target, code, e);
  }
  return e;
}

/**
 * Removes the temporary files this process left for `target` (a worker thread shares the
 * process id): used after a conversion worker was terminated or crashed before it could clean up.
 * Stale temporary files of killed processes go too. Returns the paths removed.
 */
export async function removeStrayTempFiles(target: string): Promise<string[]> {
  return removeStaleTempFiles(path.dirname(target), { target: path.basename(target), includeOwnProcess: true });
}

export class AtomicFile {
  private done = false;

  private constructor(
    readonly target: string,
    readonly tempPath: string,
    private readonly handle: FileHandle,
    readonly sink: FileSink,
    private readonly force: boolean,
    private readonly durable: boolean,
  ) {}

  static async create(target: string, options: AtomicWriteOptions = {}): Promise<AtomicFile> {
    const force = options.force ?? false;
    const existing = await checkReplaceable(target);
    if (!force && existing.exists) throw new TargetExistsError(target);
    // Leftovers of killed earlier runs (SIGKILL, power loss) for this target: see tempFiles.ts.
    await removeStaleTempFiles(path.dirname(target), { target: path.basename(target) });
    const tempPath = tempPathFor(target);
    const handle = await open(tempPath, 'wx');
    return new AtomicFile(target, tempPath, handle, new FileSink(handle), force, options.durable ?? false);
  }

  /** Flushes, closes and moves the temporary file onto the target. */
  async commit(): Promise<void> {
    if (this.done) throw new Error('atomic file already committed or aborted');
    this.done = true;
    try {
      await this.sink.flush();
      if (this.durable) await this.handle.sync();
      await this.handle.close();
      if (this.force) {
        // Again just before the rename: the target may have become a FIFO or device meanwhile.
        await checkReplaceable(this.target);
        await rename(this.tempPath, this.target);
      } else await this.linkWithoutOverwrite();
    } catch (e) {
      await this.removeTemp();
      throw asWriteError(this.target, e, !(e instanceof UnsafeOutputError));
    }
  }

  /** Closes and deletes the temporary file; the target is untouched. Safe to call more than once. */
  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.removeTemp();
  }

  /** link() fails with EEXIST if the target appeared meanwhile: no overwrite, no race. */
  private async linkWithoutOverwrite(): Promise<void> {
    try {
      await link(this.tempPath, this.target);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new TargetExistsError(this.target);
      // File systems without hard links: best effort check, then rename.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw e;
      if (existsSync(this.target)) throw new TargetExistsError(this.target);
      await rename(this.tempPath, this.target);
      return;
    }
    await unlink(this.tempPath).catch(() => undefined);
  }

  private async removeTemp(): Promise<void> {
    await this.sink.discard();
    await this.handle.close().catch(() => undefined);
    await unlink(this.tempPath).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
}

/**
 * Runs `produce` against a temporary file and commits it to `target` if it resolves; if it
 * throws (or is cancelled through its own signal), the temporary file is removed and the error
 * rethrown.
 */
export async function writeAtomically<T>(target: string, options: AtomicWriteOptions, produce: (sink: FileSink, tempPath: string) => Promise<T>): Promise<T> {
  const file = await AtomicFile.create(target, options);
  let result: T;
  try {
    result = await produce(file.sink, file.tempPath);
  } catch (e) {
    await file.abort();
    throw asWriteError(target, e);
  }
  await file.commit();
  return result;
}

/** Small whole-file writes (e.g. bookmark sidecars): atomic replace of the target. */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  await writeAtomically(target, { force: true }, (sink) => sink.write(bytes));
}

/** The file's text, or undefined if it does not exist. */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
