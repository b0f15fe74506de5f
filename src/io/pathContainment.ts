/**
 * "Is this file inside the workspace?" by real paths, not path text (issue 14 §13, §15): with
 * `ws/sys -> /etc`, the text `ws/sys/passwd` is inside `ws` but the file is `/etc/passwd`; and
 * `/ws/../../tmp/x` starts with `/ws/` as text. Both sides are normalised and resolved through
 * symbolic links (for a path that does not exist yet, its nearest existing ancestor is resolved).
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** The real path of `p` (absolute, normalised, links resolved as far as the path exists). */
export async function realPathOf(p: string): Promise<string> {
  const abs = path.resolve(p);
  try {
    return await realpath(abs);
  } catch {
    const parent = path.dirname(abs);
    if (parent === abs) return abs;
    return path.join(await realPathOf(parent), path.basename(abs));
  }
}

/** Pure: `child` equals `root` or lies below it (both absolute and normalised). */
export function isWithin(child: string, root: string, ignoreCase = process.platform === 'win32' || process.platform === 'darwin'): boolean {
  const c = ignoreCase ? child.toLowerCase() : child;
  const r = ignoreCase ? root.toLowerCase() : root;
  if (c === r) return true;
  const base = r.endsWith(path.sep) ? r : r + path.sep;
  return c.startsWith(base);
}

export interface Containment {
  readonly inside: boolean;
  /** The target's real path (what would actually be opened). */
  readonly real: string;
  /** The root it is inside, when inside. */
  readonly root?: string;
}

/** Whether the real path of `target` lies inside the real path of one of `roots`. */
export async function realPathInside(target: string, roots: readonly string[]): Promise<Containment> {
  const real = await realPathOf(target);
  for (const root of roots) {
    const realRoot = await realPathOf(root);
    if (isWithin(real, realRoot)) return { inside: true, real, root };
  }
  return { inside: false, real };
}
