/**
 * The checks a SLOG-2 file passes at open (SLOG2.md §2, §13, §17): blocks inside the file and not
 * overlapping, the TreeDir consistent with the header (depths, root, leaves, finite root bounds).
 * Each failure is a FormatError naming the file and the byte offset of the field at fault.
 */
import type { BinaryReader } from '../../bytes/binaryReader';
import type { ByteSource } from '../../bytes/byteSource';
import { FormatError } from '../../bytes/formatError';
import { blockFits, checkBlock, isNullFBinfo, type FBinfo, type Slog2Header } from './header';
import { nodeId, type TreeNodeInfo } from './treeDir';

export async function readChecked(source: ByteSource, header: Slog2Header, fb: { fptr: number; size: number }, what: string): Promise<Uint8Array> {
  checkBlock(source.name, source.size, header.maxBufferByteSize, fb, what, fb.fptr);
  return source.read(fb.fptr, fb.size);
}

/** Blocks are packed back to back and never share bytes (SLOG2.md §2, §17): overlapping pointers mean a corrupt file. */
export function checkNoOverlap(file: string, header: Slog2Header, nodes: readonly TreeNodeInfo[]): void {
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
  // Columns and an index sort, not an object per block: a 1 GB file has tens of thousands of nodes,
  // and this runs on every open (the messages are made only for the overlap found).
  const count = named.length + nodes.length;
  const fptr = new Float64Array(count);
  const size = new Float64Array(count);
  named.forEach(([, fb], i) => {
    fptr[i] = fb.fptr;
    size[i] = fb.size;
  });
  nodes.forEach((n, i) => {
    fptr[named.length + i] = n.fptr;
    size[named.length + i] = n.size;
  });
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((x, y) => fptr[x]! - fptr[y]! || x - y);
  const what = (i: number): string => (i < named.length ? named[i]![0] : `tree node (${nodes[i - named.length]!.depth},${nodes[i - named.length]!.xpos})`);
  for (let k = 1; k < count; k++) {
    const prev = order[k - 1]!;
    const cur = order[k]!;
    if (fptr[cur]! < fptr[prev]! + size[prev]!) {
      const at = cur < named.length ? named[cur]![2] : nodes[cur - named.length]!.entryOffset;
      throw new FormatError(file, at, `${what(cur)} block at ${fptr[cur]} overlaps ${what(prev)} block (${size[prev]} bytes at ${fptr[prev]})`);
    }
  }
}

export function trailing(r: BinaryReader, what: string, warnings: string[]): void {
  if (r.remaining > 0) warnings.push(`${r.file}:${r.offset}: ${r.remaining} unused bytes at the end of the ${what} block`);
}

/**
 * Checks the TreeDir against the header and the file: every entry's block inside the file, depths
 * in 0..max_treedepth, the root present with the header's treeroot FBinfo, leaves present.
 * Duplicate ids are dropped with a warning.
 */
export function validateTreeDir(
  entries: TreeNodeInfo[],
  header: Slog2Header,
  source: ByteSource,
  warnings: string[],
): { nodes: TreeNodeInfo[]; root: TreeNodeInfo } {
  const file = source.name;
  const seen = new Set<number>();
  const nodes: TreeNodeInfo[] = [];
  for (const e of entries) {
    if (e.depth < 0 || e.depth > header.maxTreeDepth) {
      throw new FormatError(file, e.entryOffset, `tree directory entry depth ${e.depth} outside 0..${header.maxTreeDepth}`);
    }
    if (e.xpos < 0) throw new FormatError(file, e.entryOffset, `tree directory entry has negative xpos ${e.xpos}`);
    if (!blockFits(source.size, header.maxBufferByteSize, e))
      checkBlock(file, source.size, header.maxBufferByteSize, e, `tree node (${e.depth},${e.xpos})`, e.entryOffset);
    const id = nodeId(e.depth, e.xpos);
    if (seen.has(id)) {
      warnings.push(`${file}:${e.entryOffset}: duplicate tree directory id (${e.depth},${e.xpos}) ignored`);
      continue;
    }
    seen.add(id);
    nodes.push(e);
  }
  const root = nodes.find((n) => n.depth === header.maxTreeDepth && n.xpos === 0);
  if (root === undefined) throw new FormatError(file, header.treeDir.fptr, `the tree directory has no root node (${header.maxTreeDepth},0)`);
  if (root.fptr !== header.treeRoot.fptr || root.size !== header.treeRoot.size) {
    throw new FormatError(
      file,
      60,
      `the header's treeroot FBinfo(${header.treeRoot.size} @ ${header.treeRoot.fptr}) differs from the tree directory's root FBinfo(${root.size} @ ${root.fptr})`,
    );
  }
  if (!nodes.some((n) => n.depth === 0)) throw new FormatError(file, header.treeDir.fptr, 'the tree directory has no leaf node (depth 0)');
  // Infinite bounds too: every view spans the root's time range (fuzzer finding: NaN window spans).
  if (!(root.earliest <= root.latest) || !Number.isFinite(root.earliest) || !Number.isFinite(root.latest)) {
    throw new FormatError(file, root.entryOffset, `the root node's time bounds [${root.earliest}, ${root.latest}] are invalid`);
  }
  return { nodes, root };
}
