// The run directory is checked at open: runs are found by binary search over each chunk's keys, so
// a directory whose runs are out of key order (checksums fixed up, as a crafted file would have
// them) must be refused, not searched (it would lose drawables).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { CHUNK_ENTRY_BYTES, checksum, KEY_ENTRY_BYTES, NODE_ENTRY_BYTES, RUN_ENTRY_BYTES } from '../../../src/core/index/format';
import { parseIndexHeader } from '../../../src/core/index/indexHeader';
import { RowIndex } from '../../../src/core/index/rowIndex';
import { IDENTITY, indexBytes, synthSlog2 } from './rowIndexHelpers';

/** Offset of the directory checksum in the header (magic … dirBytes, see format.ts). */
const DIR_CHECKSUM_AT = 8 + 4 + 4 + 8 + 8 + 4 + 4 + 4 + 4 + 4 + 4 + 8 + 4;

test('a chunk whose runs are out of key order is refused at open', async () => {
  const file = await synthSlog2(64, 256 << 10);
  try {
    const bytes = await indexBytes(file, { blockKeys: 2, chunkBytes: 1 << 20 });
    const intact = await RowIndex.open(new MemorySource('t.mperowidx', bytes), file, IDENTITY);
    await intact.close();

    const h = parseIndexHeader(bytes, 't.mperowidx', bytes.length);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const chunksAt = h.dirOffset + h.keys * KEY_ENTRY_BYTES + h.nodes * NODE_ENTRY_BYTES;
    const runsAt = chunksAt + h.chunks * CHUNK_ENTRY_BYTES;
    let swapped = false;
    for (let c = 0; c < h.chunks && !swapped; c++) {
      const firstRun = dv.getUint32(chunksAt + c * CHUNK_ENTRY_BYTES + 8);
      const runCount = dv.getUint32(chunksAt + c * CHUNK_ENTRY_BYTES + 12);
      if (runCount < 2) continue;
      const a = runsAt + firstRun * RUN_ENTRY_BYTES;
      const first = bytes.slice(a, a + RUN_ENTRY_BYTES);
      bytes.copyWithin(a, a + RUN_ENTRY_BYTES, a + 2 * RUN_ENTRY_BYTES);
      bytes.set(first, a + RUN_ENTRY_BYTES);
      swapped = true;
    }
    assert.ok(swapped, 'a chunk with two runs');
    dv.setUint32(DIR_CHECKSUM_AT, checksum(bytes, h.dirOffset, h.dirOffset + h.dirBytes));
    dv.setUint32(h.headerBytes - 4, checksum(bytes, 0, h.headerBytes - 4));
    await assert.rejects(
      RowIndex.open(new MemorySource('t.mperowidx', bytes), file, IDENTITY),
      (e: unknown) => isFormatError(e) && /out of key order/.test(e.message),
    );
  } finally {
    await file.close();
  }
});
