import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { decodeNodeColumns } from '../../../src/core/formats/slog2/nodeColumns';
import { countRows, MIN_MEMBER_BYTES, SCRATCH_MAX_ROWS } from '../../../src/core/formats/slog2/nodeScratch';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { NODE_HEADER_BYTES } from '../../../src/core/formats/slog2/treeNode';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { makePrimitive, type Primitive } from '../../../src/core/model/types';
import { CATEGORIES, topologyOf } from '../slog2writer/synthetic';
import { fixture } from '../../helpers/paths';

const FIXTURES = ['ring_p2p_4', 'collectives_8', 'grid_comms_16', 'pi_bcast_4', 'threads_2x3', 'user_states_4', 'bigrun_medium_4'];

function fixtureBytes(name: string): Uint8Array {
  const plain = fixture(`${name}.slog2`);
  if (fs.existsSync(plain)) return new Uint8Array(fs.readFileSync(plain));
  return new Uint8Array(gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
}

const count = (block: Uint8Array) => countRows(new DataView(block.buffer, block.byteOffset, block.byteLength), NODE_HEADER_BYTES, block.length);

test("a node's rows counted without decoding: the decoder's rows and drawables, every node of the fixtures", async () => {
  for (const name of FIXTURES) {
    const f = await Slog2File.open(new MemorySource(`${name}.slog2`, fixtureBytes(name)));
    for (const info of f.treeDir) {
      const block = new Uint8Array(await f.readBlockView(info, 'node'));
      const decoded = decodeNodeColumns(block, info.fptr, name, undefined, []);
      assert.deepEqual(count(block), { rows: decoded.rows, drawables: decoded.drawables }, `${name} node (${info.depth},${info.xpos})`);
    }
    await f.close();
  }
});

/** A node block by hand: header, then the two lists (a primitive of `nv` vertices; a composite of `members`). */
function handMade(lists: readonly (readonly { composite?: number; nv?: number; info?: number }[])[]): Uint8Array {
  const parts: number[] = new Array<number>(NODE_HEADER_BYTES).fill(0);
  const i32 = (v: number) => parts.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
  const i16 = (v: number) => parts.push((v >>> 8) & 255, v & 255);
  const primitive = (nv: number, info: number) => {
    i32(1);
    i16(info);
    for (let k = 0; k < info; k++) parts.push(7);
    i16(nv);
    for (let v = 0; v < nv; v++) parts.push(0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, v);
  };
  for (const list of lists) {
    i32(list.length);
    for (const d of list) {
      parts.push(d.composite === undefined ? 0 : 1);
      if (d.composite === undefined) primitive(d.nv ?? 2, d.info ?? 0);
      else {
        i32(2);
        i16(d.info ?? 0);
        for (let k = 0; k < (d.info ?? 0); k++) parts.push(1);
        i16(d.composite);
        for (let m = 0; m < d.composite; m++) primitive(m + 1, m);
      }
    }
  }
  return Uint8Array.from(parts);
}

test('rows counted with composites (their members are rows); undefined wherever the decoder fails', () => {
  const block = handMade([[{ nv: 1 }, { composite: 3, info: 5 }], [{ nv: 3, info: 8 }]]);
  assert.deepEqual(count(block), { rows: 5, drawables: 3 });
  assert.deepEqual(count(handMade([[], []])), { rows: 0, drawables: 0 });
  for (let cut = NODE_HEADER_BYTES; cut < block.length; cut++) assert.equal(count(block.subarray(0, cut)), undefined, `cut at ${cut}`);
  const badKind = block.slice();
  badKind[NODE_HEADER_BYTES + 4] = 2;
  assert.equal(count(badKind), undefined);
  assert.equal(count(handMade([[{ composite: 0 }], []])), undefined);
  assert.equal(count(handMade([[{ nv: 0 }], []])), undefined);
  const negative = block.slice();
  new DataView(negative.buffer).setInt32(NODE_HEADER_BYTES, -1);
  assert.equal(count(negative), undefined);
});

test('a big leaf (its worst case over the shared scratch) decodes by its counted rows, as the objects say', async () => {
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { topologyOf, leafBytes: 5 << 20 });
  const drawables: Primitive[] = [];
  for (let i = 0; i < 140_000; i++)
    drawables.push(
      makePrimitive(1 + (i % 2), [
        { time: i, lineID: i % 7 },
        { time: i + 0.5, lineID: i % 7 },
      ]),
    );
  for (const d of drawables) w.add(d);
  const maps = [{ title: 'Process View', columns: ['world_rank'], rows: Array.from({ length: 7 }, (_, r) => ({ lineID: r, path: [r] })), methods: [] }];
  await w.finish({ categories: CATEGORIES, lineIDMaps: maps });
  const f = await Slog2File.open(new MemorySource('big.slog2', sink.bytes()));
  const big = f.treeDir.filter((e) => e.size / MIN_MEMBER_BYTES > SCRATCH_MAX_ROWS);
  assert.ok(big.length > 0, 'a node past the shared scratch');
  let rows = 0;
  for (const info of big) {
    const block = new Uint8Array(await f.readBlockView(info, 'node'));
    const decoded = decodeNodeColumns(block, info.fptr, 'big.slog2', undefined, []);
    const objects = (await f.readNode(info)).drawables;
    assert.equal(decoded.rows, objects.length);
    for (const r of [...Array.from({ length: Math.ceil(decoded.rows / 997) }, (_, k) => k * 997), decoded.rows - 1]) {
      const d = objects[r]!;
      assert.equal(decoded.category[r], d.category);
      assert.equal(decoded.earliest[r], d.earliest);
      assert.equal(decoded.latest[r], d.latest);
    }
    rows += decoded.rows;
    // damaged: the worst case again, and the decoder's own error
    assert.throws(
      () => decodeNodeColumns(block.subarray(0, block.length >> 1), info.fptr, 'big.slog2', undefined, []),
      (e: unknown) => isFormatError(e) && /^big\.slog2:\d+: /.test((e as Error).message),
    );
  }
  assert.ok(rows > SCRATCH_MAX_ROWS / 2);
  await f.close();
});
