/**
 * The checks a SLOG-2 file passes at open (SLOG2.md §2, §13, §17): blocks inside the file and not
 * overlapping, the TreeDir consistent with the header (depths, root, leaves, finite root bounds).
 * Each failure is a FormatError naming the file and the byte offset of the field at fault.
 */
import type { BinaryReader } from '../../bytes/binaryReader';
import type { ByteSource } from '../../bytes/byteSource';
import { FormatError } from '../../bytes/formatError';
import { HEADER_BYTES, MAX_BLOCK_BYTES, blockAtFits, checkBlock, isNullFBinfo, type FBinfo, type Slog2Header } from './header';
import { stableOrder } from './stableOrder';
import { allInKernel, disjointInKernel } from './treeDirKernel';
import { nodeId, type TreeDirColumns, type TreeDirSummary } from './treeDir';

export async function readChecked(source: ByteSource, header: Slog2Header, fb: { fptr: number; size: number }, what: string): Promise<Uint8Array> {
  checkBlock(source.name, source.size, header.maxBufferByteSize, fb, what, fb.fptr);
  return source.read(fb.fptr, fb.size);
}

/** readChecked into `target` (fb.size bytes): a source that can read into a buffer does, else the read is copied. */
export async function readCheckedInto(
  source: ByteSource,
  header: Slog2Header,
  fb: { fptr: number; size: number },
  target: Uint8Array,
  what: string,
): Promise<void> {
  checkBlock(source.name, source.size, header.maxBufferByteSize, fb, what, fb.fptr);
  if (source.readInto !== undefined) return source.readInto(fb.fptr, target.subarray(0, fb.size));
  target.set(await source.read(fb.fptr, fb.size));
}

/** Blocks are packed back to back and never share bytes (SLOG2.md §2, §17): overlapping pointers mean a corrupt file. */
export function checkNoOverlap(file: string, header: Slog2Header, dir?: TreeDirColumns, kept: Int32Array = new Int32Array(0)): void {
  const named: [string, FBinfo, number][] = (
    [
      ['CategoryMap', header.categories, 24],
      ['MethodDefs', header.methodDefs, 36],
      ['LineIDMapList', header.lineIDMaps, 48],
      ['TreeDir', header.treeDir, 72],
      ['Annotations', header.annotations, 84],
      ['Postamble', header.postamble, 96],
    ] as [string, FBinfo, number][]
  ).filter(([, fb]) => !isNullFBinfo(fb));
  if (dir !== undefined && (inKernel(dir, kept, named) || disjoint(dir, kept, named))) return;
  // Columns, not an object per block: a 1 GB file has tens of thousands of nodes (the messages are
  // made only for the overlap found).
  const count = named.length + kept.length;
  const fptr = new Float64Array(count);
  const size = new Float64Array(count);
  named.forEach(([, fb], i) => {
    fptr[i] = fb.fptr;
    size[i] = fb.size;
  });
  if (dir !== undefined) {
    for (let k = 0, i = named.length; k < kept.length; k++, i++) {
      fptr[i] = dir.fptr[kept[k]!]!;
      size[i] = dir.size[kept[k]!]!;
    }
  }
  // Natural merge sort (no comparator): writers list the blocks in a few ascending runs, ours in
  // file order, the reference converter's by tree level.
  const order = stableOrder(fptr, count);
  const entry = (i: number): number => kept[i - named.length]!;
  const what = (i: number): string => (i < named.length ? named[i]![0] : `tree node (${dir!.depth[entry(i)]},${dir!.xpos[entry(i)]})`);
  for (let k = 1; k < count; k++) {
    const prev = order[k - 1]!;
    const cur = order[k]!;
    if (fptr[cur]! < fptr[prev]! + size[prev]!) {
      const at = cur < named.length ? named[cur]![2] : dir!.entryOffset(entry(cur));
      throw new FormatError(file, at, `${what(cur)} block at ${fptr[cur]} overlaps ${what(prev)} block (${size[prev]} bytes at ${fptr[prev]})`);
    }
  }
}

/** The proof in WebAssembly (treeDirKernel.ts), when every entry is kept: no JS pass over the entries. */
function inKernel(dir: TreeDirColumns, kept: Int32Array, named: readonly [string, FBinfo, number][]): boolean {
  if (dir.summary === undefined || kept.length !== dir.count) return false;
  return (
    disjointInKernel(
      dir.fptr,
      dir.size,
      named.map(([, fb]) => fb),
    ) === true
  );
}

/**
 * The quick proof that no two blocks overlap, with two native sorts and no index permutation:
 * half-open blocks are pairwise disjoint exactly when, with their starts and their ends each sorted,
 * every end is at most the next start (a point inside two blocks would be after i + 1 starts but
 * only i − 1 ends). False means "not shown here": the index sort then finds and names the pair.
 * Writers list nodes by level, so that sort merges a run per level: at open, in cold code, it
 * took milliseconds for a 1 GB file's tens of thousands of nodes.
 */
function disjoint(dir: TreeDirColumns, kept: Int32Array, named: readonly [string, FBinfo, number][]): boolean {
  const count = named.length + kept.length;
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  named.forEach(([, fb], i) => {
    starts[i] = fb.fptr;
    ends[i] = fb.fptr + fb.size;
  });
  for (let k = 0, i = named.length; k < kept.length; k++, i++) {
    starts[i] = dir.fptr[kept[k]!]!;
    ends[i] = starts[i]! + dir.size[kept[k]!]!;
  }
  starts.sort();
  ends.sort();
  for (let i = 1; i < count; i++) if (starts[i]! < ends[i - 1]!) return false;
  return true;
}

export function trailing(r: BinaryReader, what: string, warnings: string[]): void {
  if (r.remaining > 0) warnings.push(`${r.file}:${r.offset}: ${r.remaining} unused bytes at the end of the ${what} block`);
}

/**
 * Checks the TreeDir against the header and the file: every entry's block inside the file, depths
 * in 0..max_treedepth, the root present with the header's treeroot FBinfo, leaves present.
 * Duplicate ids are dropped with a warning. Returns the kept entries' indices, in file order.
 */
export function validateTreeDir(dir: TreeDirColumns, header: Slog2Header, source: ByteSource, warnings: string[]): Int32Array {
  const file = source.name;
  const { fptr, size } = dir;
  const s = dir.summary;
  // The parse's summary, when it finds every entry in range and inside the file, spares a pass.
  const { increasing, root, leaves } = s !== undefined && summaryFits(s, header, source.size) ? factsOf(s) : checkEachEntry(dir, header, source);
  const kept = increasing ? (allInKernel(dir.count) ?? allEntries(dir.count)) : withoutDuplicates(dir, file, warnings);
  if (root < 0) throw new FormatError(file, header.treeDir.fptr, `the tree directory has no root node (${header.maxTreeDepth},0)`);
  if (fptr[root] !== header.treeRoot.fptr || size[root] !== header.treeRoot.size) {
    throw new FormatError(
      file,
      60,
      `the header's treeroot FBinfo(${header.treeRoot.size} @ ${header.treeRoot.fptr}) differs from the tree directory's root FBinfo(${size[root]} @ ${fptr[root]})`,
    );
  }
  if (!leaves) throw new FormatError(file, header.treeDir.fptr, 'the tree directory has no leaf node (depth 0)');
  // Infinite bounds too: every view spans the root's time range (fuzzer finding: NaN window spans).
  const [t0, t1] = [dir.earliest[root]!, dir.latest[root]!];
  if (!(t0 <= t1) || !Number.isFinite(t0) || !Number.isFinite(t1)) {
    throw new FormatError(file, dir.entryOffset(root), `the root node's time bounds [${t0}, ${t1}] are invalid`);
  }
  return kept;
}

interface EntryFacts {
  /** Each depth's xpos strictly increase in file order (then no id repeats). */
  readonly increasing: boolean;
  /** The first entry (max_treedepth, 0), or −1. */
  readonly root: number;
  readonly leaves: boolean;
}

function factsOf(s: TreeDirSummary): EntryFacts {
  return { increasing: s.byXpos.every((x) => x === 1), root: s.root, leaves: s.counts[0]! > 0 };
}

/** Every entry's depth, xpos and block, failing at the first one out of range (naming it). */
function checkEachEntry(dir: TreeDirColumns, header: Slog2Header, source: ByteSource): EntryFacts {
  const file = source.name;
  const { depth, xpos, fptr, size } = dir;
  // Writers list each depth in increasing xpos, so ids cannot repeat: only a file that breaks this
  // order pays for the set of ids.
  const lastXpos = new Float64Array(header.maxTreeDepth + 1).fill(-1);
  let increasing = true;
  let root = -1;
  let leaves = false;
  for (let i = 0; i < dir.count; i++) {
    const d = depth[i]!;
    const x = xpos[i]!;
    if (d < 0 || d > header.maxTreeDepth) throw new FormatError(file, dir.entryOffset(i), `tree directory entry depth ${d} outside 0..${header.maxTreeDepth}`);
    if (x < 0) throw new FormatError(file, dir.entryOffset(i), `tree directory entry has negative xpos ${x}`);
    if (!blockAtFits(source.size, header.maxBufferByteSize, fptr[i]!, size[i]!)) {
      checkBlock(file, source.size, header.maxBufferByteSize, { fptr: fptr[i]!, size: size[i]! }, `tree node (${d},${x})`, dir.entryOffset(i));
    }
    if (x <= lastXpos[d]!) increasing = false;
    lastXpos[d] = x;
    // The first entry of an id is the one kept.
    if (root < 0 && d === header.maxTreeDepth && x === 0) root = i;
    if (d === 0) leaves = true;
  }
  return { increasing, root, leaves };
}

/** blockAtFits for every entry, and depths and xpos in range, from the parse's summary. */
function summaryFits(s: TreeDirSummary, header: Slog2Header, fileSize: number): boolean {
  if (!s.inRange || s.counts.length !== header.maxTreeDepth + 1) return false;
  if (s.counts.every((n) => n === 0)) return true;
  // Every fptr is an integer below 2^53 (parseTreeDir refuses others) and every size an i32.
  return s.minSize > 0 && s.minFptr >= HEADER_BYTES && s.maxEnd <= fileSize && s.maxSize <= header.maxBufferByteSize && s.maxSize <= MAX_BLOCK_BYTES;
}

function allEntries(count: number): Int32Array {
  const kept = new Int32Array(count);
  for (let i = 0; i < count; i++) kept[i] = i;
  return kept;
}

/** The indices of the entries without repeated (depth, xpos) ids, the first kept; a warning for each dropped. */
function withoutDuplicates(dir: TreeDirColumns, file: string, warnings: string[]): Int32Array {
  const seen = new Set<number>();
  const kept: number[] = [];
  for (let i = 0; i < dir.count; i++) {
    const id = nodeId(dir.depth[i]!, dir.xpos[i]!);
    if (seen.has(id)) {
      warnings.push(`${file}:${dir.entryOffset(i)}: duplicate tree directory id (${dir.depth[i]},${dir.xpos[i]}) ignored`);
      continue;
    }
    seen.add(id);
    kept.push(i);
  }
  return Int32Array.from(kept);
}
