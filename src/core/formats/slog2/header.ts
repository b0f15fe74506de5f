/** The 108-byte SLOG-2 header (SLOG2.md §3) and the FBinfo checks shared by every block read. */
import { BinaryReader } from '../../bytes/binaryReader';
import { FormatError } from '../../bytes/formatError';

export const HEADER_BYTES = 108;
export const FBINFO_BYTES = 12;

export type Slog2Version = 'SLOG 2.0.6' | 'SLOG 2.0.5';

/** A file-block pointer: absolute offset and byte size. NULL when fptr == 0 or size <= 0. */
export interface FBinfo {
  readonly fptr: number;
  readonly size: number;
}

export interface Slog2Header {
  readonly version: Slog2Version;
  readonly numChildrenPerNode: number;
  readonly treeLeafByteSize: number;
  readonly maxTreeDepth: number;
  readonly maxBufferByteSize: number;
  readonly categories: FBinfo;
  readonly methodDefs: FBinfo;
  readonly lineIDMaps: FBinfo;
  readonly treeRoot: FBinfo;
  readonly treeDir: FBinfo;
  readonly annotations: FBinfo;
  readonly postamble: FBinfo;
}

export function isNullFBinfo(fb: FBinfo): boolean {
  return fb.fptr === 0 || fb.size <= 0;
}

/**
 * The bytes an SLOG-2 file can use: the end of the furthest block its header points to (tree nodes
 * lie before the tree directory; the postamble is last). Reading a decompressed stream further is
 * never needed. undefined when `head` is shorter than the header.
 */
export function slog2DeclaredExtent(head: Uint8Array): number | undefined {
  if (head.length < HEADER_BYTES) return undefined;
  const dv = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
  let end = HEADER_BYTES;
  for (let i = 0; i < 7; i++) {
    const at = 24 + FBINFO_BYTES * i;
    const fptr = Number(dv.getBigInt64(at));
    const size = dv.getInt32(at + 8);
    if (fptr > 0 && size > 0 && fptr + size > end) end = fptr + size;
  }
  return end;
}

/** True if the first bytes look like an SLOG-2 file (i16 10 + "SLOG 2"), used for format detection. */
export function looksLikeSlog2(head: Uint8Array): boolean {
  const magic = [0x00, 0x0a, 0x53, 0x4c, 0x4f, 0x47, 0x20, 0x32];
  return head.length >= magic.length && magic.every((b, i) => head[i] === b);
}

/**
 * Parses and validates the header against the file size. Every non-NULL FBinfo must lie inside
 * the file after the header and fit max_buffer_bytesize; the four required blocks must be present.
 */
export function parseHeader(bytes: Uint8Array, file: string, fileSize: number): { header: Slog2Header; warnings: string[] } {
  if (fileSize < HEADER_BYTES || bytes.length < HEADER_BYTES) {
    throw new FormatError(file, 0, `file of ${fileSize} bytes is too short for the ${HEADER_BYTES}-byte SLOG-2 header`);
  }
  const r = new BinaryReader(bytes.subarray(0, HEADER_BYTES), 0, file);
  const warnings: string[] = [];
  const versionLength = r.i16('version length');
  if (versionLength !== 10) throw r.error(`not a SLOG-2 file (version string length ${versionLength}, expected 10)`, 0);
  const versionText = new TextDecoder('latin1').decode(r.bytesView(10, 'version'));
  if (!versionText.startsWith('SLOG 2')) throw r.error(`not a SLOG-2 file (version ${JSON.stringify(versionText)})`, 2);
  if (versionText !== 'SLOG 2.0.6' && versionText !== 'SLOG 2.0.5') {
    throw r.error(`unsupported SLOG-2 version "${versionText}" (only 2.0.5 and 2.0.6 are supported)`, 2);
  }
  const version: Slog2Version = versionText;
  const numChildrenPerNode = r.i16('num_children_per_node');
  const treeLeafByteSize = r.i32('treeleaf_bytesize');
  const maxTreeDepth = r.i16('max_treedepth');
  const maxBufferByteSize = r.i32('max_buffer_bytesize');
  const names = ['categories', 'methoddefs', 'lineIDmaps', 'treeroot', 'treedir', 'annotations', 'postamble'] as const;
  const fbs: FBinfo[] = [];
  for (const name of names) fbs.push({ fptr: r.i64(`${name} fptr`), size: r.i32(`${name} size`) });
  const [categories, methodDefs, lineIDMaps, treeRoot, treeDir, annotations, postamble] = fbs as [FBinfo, FBinfo, FBinfo, FBinfo, FBinfo, FBinfo, FBinfo];

  if (fbs.every(isNullFBinfo) && maxBufferByteSize === 0) {
    throw new FormatError(file, 24, 'incomplete SLOG-2 file (conversion did not finish): the header is still the placeholder');
  }
  if (numChildrenPerNode < 2) warnings.push(`num_children_per_node is ${numChildrenPerNode} (expected >= 2)`);
  if (maxTreeDepth < 0) throw new FormatError(file, 18, `negative max_treedepth ${maxTreeDepth}`);
  if (maxBufferByteSize <= 0 || maxBufferByteSize > fileSize) {
    throw new FormatError(file, 20, `max_buffer_bytesize ${maxBufferByteSize} is not in [1, file size ${fileSize}]`);
  }
  names.forEach((name, i) => {
    const fb = fbs[i]!;
    const at = 24 + i * FBINFO_BYTES;
    const required = name === 'categories' || name === 'lineIDmaps' || name === 'treeroot' || name === 'treedir';
    if (isNullFBinfo(fb)) {
      if (required) throw new FormatError(file, at, `the ${name} block pointer is NULL (fptr ${fb.fptr}, size ${fb.size})`);
      return;
    }
    checkBlock(file, fileSize, maxBufferByteSize, fb, name, at);
  });
  return {
    header: {
      version,
      numChildrenPerNode,
      treeLeafByteSize,
      maxTreeDepth,
      maxBufferByteSize,
      categories,
      methodDefs,
      lineIDMaps,
      treeRoot,
      treeDir,
      annotations,
      postamble,
    },
    warnings,
  };
}

/**
 * Throws unless the block lies after the header, inside the file, and is no larger than
 * max_buffer_bytesize. `at` is the file offset of the pointer itself, for the message.
 */
/**
 * The largest single block we read (a cap on one allocation). The reference writes 64 KiB leaves;
 * upper nodes hold long drawables plus one shadow per (topology, line) and child, which stays far
 * below this even for tens of thousands of timelines. A damaged size cannot ask for gigabytes.
 */
export const MAX_BLOCK_BYTES = 256 * 2 ** 20;

/** True when `checkBlock` would pass (for hot loops, which build the message only for a bad block). */
export function blockAtFits(fileSize: number, maxBufferByteSize: number, fptr: number, size: number): boolean {
  return (
    Number.isSafeInteger(fptr) &&
    Number.isSafeInteger(size) &&
    size > 0 &&
    fptr >= HEADER_BYTES &&
    fptr + size <= fileSize &&
    size <= maxBufferByteSize &&
    size <= MAX_BLOCK_BYTES
  );
}

export function checkBlock(file: string, fileSize: number, maxBufferByteSize: number, fb: FBinfo, what: string, at: number): void {
  if (!Number.isSafeInteger(fb.fptr) || !Number.isSafeInteger(fb.size) || fb.size <= 0) {
    throw new FormatError(file, at, `${what} block has an invalid pointer (fptr ${fb.fptr}, size ${fb.size})`);
  }
  if (fb.fptr < HEADER_BYTES) {
    throw new FormatError(file, at, `${what} block at ${fb.fptr} overlaps the ${HEADER_BYTES}-byte header`);
  }
  if (fb.fptr + fb.size > fileSize) {
    throw new FormatError(file, at, `${what} block (${fb.size} bytes at ${fb.fptr}) ends past the end of the file (${fileSize} bytes; truncated file?)`);
  }
  if (fb.size > maxBufferByteSize) {
    throw new FormatError(file, at, `${what} block size ${fb.size} exceeds max_buffer_bytesize ${maxBufferByteSize}`);
  }
  if (fb.size > MAX_BLOCK_BYTES) {
    throw new FormatError(file, at, `${what} block of ${fb.size} bytes exceeds the ${MAX_BLOCK_BYTES / 2 ** 20} MiB limit of one block (damaged size?)`);
  }
}
