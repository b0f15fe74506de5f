/**
 * Atomic output: the bytes go to a temporary file next to the target, which replaces the target
 * only when everything was written (rename). On error or cancellation the temporary file is
 * removed, so neither a partial target nor a stray file remains. An existing target is never
 * replaced unless `force` is set — checked at creation and again, race-free, at commit.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, open, readdir, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { FileSink } from './fileSink';

export interface AtomicWriteOptions {
  /** Replace an existing target. */
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

/** Temporary files of `target` made by this process start with this (see removeStrayTempFiles). */
function tempPrefix(target: string): string {
  return `.${path.basename(target)}.${process.pid}.`;
}

/**
 * Removes the temporary files this process left for `target` (a worker thread shares the
 * process id): used after a conversion worker was terminated or crashed before it could clean up.
 * Returns the paths removed.
 */
export async function removeStrayTempFiles(target: string): Promise<string[]> {
  const dir = path.dirname(target);
  const prefix = tempPrefix(target);
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed; // the directory is gone: nothing to clean
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^[0-9a-f]{8}\.tmp$/.test(name.slice(prefix.length))) continue;
    const p = path.join(dir, name);
    await unlink(p).then(
      () => removed.push(p),
      (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      },
    );
  }
  return removed;
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
    if (!force && existsSync(target)) throw new TargetExistsError(target);
    const dir = path.dirname(target);
    const tempPath = path.join(dir, `${tempPrefix(target)}${randomBytes(4).toString('hex')}.tmp`);
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
      if (this.force) await rename(this.tempPath, this.target);
      else await this.linkWithoutOverwrite();
    } catch (e) {
      await this.removeTemp();
      throw e;
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
export async function writeAtomically<T>(target: string, options: AtomicWriteOptions, produce: (sink: FileSink) => Promise<T>): Promise<T> {
  const file = await AtomicFile.create(target, options);
  let result: T;
  try {
    result = await produce(file.sink);
  } catch (e) {
    await file.abort();
    throw e;
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
