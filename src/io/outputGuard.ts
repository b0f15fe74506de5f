/**
 * What an output path may replace. Compared by identity, not by path text: `./a.clog2`, `a.clog2`,
 * a symbolic link to it and a hard link of it are all the same file (same device + inode), and
 * the output must never be the input — with or without --force. Only a regular file (or a
 * symbolic link, which is itself replaced) is ever overwritten: a FIFO, device node, socket or
 * directory is refused, since renaming over `/dev/null` would destroy the device.
 */
import type { Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';

export class UnsafeOutputError extends Error {
  readonly code = 'EUNSAFEOUTPUT';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'UnsafeOutputError';
  }
}

export function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

export function kindOf(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

async function statOrUndefined(f: (p: string) => Promise<Stats>, p: string): Promise<Stats | undefined> {
  try {
    return await f(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined;
    throw e;
  }
}

export interface OutputCheck {
  /** The output path exists (as a file or link). */
  readonly exists: boolean;
  /** Set when the output is a symbolic link: what replacing it means (for a notice to the user). */
  readonly symlinkNote?: string;
}

/**
 * Refuses an output that could not be replaced safely: a non-regular file (always), or a symlink
 * to one. Returns whether it exists and, for a symlink, what --force will do.
 */
export async function checkReplaceable(output: string): Promise<OutputCheck> {
  const l = await statOrUndefined(lstat, output);
  if (l === undefined) return { exists: false };
  if (l.isSymbolicLink()) {
    const t = await statOrUndefined(stat, output);
    if (t !== undefined && !t.isFile()) throw new UnsafeOutputError(output, `is a symbolic link to ${kindOf(t)}; only regular files are replaced`);
    return { exists: true, symlinkNote: `${output} is a symbolic link; it will be replaced by the new file (the file it points to is left unchanged)` };
  }
  if (!l.isFile()) throw new UnsafeOutputError(output, `is ${kindOf(l)}; only regular files are replaced`);
  return { exists: true };
}

/** Refuses when `output` is `input` itself: same path after links, or another hard link to it. */
export async function checkNotInput(input: string, output: string): Promise<void> {
  const i = await statOrUndefined(stat, input);
  if (i === undefined) return; // the input does not exist: opening it reports that
  const asLink = await statOrUndefined(lstat, output);
  const target = await statOrUndefined(stat, output);
  if ((target !== undefined && sameFile(i, target)) || (asLink !== undefined && sameFile(i, asLink))) {
    throw new UnsafeOutputError(
      output,
      `is the input file ${input} (same file${target !== undefined && asLink?.isSymbolicLink() ? ' through a symbolic link' : ''}${i.nlink > 1 ? ', or a hard link to it' : ''}); the input is never overwritten, give another name with -o`,
    );
  }
}

/** Both checks, in the order the user needs them. */
export async function checkOutputFor(input: string, output: string): Promise<OutputCheck> {
  await checkNotInput(input, output);
  return checkReplaceable(output);
}
