/** TreeDir block (SLOG2.md §6) and the per-depth index used to find the nodes overlapping a window. */
import { BinaryReader } from '../../bytes/binaryReader';
import { levelsInKernel, parseInKernel } from './treeDirKernel';

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

/**
 * What the parse learned about the entries in its one pass, so that open checks and indexes them
 * without more passes: each pass over tens of thousands of entries cost ~5 ms at open in a fresh
 * process (cold code), four of them most of the open of a 1.7 GB file. A summary that finds
 * nothing wrong lets those checks skip their loops; otherwise they run and name the entry at fault.
 */
export interface TreeDirSummary {
  /** Every entry's depth in 0..maxDepth and its xpos ≥ 0 (the per-depth fields below need it). */
  readonly inRange: boolean;
  /** Over all entries (0 and 0 when there are none): the lowest fptr, the furthest block end, the smallest and largest size. */
  readonly minFptr: number;
  readonly maxEnd: number;
  readonly minSize: number;
  readonly maxSize: number;
  /** Per depth: its entries, and whether their xpos strictly increase and their bounds never decrease in file order. */
  readonly counts: Int32Array;
  readonly byXpos: Uint8Array;
  readonly inTime: Uint8Array;
  /** The first entry (maxDepth, 0), or −1. */
  readonly root: number;
}

/**
 * The TreeDir as columns, one entry per index in file order. Open parses, checks and indexes tens
 * of thousands of entries for a 1 GB file: as objects that was most of the open (allocation and
 * collection in a fresh process); the objects callers see are made when a query meets a node.
 */
export class TreeDirColumns {
  readonly depth: Int16Array;
  readonly xpos: Int32Array;
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
  readonly fptr: Float64Array;
  readonly size: Int32Array;

  /** Set by parseTreeDir. */
  summary: TreeDirSummary | undefined;

  constructor(
    readonly count: number,
    /** File offset of the first entry. */
    readonly base: number,
  ) {
    this.depth = new Int16Array(count);
    this.xpos = new Int32Array(count);
    this.earliest = new Float64Array(count);
    this.latest = new Float64Array(count);
    this.fptr = new Float64Array(count);
    this.size = new Int32Array(count);
  }

  entryOffset(i: number): number {
    return this.base + i * TREEDIR_ENTRY_BYTES;
  }

  info(i: number): TreeNodeInfo {
    return {
      depth: this.depth[i]!,
      xpos: this.xpos[i]!,
      earliest: this.earliest[i]!,
      latest: this.latest[i]!,
      fptr: this.fptr[i]!,
      size: this.size[i]!,
      entryOffset: this.entryOffset(i),
    };
  }
}

export function parseTreeDir(r: BinaryReader, maxDepth: number): TreeDirColumns {
  const count = r.checkCount(r.i32('tree directory entry count'), TREEDIR_ENTRY_BYTES, 'tree directory entry');
  const dir = new TreeDirColumns(count, r.offset);
  // One view over the whole block, no per-field reader calls (checkCount has made sure all entries are there).
  const bytes = r.bytesView(count * TREEDIR_ENTRY_BYTES, 'tree directory entries');
  const le = r.littleEndian;
  dir.summary = parseInKernel(bytes, count, le, maxDepth, dir);
  if (dir.summary !== undefined) return dir;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0, p = 0; i < count; i++, p += TREEDIR_ENTRY_BYTES) {
    dir.depth[i] = view.getInt16(p, le);
    dir.xpos[i] = view.getInt32(p + 2, le);
    dir.earliest[i] = view.getFloat64(p + 6, le);
    dir.latest[i] = view.getFloat64(p + 14, le);
    const hi = view.getInt32(le ? p + 26 : p + 22, le);
    dir.fptr[i] =
      hi > -0x200000 && hi < 0x200000 ? hi * 0x100000000 + view.getUint32(le ? p + 22 : p + 26, le) : outOfRangeFptr(bytes, dir.base, r.file, le, p + 22);
    dir.size[i] = view.getInt32(p + 30, le);
  }
  return dir;
}

/** The reader's own i64, for its range check and error at the field's offset. */
function outOfRangeFptr(bytes: Uint8Array, base: number, file: string, le: boolean, at: number): number {
  const r = new BinaryReader(bytes, base, file, le);
  r.pos = at;
  return r.i64('node fptr');
}

/** A node's (depth, xpos) as one number (depth ≤ 2^15 and 0 ≤ xpos < 2^31, both checked at open): no string per node. */
export function nodeId(depth: number, xpos: number): number {
  return depth * 0x100000000 + xpos;
}

/**
 * The kept entries (unique ids, see validateTreeDir) grouped by depth, each level sorted by xpos
 * (= time order, SLOG2.md §9.2), so the nodes of a level overlapping [t0, t1] are found by binary
 * search. Each entry's TreeNodeInfo is made once, when first asked for.
 */
export class TreeIndex {
  /** Per level, entry indices in xpos order. */
  private readonly levels: Int32Array[] = [];
  /** Per level: true when xpos order is also time order (bounds non-decreasing), which makes the binary search exact. */
  private readonly ordered: boolean[] = [];
  private readonly infos: (TreeNodeInfo | undefined)[];
  private readonly levelInfos: (readonly TreeNodeInfo[] | undefined)[] = [];

  constructor(
    private readonly dir: TreeDirColumns,
    /** Indices of the kept entries, in file order. */
    private readonly kept: Int32Array,
    readonly maxDepth: number,
  ) {
    this.infos = new Array<TreeNodeInfo | undefined>(dir.count);
    const { xpos, earliest, latest } = dir;
    const s = dir.summary;
    let byXpos: boolean[];
    let inTime: boolean[];
    if (s !== undefined && s.inRange && kept.length === dir.count && s.counts.length === maxDepth + 1) {
      // Every entry kept: the parse has counted the levels and checked their order.
      const grouped = levelsInKernel(dir.depth, s.counts);
      for (let d = 0, at = 0; d <= maxDepth; at += s.counts[d]!, d++)
        this.levels.push(grouped?.subarray(at, at + s.counts[d]!) ?? new Int32Array(s.counts[d]!));
      if (grouped === undefined) {
        const fill = new Int32Array(maxDepth + 1);
        for (let i = 0; i < kept.length; i++) {
          const d = dir.depth[i]!;
          this.levels[d]![fill[d]!++] = i;
        }
      }
      byXpos = Array.from(s.byXpos, (x) => x === 1);
      inTime = Array.from(s.inTime, (x) => x === 1);
    } else {
      const counts = new Int32Array(maxDepth + 1);
      for (let k = 0; k < kept.length; k++) counts[dir.depth[kept[k]!]!]!++;
      for (let d = 0; d <= maxDepth; d++) this.levels.push(new Int32Array(counts[d]!));
      // One pass fills the levels and checks their order as it goes.
      const fill = new Int32Array(maxDepth + 1);
      byXpos = new Array<boolean>(maxDepth + 1).fill(true);
      inTime = new Array<boolean>(maxDepth + 1).fill(true);
      for (let k = 0; k < kept.length; k++) {
        const i = kept[k]!;
        const d = dir.depth[i]!;
        const level = this.levels[d]!;
        const n = fill[d]!++;
        level[n] = i;
        if (n > 0) {
          const p = level[n - 1]!;
          if (!(xpos[p]! < xpos[i]!)) byXpos[d] = false;
          if (!(earliest[p]! <= earliest[i]! && latest[p]! <= latest[i]!)) inTime[d] = false;
        }
      }
    }
    this.levels.forEach((level, d) => {
      // A writer that lists a level out of xpos order: sort it, and check the time order again.
      if (!byXpos[d]) {
        level.sort((a, b) => xpos[a]! - xpos[b]!);
        inTime[d] = true;
        for (let k = 1; k < level.length && inTime[d]; k++) {
          const a = level[k - 1]!;
          const b = level[k]!;
          inTime[d] = earliest[a]! <= earliest[b]! && latest[a]! <= latest[b]!;
        }
      }
      this.ordered.push(inTime[d]!);
    });
  }

  private info(i: number): TreeNodeInfo {
    return (this.infos[i] ??= this.dir.info(i));
  }

  /** The kept entries in file order. */
  all(): TreeNodeInfo[] {
    return Array.from(this.kept, (i) => this.info(i));
  }

  /** Ids are unique: a level is sorted by xpos, and dense xpos index it directly. */
  find(depth: number, xpos: number): TreeNodeInfo | undefined {
    const level = this.levels[depth];
    if (level === undefined) return undefined;
    const x = this.dir.xpos;
    const k = xpos >= 0 && xpos < level.length && x[level[xpos]!] === xpos ? xpos : firstFrom(x, level, xpos);
    return k < level.length && x[level[k]!] === xpos ? this.info(level[k]!) : undefined;
  }

  level(depth: number): readonly TreeNodeInfo[] {
    const level = this.levels[depth];
    if (level === undefined) return [];
    return (this.levelInfos[depth] ??= Array.from(level, (i) => this.info(i)));
  }

  /** Nodes of one depth whose closed bounds intersect the closed window [t0, t1], in xpos order. */
  overlapping(depth: number, t0: number, t1: number): TreeNodeInfo[] {
    return Array.from(this.overlappingEntries(depth, t0, t1), (i) => this.info(i));
  }

  /** overlapping(…).length without making the nodes' objects (the level-of-detail choice counts every depth). */
  countOverlapping(depth: number, t0: number, t1: number): number {
    return this.overlappingEntries(depth, t0, t1).length;
  }

  /** The block bytes of the nodes overlapping(…) lists, without making their objects. */
  bytesOverlapping(depth: number, t0: number, t1: number): number {
    let bytes = 0;
    for (const i of this.overlappingEntries(depth, t0, t1)) bytes += this.dir.size[i]!;
    return bytes;
  }

  /** The entry indices overlapping(…) lists: on a level in time order, a view of its index column. */
  private overlappingEntries(depth: number, t0: number, t1: number): Int32Array {
    const level = this.levels[depth];
    if (level === undefined || !(t0 <= t1)) return new Int32Array(0);
    const { earliest, latest } = this.dir;
    if (this.ordered[depth] === true) {
      // Both bounds non-decreasing: the nodes from the first ending at or after t0 up to the
      // first starting after t1.
      const lo = firstFrom(latest, level, t0);
      return level.subarray(lo, Math.max(lo, firstFrom(earliest, level, t1, true)));
    }
    return level.filter((i) => earliest[i]! <= t1 && latest[i]! >= t0);
  }
}

/**
 * The first position k of a level (sorted by `column`) with column[level[k]] >= x, or > x when
 * `above`: a binary search.
 */
function firstFrom(column: Float64Array | Int32Array, level: Int32Array, x: number, above = false): number {
  let lo = 0;
  let hi = level.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = column[level[mid]!]!;
    if (v < x || (above && v === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
