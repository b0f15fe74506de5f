// The columnar stream (columnStream.ts) against the object stream it replaces in whole-file
// passes: the same primitives, in the same order, with the same fields and start sites, on every
// SLOG-2 fixture and on a synthetic trace with SRCLOC, composites' members and several tree levels;
// and the wait-state analysis over either gives the same result. A stream filtering while it
// decodes gives the drawables its filter keeps. Damaged nodes fail with FormatError.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { analyzeTrace } from '../../../src/core/analysis';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { batchFromDrawables, primitiveBatchesInTimeOrder, type DrawableFilter, type PrimitiveBatch } from '../../../src/core/formats/slog2/columnStream';
import { decodeNodeColumns } from '../../../src/core/formats/slog2/nodeColumns';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { makePrimitive } from '../../../src/core/model/types';
import { CATEGORIES, topologyOf } from '../slog2writer/synthetic';
import { convertFile } from '../../../src/convert/convertJob';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { fixture } from '../../helpers/paths';
import { FileSource } from '../../../src/io/fileSource';

const FIXTURES = ['ring_p2p_4', 'collectives_8', 'grid_comms_16', 'pi_bcast_4', 'threads_2x3', 'user_states_4'];

function fixtureBytes(name: string): Uint8Array {
  const plain = fixture(`${name}.slog2`);
  if (fs.existsSync(plain)) return new Uint8Array(fs.readFileSync(plain));
  return new Uint8Array(gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
}

/** Rows of a stream as comparable tuples (`withLastAndInfo`: with the last vertex and the info bytes). */
async function rows(batches: AsyncIterable<PrimitiveBatch>, withLastAndInfo = false): Promise<string[]> {
  const out: string[] = [];
  for await (const b of batches)
    for (let i = 0; i < b.rows; i++) {
      const s = b.site[i];
      const info = b.infoSource[i]?.subarray(b.infoStart[i]!, b.infoStart[i]! + b.infoLength[i]!) ?? new Uint8Array(0);
      out.push(
        [
          ...(withLastAndInfo ? [b.timeLast[i], b.lineLast[i], Buffer.from(info).toString('hex')] : []),
          b.category[i],
          b.vertexCount[i],
          b.time0[i],
          b.line0[i],
          b.time1[i],
          b.line1[i],
          b.earliest[i],
          b.latest[i],
          b.drawableEarliest[i],
          s ? `${s.file}:${s.line}` : '-',
        ].join(' '),
      );
    }
  return out;
}

async function* viaObjects(f: Slog2File, t0?: number, t1?: number): AsyncGenerator<PrimitiveBatch> {
  for await (const b of f.drawableBatchesInTimeOrder(t0, t1)) yield batchFromDrawables(b);
}

function assertClose(got: Readonly<Record<string, number>>, want: Readonly<Record<string, number>>, what: string): void {
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), what);
  for (const [k, v] of Object.entries(want)) assert.ok(Math.abs(got[k]! - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${what} ${k}: ${got[k]} vs ${v}`);
}

/**
 * Last vertices and info bytes (statistics read them), with small slabs: a leaf's columns outlive
 * the slab buffer they were decoded from (their info bytes were once read from a reused buffer).
 */
async function compareLastAndInfo(f: Slog2File, name: string): Promise<number> {
  const full = await rows(viaObjects(f), true);
  for (const slabBytes of [1, 100_000])
    assert.deepEqual(
      await rows(primitiveBatchesInTimeOrder(f, -Infinity, Infinity, { reuse: true, withLastAndInfo: true, slabBytes }), true),
      full,
      `${name}: whole file with info bytes, slabs of ${slabBytes} bytes`,
    );
  return full.length;
}

/** A filter keeping about two thirds of the drawables, by every argument it gets. */
const someDrawables: DrawableFilter = (category, line0, earliest, latest, primitives) =>
  primitives > 1 || (category + line0 + Math.floor((earliest + latest) * 1e4)) % 3 !== 0;

async function* viaObjectsKept(f: Slog2File, keep: DrawableFilter, t0?: number, t1?: number): AsyncGenerator<PrimitiveBatch> {
  for await (const b of f.drawableBatchesInTimeOrder(t0, t1)) {
    const kept = b.filter((d) => {
      const first = d.kind === 'primitive' ? d : d.primitives[0]!;
      return keep(d.category, first.vertices[0]!.lineID, d.earliest, d.latest, d.kind === 'primitive' ? 1 : d.primitives.length, d.kind === 'composite');
    });
    if (kept.length > 0) yield batchFromDrawables(kept);
  }
}

/** A filtering stream (filtered while decoding, own node cache) gives the kept drawables of the plain one. */
async function compareFiltered(f: Slog2File, name: string): Promise<void> {
  const [a, b] = f.timeRange;
  for (const [t0, t1] of [
    [-Infinity, Infinity],
    [a + (b - a) * 0.3, a + (b - a) * 0.6],
  ] as const) {
    const want = await rows(viaObjectsKept(f, someDrawables, t0, t1), true);
    const all = await rows(viaObjects(f, t0, t1), true);
    assert.ok(want.length > 0 && want.length < all.length, `${name}: the filter keeps some, not all (${want.length} of ${all.length})`);
    const got = await rows(primitiveBatchesInTimeOrder(f, t0, t1, { keep: someDrawables, withLastAndInfo: true, reuse: true, slabBytes: 100_000 }), true);
    assert.deepEqual(got, want, `${name}: filtered stream in [${t0}, ${t1}]`);
  }
  // The file's shared node cache still holds whole nodes.
  assert.deepEqual(await rows(primitiveBatchesInTimeOrder(f)), await rows(viaObjects(f)), `${name}: whole file after a filtered stream`);
}

async function compareFile(name: string, bytes: Uint8Array): Promise<number> {
  const f = await Slog2File.open(new MemorySource(name, bytes));
  try {
    const expected = await rows(viaObjects(f));
    assert.deepEqual(await rows(primitiveBatchesInTimeOrder(f)), expected, `${name}: whole file`);
    assert.deepEqual(await rows(primitiveBatchesInTimeOrder(f, -Infinity, Infinity, { reuse: true })), expected, `${name}: whole file, columns reused`);
    await compareLastAndInfo(f, name);
    await compareFiltered(f, name);
    // A window inside the run (slices at both ends).
    const [a, b] = f.timeRange;
    const w: [number, number] = [a + (b - a) * 0.3, a + (b - a) * 0.6];
    assert.deepEqual(await rows(primitiveBatchesInTimeOrder(f, w[0], w[1])), await rows(viaObjects(f, w[0], w[1])), `${name}: window`);
    const input = {
      categories: f.categories,
      lineIDMaps: f.lineIDMaps,
      range: f.timeRange,
      batches: (x: number, y: number) => f.drawableBatchesInTimeOrder(x, y),
    };
    const objects = await analyzeTrace(input, { maxInstances: 1e6 });
    const columns = await analyzeTrace(
      { ...input, primitiveBatches: (x, y, keep) => primitiveBatchesInTimeOrder(f, x, y, keep ? { keep } : {}) },
      { maxInstances: 1e6 },
    );
    assert.deepEqual(columns, objects, `${name}: analysis`);
    // Pass 2 sweeps only the states on the critical path: the same composition as sweeping all.
    const every = await analyzeTrace(
      { ...input, primitiveBatches: (x, y, keep) => primitiveBatchesInTimeOrder(f, x, y, keep ? { keep } : {}) },
      { maxInstances: 1e6, sweepEveryState: true },
    );
    for (const key of ['byCategory', 'bySite', 'imbalance'] as const) assertClose(columns.criticalPath[key], every.criticalPath[key], `${name}: path ${key}`);
    return expected.length;
  } finally {
    await f.close();
  }
}

for (const name of FIXTURES) {
  test(`${name}: the columnar stream equals the object stream; the analysis over it is the same`, async () => {
    assert.ok((await compareFile(name, fixtureBytes(name))) > 0);
  });
}

test('bigrun_medium_4 (many leaves): last vertices and info bytes equal the object stream, with a slab per leaf', async () => {
  const f = await Slog2File.open(new MemorySource('bigrun_medium_4.slog2', fixtureBytes('bigrun_medium_4')));
  try {
    assert.ok(f.level(0).length > 4, `several leaves (${f.level(0).length})`);
    assert.ok((await compareLastAndInfo(f, 'bigrun_medium_4')) > 1000);
  } finally {
    await f.close();
  }
});

test('synthetic trace with SRCLOC, threads and communicators (several tree levels): same stream, same analysis', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-columns-'));
  try {
    const clog2 = path.join(dir, 's.clog2');
    const slog2 = path.join(dir, 's.slog2');
    await synthesizeClog2File(clog2, { ranks: 6, threads: 2, iterations: 60, srcloc: true, subComms: true, seed: 5 });
    await convertFile(clog2, slog2);
    const bytes = new Uint8Array(fs.readFileSync(slog2));
    const f = await Slog2File.open(new MemorySource('s.slog2', bytes));
    const depth = f.maxDepth;
    let sited = 0;
    for await (const b of primitiveBatchesInTimeOrder(f)) for (const s of b.site) if (s !== undefined) sited++;
    await f.close();
    assert.ok(depth >= 2, `expected several tree levels, got depth ${depth}`);
    assert.ok(sited > 0, 'no start site in the stream');
    await compareFile('s.slog2', bytes);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a whole-file pass reads the file about once: upper nodes and their records come from the leaves' slabs", async () => {
  // The one-pass writer puts each upper node (and its source-location record) between the leaves
  // below it: read again on their own, a fifth of the file was read twice, and each record's
  // 16-byte probe loaded a 64 KiB block of the source's cache (1.66× the file in all).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-columns-'));
  try {
    const clog2 = path.join(dir, 's.clog2');
    const slog2 = path.join(dir, 's.slog2');
    await synthesizeClog2File(clog2, { ranks: 8, iterations: 1500, srcloc: true, seed: 11 });
    await convertFile(clog2, slog2);
    const want = await (async () => {
      const f = await Slog2File.open(new MemorySource('s.slog2', new Uint8Array(fs.readFileSync(slog2))));
      try {
        assert.ok(f.maxDepth >= 4 && f.sourceLocationTable !== undefined, `several levels and a table (depth ${f.maxDepth})`);
        return await rows(viaObjects(f));
      } finally {
        await f.close();
      }
    })();
    for (const slabBytes of [undefined, 1]) {
      const source = await FileSource.open(slog2, { onThread: true });
      try {
        const f = await Slog2File.open(source);
        const opened = source.bytesRead;
        const got = await rows(primitiveBatchesInTimeOrder(f, -Infinity, Infinity, { reuse: true, recycleNodes: true, ...(slabBytes ? { slabBytes } : {}) }));
        assert.deepEqual(got, want, `slabs of ${slabBytes ?? 'default'} bytes: the stream`);
        const ratio = (source.bytesRead - opened) / source.size;
        // a slab per leaf holds no upper node: each is read on its own (exactly, past the block cache)
        if (slabBytes === undefined) assert.ok(ratio < 1.05, `read ${ratio.toFixed(3)}× the file`);
        else assert.ok(ratio < 1.15, `slab per leaf: read ${ratio.toFixed(3)}× the file`);
      } finally {
        await source.close();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('damaged node bytes: every truncation and a bad kind byte give a FormatError naming the file and offset', async () => {
  const bytes = fixtureBytes('ring_p2p_4');
  const f = await Slog2File.open(new MemorySource('ring.slog2', bytes));
  const info = f.level(0)[0]!;
  const block = new Uint8Array(await f.readBlockView(info, 'node'));
  await f.close();
  const whole = decodeNodeColumns(block, info.fptr, 'ring.slog2', undefined, []);
  assert.ok(whole.rows > 0);
  for (let cut = 34; cut < block.length; cut += Math.max(1, Math.floor(block.length / 97))) {
    try {
      decodeNodeColumns(block.subarray(0, cut), info.fptr, 'ring.slog2', undefined, []);
    } catch (e) {
      assert.ok(isFormatError(e), `cut at ${cut}: ${String(e)}`);
      assert.match((e as Error).message, /^ring\.slog2:\d+: /);
    }
  }
  const bad = block.slice();
  bad[34 + 4] = 7; // the first drawable's kind byte
  assert.throws(
    () => decodeNodeColumns(bad, info.fptr, 'ring.slog2', undefined, []),
    (e: unknown) => isFormatError(e) && /unknown drawable kind byte 7/.test((e as Error).message),
  );
});

test('drawables of both node lists starting at the same time: the stream keeps the drawing order', async () => {
  // Arrows and events (the nestless list) tie with states (the nestable list) on their start
  // times; the drawing order puts the longer drawable first, then the lower category and lines,
  // which is not the lists' order. Few enough for one leaf (no slice merges two nodes).
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { topologyOf });
  const drawables = [
    makePrimitive(0, [
      { time: 1, lineID: 0 },
      { time: 2, lineID: 1 },
    ]),
    makePrimitive(3, [{ time: 2, lineID: 1 }], new Uint8Array(4)),
    makePrimitive(2, [
      { time: 1, lineID: 0 },
      { time: 3, lineID: 0 },
    ]),
    makePrimitive(0, [
      { time: 3, lineID: 1 },
      { time: 3, lineID: 0 },
    ]),
    makePrimitive(1, [
      { time: 1, lineID: 1 },
      { time: 4, lineID: 1 },
    ]),
    makePrimitive(3, [{ time: 3, lineID: 0 }], new Uint8Array(4)),
    makePrimitive(1, [
      { time: 2, lineID: 0 },
      { time: 5, lineID: 0 },
    ]),
  ].sort((a, b) => a.latest - b.latest);
  for (const d of drawables) w.add(d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: [] });
  const f = await Slog2File.open(new MemorySource('ties.slog2', sink.bytes()));
  assert.equal(f.treeDir.length, 1, 'one node');
  const objects = await rows(viaObjects(f), true);
  assert.equal(objects.length, drawables.length);
  assert.deepEqual(await rows(primitiveBatchesInTimeOrder(f, -Infinity, Infinity, { withLastAndInfo: true }), true), objects);
  // The state [1, 4] on line 1 comes before the arrow from time 1: same start, later end.
  assert.deepEqual(
    objects.slice(0, 3).map((r) => r.split(' ').slice(3, 5).join(' ')),
    ['1 2', '2 2', '0 2'],
  );
});
