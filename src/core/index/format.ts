/**
 * The rows × time index of one SLOG-2 file (a sidecar; the SLOG-2 stays untouched, Jumpshot-4
 * still reads it). In the spirit of R-SHT (key bounds as well as time bounds, overlapping
 * subtrees): the SLOG-2 tree already cuts time; the index cuts each tree node's drawables by
 * timeline ("key") and stores them regrouped, so a query with a row range and a time range reads
 * only the bytes of those rows in the tree nodes of that time range.
 *
 * KEYS: every line ID of the Y maps gets a key 0..nkeys-1, ordered by (row in the index's map,
 * line ID); line IDs the index map lacks come last. A drawable's key interval is [min, max] of
 * its vertices' keys (all members of a composite); a line ID outside the maps spans all keys.
 * KEY LEVELS: level ℓ has blocks of S = blockKeys·2^ℓ keys; a drawable goes to the lowest level
 * where its interval touches at most two adjacent blocks, in the block of its first key. A query
 * for keys [a, b] reads, at every level, blocks ⌊a/S⌋−1 … ⌊b/S⌋ (a segment tree with overlap, so
 * an arrow across a block boundary is not pushed to the top). Costs: states and events are all
 * at level 0; only long arrows climb.
 * RUN: (kind real|shadow, level, block) inside a CHUNK (consecutive tree nodes in ordinal order =
 * depth descending, then xpos, so the nodes of one depth overlapping a window are consecutive).
 * A run stores per chunk node {u32 end offset, u32 checksum} and then the node segments back to
 * back; a segment is a list of items:
 *   real:   u32 index in the node's drawable list (nestless then nestable, after drops), u8 flags
 *           (1 = source), [i32 start site, i32 end site], the drawable's SLOG-2 bytes (kind byte first)
 *   shadow: u32 index among the node's shadows (buffers in order), the shadow's SLOG-2 bytes
 * Items of a segment are in index order, so merging the runs of a node restores file order:
 * the query yields exactly the plain query's drawables on those rows, in the same order.
 *
 * FILE: header (below) | run tables and data | directory (keys, nodes, chunks, runs).
 * All integers big-endian. The header names the SLOG-2 (path, size, mtime) and every node's
 * (depth, xpos, fptr, size) is checked against the SLOG-2's TreeDir at open; the header and the
 * directory carry checksums, every node segment carries its own (checked when read).
 */

export const ROW_INDEX_MAGIC = 'MPERWIX1';
/** 3: the lanes' words rotated after each step (version 1 and 2 indexes are rebuilt). */
export const ROW_INDEX_VERSION = 3;
/** Fixed header bytes before the source path. */
export const FIXED_HEADER_BYTES = 76;
export const KIND_REAL = 0;
export const KIND_SHADOW = 1;
export const ITEM_HAS_SOURCE = 1;
/** Keys per level-0 block. */
export const DEFAULT_BLOCK_KEYS = 16;
export const NODE_ENTRY_BYTES = 18;
export const CHUNK_ENTRY_BYTES = 16;
export const RUN_ENTRY_BYTES = 22;
export const KEY_ENTRY_BYTES = 4;
/** Per chunk node in a run table: end offset + checksum. */
export const TABLE_ENTRY_BYTES = 8;

/** Who the index belongs to (the SLOG-2 as stat saw it when the index was built). */
export interface SourceIdentity {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface IndexHeader {
  readonly version: number;
  readonly headerBytes: number;
  readonly identity: SourceIdentity;
  readonly blockKeys: number;
  readonly levels: number;
  readonly keys: number;
  readonly nodes: number;
  readonly chunks: number;
  readonly runs: number;
  readonly dirOffset: number;
  readonly dirBytes: number;
  readonly dirChecksum: number;
  /** Which Y map orders the keys. */
  readonly mapIndex: number;
}

/**
 * Four interleaved 32-bit FNV-1a lanes over little-endian 32-bit words (lane k takes words k,
 * k+4, …), combined, then the tail bytes: catches flipped and shifted bytes in a segment (every
 * step is a bijection of the state, so one changed word always changes the sum). Each step's
 * product is rotated: a multiply only carries a difference upwards, so in version 2 a flip of a
 * word's top bit stayed a top-bit difference to the end and two such flips cancelled (fuzz case
 * rowindex:319:2236: a damaged index read as sound). The byte-wise FNV of version 1 ran at 0.8
 * GB/s, 14 % of a build; the lanes run at ~4.3 GB/s, version 2's unrotated ones at ~5.8 GB/s (64
 * MiB in 4 KiB segments, node, 7 alternating runs; little-endian DataView reads are 2.5× the
 * big-endian ones in V8).
 */
export function checksum(bytes: Uint8Array, from = 0, to = bytes.length): number {
  return checksumOf(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes, from, to);
}

/**
 * checksum() through a DataView over the same bytes as `bytes`, for callers that checksum many
 * short segments of one buffer (a DataView per call was 15 % of a 16 384-rank index build).
 */
export function checksumOf(dv: DataView, bytes: Uint8Array, from: number, to: number): number {
  const P = 16777619;
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  let c = 0x2a4b3c8d;
  let d = 0x5bd1e995;
  let i = from;
  for (; i + 16 <= to; i += 16) {
    a = Math.imul(a ^ dv.getInt32(i, true), P);
    a = (a << 13) | (a >>> 19);
    b = Math.imul(b ^ dv.getInt32(i + 4, true), P);
    b = (b << 13) | (b >>> 19);
    c = Math.imul(c ^ dv.getInt32(i + 8, true), P);
    c = (c << 13) | (c >>> 19);
    d = Math.imul(d ^ dv.getInt32(i + 12, true), P);
    d = (d << 13) | (d >>> 19);
  }
  let h = Math.imul(a ^ b, P);
  h = Math.imul(((h << 13) | (h >>> 19)) ^ c, P);
  h = Math.imul(((h << 13) | (h >>> 19)) ^ d, P);
  for (; i < to; i++) h = Math.imul(((h << 13) | (h >>> 19)) ^ bytes[i]!, P);
  // a final mix (murmur3's): the last step's difference reaches the low bits too
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Level and block of a key interval [a, b] (a ≤ b). */
export function placeInterval(a: number, b: number, blockKeys: number, levels: number): { level: number; block: number } {
  const level = levelOf(a, b, blockKeys, levels);
  return { level, block: level === levels - 1 ? 0 : Math.floor(a / (blockKeys * 2 ** level)) };
}

/** The level of placeInterval alone (the builder's hot path). */
export function levelOf(a: number, b: number, blockKeys: number, levels: number): number {
  let s = blockKeys;
  for (let level = 0; level < levels - 1; level++, s *= 2) {
    if (Math.floor(b / s) - Math.floor(a / s) <= 1) return level;
  }
  return levels - 1;
}

/** Levels needed so that the top level's single block holds every key. */
export function levelsFor(keys: number, blockKeys: number): number {
  let levels = 1;
  while (blockKeys * 2 ** (levels - 1) < Math.max(1, keys)) levels++;
  return levels;
}

/** Blocks of one level a query for keys [a, b] must read (inclusive range). */
export function blocksToRead(a: number, b: number, level: number, blockKeys: number, levels: number): readonly [number, number] {
  if (level === levels - 1) return [0, 0];
  const s = blockKeys * 2 ** level;
  return [Math.max(0, Math.floor(a / s) - 1), Math.floor(b / s)];
}

export function runKey(kind: number, level: number, block: number): number {
  // level < 64, kind < 2: fits exactly in a double.
  return (block * 64 + level) * 2 + kind;
}
