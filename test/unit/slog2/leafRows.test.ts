// A leaf's rows packed for posting (OrderedLeaf.pack, what the decoder thread sends) equal the
// same leaf as a batch (toBatch, what a stream in one thread yields): every column, sites as
// indices into the file's table, each row's info bytes; at an offset into columns already partly
// filled, as the decoder thread appends leaf after leaf. Includes a composite whose members carry
// info bytes (one copy per drawable: the offsets inside it must hold). A stream that recycles its
// nodes' buffers gives the same rows as one that does not, over many more leaves than it caches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { leavesInTimeOrder, primitiveBatchesInTimeOrder, type PackedRows, type PrimitiveBatch } from '../../../src/core/formats/slog2/columnStream';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { makePrimitive, type Drawable } from '../../../src/core/model/types';
import { CATEGORIES, syntheticTrace, topologyOf } from '../slog2writer/synthetic';
import { fixture } from '../../helpers/paths';

const COLUMNS = ['category', 'vertexCount', 'time0', 'line0', 'time1', 'line1', 'earliest', 'latest', 'drawableEarliest'] as const;

function packedColumns(rows: number, infoBytes: number): PackedRows {
  const f64 = () => new Float64Array(rows).fill(-1);
  const i32 = () => new Int32Array(rows).fill(-7);
  return {
    category: i32(),
    vertexCount: i32(),
    time0: f64(),
    line0: i32(),
    time1: f64(),
    line1: i32(),
    earliest: f64(),
    latest: f64(),
    drawableEarliest: f64(),
    site: i32(),
    timeLast: f64(),
    lineLast: i32(),
    infoStart: i32(),
    infoLength: i32(),
    info: new Uint8Array(infoBytes).fill(0xee),
  };
}

/** Packs each leaf after `lead` rows and info bytes already there; returns the rows compared. */
async function comparePacked(f: Slog2File, name: string, withLast: boolean): Promise<{ rows: number; infoBytes: number }> {
  let rows = 0;
  let infoBytes = 0;
  for await (const leaf of leavesInTimeOrder(f, -Infinity, Infinity, { withLastAndInfo: withLast })) {
    const batch = leaf.toBatch(undefined, withLast);
    assert.equal(batch.rows, leaf.rows, `${name}: rows`);
    let wantInfo = 0;
    for (let i = 0; i < batch.rows; i++) wantInfo += batch.infoLength[i]!;
    const leafInfo = withLast ? leaf.infoBytes() : 0;
    assert.equal(leafInfo, withLast ? wantInfo : 0, `${name}: info bytes of the leaf`);
    const lead = 3;
    const infoLead = 5;
    const out = packedColumns(lead + leaf.rows + 2, infoLead + leafInfo + 2);
    const used = leaf.pack(out, lead, infoLead, withLast);
    assert.equal(used, infoLead + leafInfo, `${name}: info bytes used`);
    assert.equal(out.category[lead - 1], -7, `${name}: rows before the offset untouched`);
    assert.equal(out.category[lead + leaf.rows], -7, `${name}: rows after the leaf untouched`);
    assert.equal(out.info[infoLead - 1], 0xee, `${name}: info before the offset untouched`);
    for (let i = 0; i < leaf.rows; i++) {
      const k = lead + i;
      for (const c of COLUMNS) assert.equal(out[c][k], batch[c][i], `${name}: ${c} of row ${rows + i}`);
      assert.equal(out.site[k], batch.siteIndex[i], `${name}: site of row ${rows + i}`);
      const s = batch.site[i];
      assert.equal(s === undefined ? -1 : f.sourceLocationTable?.sites.indexOf(s), batch.siteIndex[i], `${name}: site index names the site`);
      if (!withLast) continue;
      assert.equal(out.timeLast[k], batch.timeLast[i]);
      assert.equal(out.lineLast[k], batch.lineLast[i]);
      assert.equal(out.infoLength[k], batch.infoLength[i]);
      const start = batch.infoStart[i]!;
      const want = batch.infoSource[i]?.subarray(start, start + batch.infoLength[i]!) ?? new Uint8Array(0);
      assert.deepEqual(out.info.subarray(out.infoStart[k]!, out.infoStart[k]! + out.infoLength[k]!), want, `${name}: info of row ${rows + i}`);
    }
    rows += leaf.rows;
    infoBytes += leafInfo;
  }
  return { rows, infoBytes };
}

// With info bytes (message arrows' tag and size) and without (collectives only).
for (const [name, withInfo] of [
  ['ring_p2p_4', true],
  ['collectives_8', false],
  ['threads_2x3', true],
  ['bigrun_medium_4', true],
] as const) {
  test(`${name}: each leaf packed for posting equals it as a batch`, async () => {
    const plain = fixture(`${name}.slog2`);
    const bytes = fs.existsSync(plain) ? fs.readFileSync(plain) : gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`)));
    const f = await Slog2File.open(new MemorySource(name, new Uint8Array(bytes)));
    try {
      const all = await comparePacked(f, name, true);
      assert.ok(all.rows > 0 && all.infoBytes > 0 === withInfo, `${name}: rows and info bytes (${all.rows}, ${all.infoBytes})`);
      assert.equal((await comparePacked(f, name, false)).rows, all.rows);
    } finally {
      await f.close();
    }
  });
}

test('a composite whose members carry info bytes: each member keeps its own', async () => {
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { topologyOf });
  const info = (...b: number[]) => new Uint8Array(b);
  const members = [
    makePrimitive(3, [{ time: 1, lineID: 0 }], info(1, 2, 3, 4)),
    makePrimitive(3, [{ time: 1.5, lineID: 1 }]),
    makePrimitive(3, [{ time: 2, lineID: 0 }], info(9, 8, 7, 6, 5)),
  ];
  const composite: Drawable = { kind: 'composite', category: 3, info: info(42, 42), primitives: members, earliest: 1, latest: 2 };
  const drawables: Drawable[] = [
    makePrimitive(3, [{ time: 0.5, lineID: 1 }], info(11, 12, 13, 14)),
    composite,
    makePrimitive(0, [
      { time: 1.2, lineID: 0 },
      { time: 3, lineID: 0 },
    ]),
  ];
  for (const d of drawables) w.add(d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: [] });
  const f = await Slog2File.open(new MemorySource('composite.slog2', sink.bytes()));
  try {
    assert.deepEqual(await comparePacked(f, 'composite', true), { rows: 5, infoBytes: 13 });
  } finally {
    await f.close();
  }
});

test('a stream recycling its nodes (more leaves than it caches) gives the rows of one that does not', async () => {
  const { drawables, maps } = syntheticTrace(6, 400);
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { leafBytes: 600, topologyOf });
  for (const d of drawables) w.add(d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: maps, sourceLocations: { records: 1, sites: 3 } });
  const f = await Slog2File.open(new MemorySource('recycled.slog2', sink.bytes()));
  try {
    assert.ok(f.level(0).length > 4 * 64, `many more leaves than nodes cached (${f.level(0).length})`);
    const [a, b] = f.timeRange;
    for (const [t0, t1] of [
      [-Infinity, Infinity],
      [a + (b - a) * 0.2, a + (b - a) * 0.7],
    ] as const) {
      const want = await rowsOf(primitiveBatchesInTimeOrder(f, t0, t1, { withLastAndInfo: true }));
      assert.equal(want.length, t0 === -Infinity ? drawables.length : want.length);
      assert.deepEqual(await rowsOf(primitiveBatchesInTimeOrder(f, t0, t1, { withLastAndInfo: true, reuse: true, recycleNodes: true })), want);
      const packed: string[] = [];
      for await (const leaf of leavesInTimeOrder(f, t0, t1, { withLastAndInfo: true, recycleNodes: true })) {
        const out = packedColumns(leaf.rows, leaf.infoBytes());
        leaf.pack(out, 0, 0, true);
        for (let i = 0; i < leaf.rows; i++)
          packed.push(
            row(
              out.category[i]!,
              out.time0[i]!,
              out.line0[i]!,
              out.timeLast[i]!,
              out.site[i]!,
              out.info.subarray(out.infoStart[i]!, out.infoStart[i]! + out.infoLength[i]!),
            ),
          );
      }
      assert.deepEqual(packed, want);
    }
  } finally {
    await f.close();
  }
});

function row(category: number, time0: number, line0: number, timeLast: number, site: number, info: Uint8Array): string {
  return `${category} ${time0} ${line0} ${timeLast} ${site} ${Buffer.from(info).toString('hex')}`;
}

async function rowsOf(batches: AsyncIterable<PrimitiveBatch>): Promise<string[]> {
  const out: string[] = [];
  for await (const b of batches)
    for (let i = 0; i < b.rows; i++) {
      const s = b.infoStart[i]!;
      out.push(
        row(b.category[i]!, b.time0[i]!, b.line0[i]!, b.timeLast[i]!, b.siteIndex[i]!, b.infoSource[i]?.subarray(s, s + b.infoLength[i]!) ?? new Uint8Array(0)),
      );
    }
  return out;
}
