/**
 * Names of the temporary files that atomic writes create next to their target, and the safe removal
 * of stale ones. A process killed by SIGKILL (or a machine that lost power) cannot clean up, so the
 * name records who made the file: `.<target name>.mpe-tmp.<host tag>.<pid>.<random>.tmp`.
 * A later run removes such a file only when it is certain nobody is writing it any more:
 *  - made on this host by a process id that no longer exists, or
 *  - made on another host (a shared file system) and not modified for STALE_FOREIGN_MS.
 * A live process id (ours, a running convert, or a reused id) is never touched.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A file from another host is stale when it has not been written to for this long. */
export const STALE_FOREIGN_MS = 24 * 3600 * 1000;

const MARK = '.mpe-tmp.';
const NAME = /^\.(.+)\.mpe-tmp\.([0-9a-f]{8})\.(\d{1,10})\.([0-9a-f]{8})\.tmp$/;

let hostTagCache: string | undefined;
/** 8 hex digits identifying this machine (a temp file's pid means nothing on another host). */
export function hostTag(): string {
  return (hostTagCache ??= createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8));
}

/** A fresh temporary path for `target`, in the target's directory (so the final rename is atomic). */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}${MARK}${hostTag()}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export interface TempFileName {
  readonly target: string;
  readonly host: string;
  readonly pid: number;
}

/** Parses a temporary file's base name; undefined when it is not one of ours. */
export function parseTempName(name: string): TempFileName | undefined {
  const m = NAME.exec(name);
  if (m === null) return undefined;
  return { target: m[1]!, host: m[2]!, pid: Number(m[3]) };
}

/** True if a process with this id exists on this machine (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the temp file `name` (with its mtime) can be removed without harming a running writer. */
export function isStaleTemp(name: TempFileName, mtimeMs: number, now = Date.now()): boolean {
  if (name.host === hostTag()) return name.pid !== process.pid && !processAlive(name.pid);
  return now - mtimeMs > STALE_FOREIGN_MS;
}

export interface StaleSweepOptions {
  /** Only temp files of this target base name (default: any target in the directory). */
  readonly target?: string;
  /** Also remove temp files of this process (after its own worker thread died): see removeStrayTempFiles. */
  readonly includeOwnProcess?: boolean;
}

/** Removes stale temporary files in `dir`; returns the paths removed. Never throws for a vanished file. */
export async function removeStaleTempFiles(dir: string, options: StaleSweepOptions = {}): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed; // no directory, nothing to clean
  }
  for (const base of names) {
    if (!base.includes(MARK)) continue;
    const parsed = parseTempName(base);
    if (parsed === undefined || (options.target !== undefined && parsed.target !== options.target)) continue;
    const file = path.join(dir, base);
    const own = options.includeOwnProcess === true && parsed.host === hostTag() && parsed.pid === process.pid;
    if (!own) {
      let mtimeMs: number;
      try {
        const st = await stat(file);
        if (!st.isFile()) continue;
        mtimeMs = st.mtimeMs;
      } catch {
        continue;
      }
      if (!isStaleTemp(parsed, mtimeMs)) continue;
    }
    try {
      await unlink(file);
      removed.push(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return removed;
}
