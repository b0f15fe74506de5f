/**
 * The row index file's header (layout: format.ts): parsed and checked against the file's size
 * before anything else is read (magic, version, checksum, key blocks, the directory's extent).
 */
import { BinaryReader } from '../bytes/binaryReader';
import { FormatError } from '../bytes/formatError';
import {
  checksum,
  CHUNK_ENTRY_BYTES,
  KEY_ENTRY_BYTES,
  levelsFor,
  NODE_ENTRY_BYTES,
  ROW_INDEX_MAGIC,
  ROW_INDEX_VERSION,
  RUN_ENTRY_BYTES,
  type IndexHeader,
} from './format';

/** Upper bound on the directory held in memory (it is ~1 % of the index). */
const MAX_DIRECTORY_BYTES = 1 << 30;

export function parseIndexHeader(bytes: Uint8Array, file: string, fileSize: number): IndexHeader {
  const r = new BinaryReader(bytes, 0, file);
  const magic = String.fromCharCode(...r.bytesView(8, 'magic'));
  if (magic !== ROW_INDEX_MAGIC) throw r.error(`not a row index (magic ${JSON.stringify(magic)}, expected ${ROW_INDEX_MAGIC})`, 0);
  const version = r.u32();
  if (version !== ROW_INDEX_VERSION) throw r.error(`row index version ${version} (this reader knows ${ROW_INDEX_VERSION})`, 8);
  const headerBytes = r.u32();
  const size = r.f64('source size');
  const mtimeMs = r.f64('source mtime');
  const blockKeys = r.u32('block keys');
  const levels = r.u32('levels');
  const keys = r.u32('keys');
  const nodes = r.u32('nodes');
  const chunks = r.u32('chunks');
  const runs = r.u32('runs');
  const dirOffset = r.f64('directory offset');
  const dirBytes = r.u32('directory bytes');
  const dirChecksum = r.u32('directory checksum');
  const mapIndex = r.u32('map index');
  const pathLen = r.u16('path length');
  const path = new TextDecoder().decode(r.bytesView(pathLen, 'source path'));
  const sumAt = r.pos;
  const sum = r.u32('header checksum');
  if (sum !== checksum(bytes, 0, sumAt)) throw new FormatError(file, sumAt, 'row index header checksum mismatch (damaged file)');
  if (headerBytes !== r.pos) throw new FormatError(file, 12, `header size ${headerBytes}, parsed ${r.pos}`);
  if (!(blockKeys >= 1 && blockKeys <= 1 << 20) || levels !== levelsFor(keys, blockKeys) || levels > 60)
    throw new FormatError(file, 32, `bad key blocks (${blockKeys} keys per block, ${levels} levels for ${keys} keys)`);
  const dirEnd = dirOffset + dirBytes;
  const expected = keys * KEY_ENTRY_BYTES + nodes * NODE_ENTRY_BYTES + chunks * CHUNK_ENTRY_BYTES + runs * RUN_ENTRY_BYTES;
  if (!Number.isSafeInteger(dirOffset) || dirOffset < headerBytes || dirEnd !== fileSize || dirBytes !== expected || dirBytes > MAX_DIRECTORY_BYTES) {
    throw new FormatError(
      file,
      56,
      `directory of ${dirBytes} bytes at ${dirOffset} does not fit the ${fileSize}-byte file (expected ${expected} bytes ending at the file end)`,
    );
  }
  return { version, headerBytes, identity: { path, size, mtimeMs }, blockKeys, levels, keys, nodes, chunks, runs, dirOffset, dirBytes, dirChecksum, mapIndex };
}
