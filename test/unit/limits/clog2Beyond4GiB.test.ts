/**
 * CLOG2 beyond 4 GiB (issue 9, "no 32-bit overflow anywhere"). A sparse 5.4 GB CLOG2 with
 * block_size = 2^30: blocks 0–3 hold only an ENDBLOCK, block 4 (at 4 GiB + 1024) holds the records
 * of a synthetic run and its ENDLOG, and the communicator table sits after block 4, at
 * 5·2^30 + 1024, named by the preamble as G×2^30 + R = 5, 1073741824, 1024.
 *
 * Reading 5 GB of holes takes minutes on a shared disk, so the stream fed to the parser is the
 * file's data extents read through FileSource + chunksOf from their (> 4 GiB) offsets, and its holes
 * as zero chunks — exactly the bytes the file holds there (a sample of each hole is read back to
 * check). The parser therefore tracks absolute offsets past 2^32 (block ends, the skip after each
 * ENDBLOCK and after ENDLOG, the table offset) on the real layout.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { ByteChunks } from '../../../src/core/bytes/byteSource';
import { chunksOf } from '../../../src/core/bytes/memorySource';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { formatPreamble, parsePreamble, PREAMBLE_BYTES, MPE_EVENT_ID_LAYOUT } from '../../../src/core/formats/clog2/preamble';
import { Clog2Parser } from '../../../src/core/formats/clog2/reader';
import { REC_SIZE, type Clog2Sink } from '../../../src/core/formats/clog2/records';
import { collectConversion } from '../../../src/core/formats/convert/result';
import type { Primitive } from '../../../src/core/model/types';
import { FileSource } from '../../../src/io/fileSource';
import { synthToMemory } from '../synth/synthUtil';

const GiB = 2 ** 30;
const BLOCK = GiB;
const DATA_BLOCK = 4;
const dataStart = PREAMBLE_BYTES + DATA_BLOCK * BLOCK;
const tableOffset = PREAMBLE_BYTES + (DATA_BLOCK + 1) * BLOCK;

/** The records of a CLOG2 (every block's records up to its ENDBLOCK, then the ENDLOG), concatenated. */
function recordsOf(clog2: Uint8Array, blockSize: number): Uint8Array {
  const dv = new DataView(clog2.buffer, clog2.byteOffset, clog2.byteLength);
  const parts: Uint8Array[] = [];
  for (let block = PREAMBLE_BYTES; block < clog2.length; block += blockSize) {
    for (let pos = block; ;) {
      const rectype = dv.getInt32(pos + 20);
      if (rectype === 1) break;
      const size = REC_SIZE[rectype]!;
      parts.push(clog2.subarray(pos, pos + size));
      if (rectype === 0) return concat(parts);
      pos += size;
    }
  }
  throw new Error('no ENDLOG');
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function endBlock(): Uint8Array {
  const r = new Uint8Array(24);
  new DataView(r.buffer).setInt32(20, 1);
  return r;
}

const ZEROS = new Uint8Array(64 << 20);

/** The file as the parser would read it: data extents through FileSource + chunksOf, holes as zeros. */
async function* fileStream(source: FileSource, extents: readonly [number, number][]): ByteChunks {
  let at = 0;
  for (const [start, end] of extents) {
    for (; at < start; at += Math.min(ZEROS.length, start - at)) yield ZEROS.subarray(0, Math.min(ZEROS.length, start - at));
    for await (const chunk of chunksOf(source, 1 << 20, start)) {
      const take = chunk.subarray(0, Math.min(chunk.length, end - at));
      yield take;
      at += take.length;
      if (at >= end) break;
    }
  }
  assert.equal(at, source.size);
}

function key(p: Primitive): string {
  return `${p.category}|${p.vertices.map((v) => `${v.time}@${v.lineID}`).join(',')}`;
}

test('the preamble carries comm-table offsets beyond 4 GiB exactly (G×2^30 + R)', () => {
  for (const offset of [2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, tableOffset, 17 * GiB + 123_456, 2 ** 40 + 8]) {
    const fields = {
      isBigEndian: true,
      isFinalized: true,
      blockSize: BLOCK,
      numBufferedBlocks: 1,
      maxCommWorldSize: 2,
      maxThreadCount: 1,
      ...MPE_EVENT_ID_LAYOUT,
      userStateIDCount: 4,
      userSoloEventIDCount: 2,
    };
    const p = parsePreamble(formatPreamble({ ...fields, commtableFptr: offset }), 'p');
    assert.equal(p.commtableFptr, offset);
    assert.equal(p.blockSize, BLOCK);
  }
});

test('a sparse 5.4 GB CLOG2: blocks and the communicator table beyond 4 GiB convert like the original', async (t) => {
  const { bytes: original } = await synthToMemory({ ranks: 2, seconds: 0.003, seed: 11, blockSize: 4096 });
  const records = recordsOf(original, 4096);
  const commTable = original.subarray(parsePreamble(original, 'o').commtableFptr);
  const synth = parsePreamble(original, 'o');
  const preamble = formatPreamble({ ...synth, blockSize: BLOCK, commtableFptr: tableOffset });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clog2-big-'));
  const file = path.join(dir, 'sparse.clog2');
  const extents: [number, number][] = [[0, PREAMBLE_BYTES + 24]];
  try {
    const fd = fs.openSync(file, 'w');
    try {
      fs.writeSync(fd, preamble, 0, preamble.length, 0);
      for (let k = 0; k < DATA_BLOCK; k++) {
        fs.writeSync(fd, endBlock(), 0, 24, PREAMBLE_BYTES + k * BLOCK);
        if (k > 0) extents.push([PREAMBLE_BYTES + k * BLOCK, PREAMBLE_BYTES + k * BLOCK + 24]);
      }
      fs.writeSync(fd, records, 0, records.length, dataStart);
      fs.writeSync(fd, commTable, 0, commTable.length, tableOffset);
    } catch (e) {
      t.skip(`cannot write a sparse file here: ${String(e)}`);
      return;
    } finally {
      fs.closeSync(fd);
    }
    extents.push([dataStart, dataStart + records.length], [tableOffset, tableOffset + commTable.length]);
    const source = await FileSource.open(file);
    try {
      assert.equal(source.size, tableOffset + commTable.length);
      assert.ok(source.size > 5 * GiB);
      // FileSource + chunksOf from an offset past 4 GiB: the records come back byte for byte.
      let got: Uint8Array = new Uint8Array(0);
      for await (const c of chunksOf(source, 1 << 16, dataStart)) {
        got = concat([got, c]);
        if (got.length >= records.length) break;
      }
      assert.deepEqual(got.subarray(0, records.length), records);
      assert.deepEqual(await source.read(tableOffset, commTable.length), commTable);
      // The holes the stream replaces with zeros are zeros in the file.
      for (const at of [PREAMBLE_BYTES + 24, 2 ** 32 - 8, 2 ** 32 + 4, dataStart - 16, dataStart + records.length, tableOffset - 8]) {
        assert.deepEqual(await source.read(at, 8), new Uint8Array(8), `hole at ${at}`);
      }

      const whole = await collectConversion(convertClog2(fileStream(source, extents), { name: file }));
      const base = await collectConversion(
        convertClog2(
          (async function* () {
            yield original;
          })(),
          { name: 'original' },
        ),
      );
      assert.equal(whole.summary.truncated, false);
      assert.equal(whole.summary.drawables.total, base.summary.drawables.total);
      assert.ok(whole.summary.drawables.total > 100);
      assert.deepEqual(whole.drawables.map(key), base.drawables.map(key));
      assert.ok(!whole.summary.warnings.some((w) => /communicator table|no ENDBLOCK|truncated/.test(w)), whole.summary.warnings.join(' | '));
      assert.equal(whole.summary.records.ENDBLOCK, DATA_BLOCK);

      // The parser found the communicator table at 5·2^30 + 1024.
      const ignore: Clog2Sink = { time: Number.NaN, stateDef() {}, eventDef() {}, event() {}, message() {}, comm() {}, srcloc() {} };
      const parser = new Clog2Parser(file, ignore, () => {});
      for await (const c of fileStream(source, extents)) for (let i = 0; i < c.length; i += 1 << 20) parser.push(c.subarray(i, i + (1 << 20)));
      parser.end();
      assert.equal(parser.received, source.size);
      assert.equal(parser.sawEndLog, true);
      assert.equal(parser.commTable?.length, synth.maxCommWorldSize + 1);
      assert.deepEqual(
        parser.commTable?.map((e) => e.lid),
        [...Array(synth.maxCommWorldSize + 1).keys()],
      );
    } finally {
      await source.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
