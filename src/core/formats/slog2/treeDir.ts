/** TreeDir block (SLOG2.md §6) and the per-depth index used to find the nodes overlapping a window. */
import type { BinaryReader } from '../../bytes/binaryReader';

export const TREEDIR_ENTRY_BYTES = 34;

/** One TreeDir entry as written (§6): a node's place in the tree, its time bounds and its block. */
export interface TreeDirEntry {
  readonly depth: number;
  readonly xpos: number;
  readonly earliest: number;
  readonly latest: number;
  readonly fptr: number;
  readonly size: number;
}

export interface TreeNodeInfo extends TreeDirEntry {
  /** File offset of this entry in the TreeDir block (for error messages). */
  readonly entryOffset: number;
}

export function parseTreeDir(r: BinaryReader): TreeNodeInfo[] {
  const count = r.checkCount(r.i32('tree directory entry count'), TREEDIR_ENTRY_BYTES, 'tree directory entry');
  const out: TreeNodeInfo[] = [];
  for (let i = 0; i < count; i++) {
    const entryOffset = r.offset;
    const depth = r.i16('node depth');
    const xpos = r.i32('node xpos');
    const earliest = r.f64('node earliest');
    const latest = r.f64('node latest');
    const fptr = r.i64('node fptr');
    const size = r.i32('node size');
    out.push({ depth, xpos, earliest, latest, fptr, size, entryOffset });
  }
  return out;
}

/** A node's (depth, xpos) as one number (depth ≤ 2^15 and 0 ≤ xpos < 2^31, both checked at open): no string per node. */
export function nodeId(depth: number, xpos: number): number {
  return depth * 0x100000000 + xpos;
}

/**
 * Nodes grouped by depth, each level sorted by xpos (= time order, SLOG2.md §9.2), so the nodes of
 * a level overlapping [t0, t1] are found by binary search.
 */
export class TreeIndex {
  private readonly levels: TreeNodeInfo[][] = [];
  /** Per level: true when xpos order is also time order (bounds non-decreasing), which makes the binary search exact. */
  private readonly ordered: boolean[] = [];
  private readonly byId = new Map<number, TreeNodeInfo>();

  constructor(
    nodes: readonly TreeNodeInfo[],
    readonly maxDepth: number,
  ) {
    for (let d = 0; d <= maxDepth; d++) this.levels.push([]);
    for (const n of nodes) {
      this.levels[n.depth]?.push(n);
      this.byId.set(nodeId(n.depth, n.xpos), n);
    }
    for (const level of this.levels) {
      level.sort((a, b) => a.xpos - b.xpos);
      this.ordered.push(level.every((n, i) => i === 0 || (n.earliest >= level[i - 1]!.earliest && n.latest >= level[i - 1]!.latest)));
    }
  }

  find(depth: number, xpos: number): TreeNodeInfo | undefined {
    return this.byId.get(nodeId(depth, xpos));
  }

  level(depth: number): readonly TreeNodeInfo[] {
    return this.levels[depth] ?? [];
  }

  /** Nodes of one depth whose closed bounds intersect the closed window [t0, t1], in xpos order. */
  overlapping(depth: number, t0: number, t1: number): TreeNodeInfo[] {
    const level = this.level(depth);
    if (!(t0 <= t1)) return [];
    const ordered = this.ordered[depth] === true;
    let lo = 0;
    if (ordered) {
      // First node whose latest >= t0.
      let hi = level.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (level[mid]!.latest < t0) lo = mid + 1;
        else hi = mid;
      }
    }
    const out: TreeNodeInfo[] = [];
    for (let i = lo; i < level.length; i++) {
      const n = level[i]!;
      if (n.earliest > t1) {
        if (ordered) break;
        continue;
      }
      if (n.latest >= t0) out.push(n);
    }
    return out;
  }
}
