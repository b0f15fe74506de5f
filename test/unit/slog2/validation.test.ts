// Synthetic files for what the reference converter never writes: 2.0.5 layout, unknown
// categories, bad kind bytes, NaN ratios, broken header pointers, blocks beyond 4 GiB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import type { Drawable } from '../../../src/core/model/types';
import { Slog2File, type NodeSlice } from '../../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../../src/io/fileSource';
import { buildSynthetic, contiguous, type SynCategory, type SynPrimitive, type Version } from './synthetic';

const categories: SynCategory[] = [
  { index: 0, name: 'message', topology: 2, argb: 0xffffffff | 0, keys: ['msg_tag=', ', msg_size=', ''], types: 'dd' },
  { index: 5, name: 'Work', topology: 1, argb: 0xff00ff00 | 0 },
  { index: -3, name: 'Preview_State', topology: 1, argb: 0xbfffffff | 0 },
];
const info = new Uint8Array([0, 0, 0, 7, 0, 0, 0, 64]);
const leafDrawables: SynPrimitive[] = [
  {
    category: 5,
    vertices: [
      [1, 0],
      [2, 0],
    ],
  },
  {
    category: 5,
    vertices: [
      [1.5, 1],
      [1.7, 1],
    ],
  },
];
const rootDrawables: SynPrimitive[] = [
  {
    category: 0,
    vertices: [
      [0.5, 0],
      [3, 1],
    ],
    info,
  },
];

function build(version: Version, extra: Partial<Parameters<typeof buildSynthetic>[0]> = {}): Uint8Array {
  return contiguous(
    buildSynthetic({
      version,
      categories,
      leafDrawables,
      rootDrawables,
      shadows: [
        {
          category: -3,
          vertices: [
            [1.25, 0],
            [1.85, 0],
          ],
          earliest: 1,
          latest: 2,
          n: 2,
          weights: [
            [5, 0.5, NaN, 2],
            [99, NaN, 0, 1],
          ],
        },
      ],
      ...extra,
    }),
  );
}

async function slices(file: Slog2File, lowestDepth: number): Promise<NodeSlice[]> {
  const out: NodeSlice[] = [];
  for await (const s of file.query(-Infinity, Infinity, { lowestDepth })) out.push(s);
  return out;
}

for (const version of ['SLOG 2.0.6', 'SLOG 2.0.5'] as const) {
  test(`${version}: categories, drawables, shadows with weights (NaN ratios kept)`, async () => {
    const file = await Slog2File.open(new MemorySource('syn.slog2', build(version)));
    assert.equal(file.header.version, version);
    assert.deepEqual(file.timeRange, [0.5, 3]);
    assert.equal(file.categories.get(0)?.name, 'message');
    assert.deepEqual(file.categories.get(5)?.rgba, [0, 255, 0, 255]);
    assert.equal(file.categories.get(5)?.summary === undefined, version === 'SLOG 2.0.5');
    const all: Drawable[] = [];
    for await (const d of file.allDrawables()) all.push(d);
    assert.equal(all.length, 3);
    const arrow = all.find((d) => d.category === 0)!;
    assert.deepEqual(arrow.kind === 'primitive' && arrow.info ? [...arrow.info] : [], [...info]);
    const top = await slices(file, 1);
    assert.equal(top.length, 1);
    const [shadow] = top[0]!.shadows;
    assert.ok(shadow);
    assert.equal(shadow.numRealObjs, 2);
    assert.equal(shadow.weights.length, 2);
    assert.equal(shadow.weights[0]!.incl, 0.5);
    assert.ok(Number.isNaN(shadow.weights[0]!.excl));
    assert.ok(Number.isNaN(shadow.weights[1]!.incl));
    if (version === 'SLOG 2.0.6') assert.equal(shadow.weights[0]!.count, 2);
    else assert.ok(Number.isNaN(shadow.weights[0]!.count), '2.0.5 weights have no count');
    // Weight category 99 is not in the map: placeholder + one warning.
    assert.equal(file.categories.get(99)?.name, 'UnknownType-99');
    assert.equal(file.warnings.filter((w) => /unknown category index 99/.test(w)).length, 1);
    assert.equal((await slices(file, 0)).flatMap((s) => s.shadows).length, 0, 'no shadows at depth 0');
  });
}

test('a drawable of an unknown category gets an UnknownType placeholder and a warning', async () => {
  const bytes = build('SLOG 2.0.6', {
    leafDrawables: [
      {
        category: 42,
        vertices: [
          [1, 0],
          [2, 0],
        ],
      },
    ],
  });
  const file = await Slog2File.open(new MemorySource('u.slog2', bytes));
  const all: Drawable[] = [];
  for await (const d of file.allDrawables()) all.push(d);
  assert.equal(file.categories.get(42)?.name, 'UnknownType-42');
  assert.equal(file.categories.get(42)?.topology, 'state');
  assert.ok(file.warnings.some((w) => /^u\.slog2:\d+: unknown category index 42/.test(w)));
});

async function openError(bytes: Uint8Array, whileReading = true): Promise<FormatError> {
  try {
    const file = await Slog2File.open(new MemorySource('bad.slog2', bytes));
    if (whileReading) for await (const _ of file.allDrawables());
  } catch (e) {
    assert.ok(e instanceof FormatError, `not a FormatError: ${String(e)}`);
    assert.equal(e.file, 'bad.slog2');
    return e;
  }
  assert.fail('no error');
}

test('an unknown drawable kind byte is an error at its offset', async () => {
  const e = await openError(build('SLOG 2.0.6', { kindByte: 7 }));
  assert.match(e.message, /unknown drawable kind byte 7/);
  assert.equal(e.offset, 108 + 34 + 4 + 4, 'first entry of the leaf nestable list');
});

test('header problems: placeholder, short file, wrong version, pointers past EOF or beyond max_buffer_bytesize', async () => {
  const good = build('SLOG 2.0.6');
  const placeholder = good.slice(0, 200);
  placeholder.fill(0, 18, 108);
  assert.match((await openError(placeholder)).message, /^bad\.slog2:24: incomplete SLOG-2 file \(conversion did not finish\)/);
  assert.match((await openError(good.slice(0, 50))).message, /^bad\.slog2:0: .*too short/);
  const v = good.slice();
  v[11] = 0x33; // "SLOG 2.0.3"
  assert.match((await openError(v)).message, /unsupported SLOG-2 version "SLOG 2.0.3"/);
  const notSlog = good.slice();
  notSlog[2] = 0x41;
  assert.match((await openError(notSlog)).message, /not a SLOG-2 file/);
  const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const past = good.slice();
  dv(past).setBigInt64(72, BigInt(good.length - 10)); // treedir fptr
  const e = await openError(past);
  assert.equal(e.offset, 72);
  assert.match(e.message, /TreeDir|treedir/);
  assert.match(e.message, /past the end of the file/);
  const big = good.slice();
  dv(big).setInt32(20, 40); // max_buffer_bytesize smaller than the blocks
  assert.match((await openError(big)).message, /exceeds max_buffer_bytesize 40/);
  const huge = good.slice();
  dv(huge).setBigInt64(24, 2n ** 60n);
  assert.match((await openError(huge)).message, /^bad\.slog2:\d+: categories fptr \d+ is outside the supported range/);
});

test('overlapping blocks are refused', async () => {
  const good = build('SLOG 2.0.6');
  const bad = good.slice();
  const dv = new DataView(bad.buffer);
  // Point the LineIDMapList into the CategoryMap block.
  dv.setBigInt64(48, dv.getBigInt64(24) + 4n);
  const e = await openError(bad, false);
  assert.match(e.message, /overlaps/);
});

test('counts are checked before allocation: a huge drawable count fails at once', async () => {
  const good = build('SLOG 2.0.6');
  const bad = good.slice();
  new DataView(bad.buffer).setInt32(108 + 34, 0x7fffffff); // leaf nestless count
  const e = await openError(bad);
  assert.match(e.message, /nestless drawable count 2147483647 needs at least/);
  assert.equal(e.offset, 108 + 34);
});

test('blocks beyond 4 GiB in a sparse file: 64-bit offsets through FileSource', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slog2-big-'));
  const p = path.join(dir, 'sparse.slog2');
  try {
    const base = 2 ** 32 + 12345;
    const f = buildSynthetic({ categories, leafDrawables, rootDrawables, base });
    const fd = fs.openSync(p, 'w');
    try {
      fs.writeSync(fd, f.header, 0, f.header.length, 0);
      fs.writeSync(fd, f.blocks, 0, f.blocks.length, base);
    } catch (e) {
      t.skip(`cannot write a sparse file here: ${String(e)}`);
      return;
    } finally {
      fs.closeSync(fd);
    }
    assert.ok(fs.statSync(p).size > 2 ** 32);
    const file = await Slog2File.open(await FileSource.open(p));
    assert.ok(file.header.treeRoot.fptr > 2 ** 32);
    assert.equal(file.treeDir.find((n) => n.depth === 0)!.fptr, base);
    const got: Drawable[] = [];
    for await (const s of file.query(1.6, 1.6)) got.push(...s.drawables);
    assert.deepEqual(got.map((d) => [d.category, d.earliest, d.latest]).sort(), [
      [0, 0.5, 3],
      [5, 1, 2],
      [5, 1.5, 1.7],
    ]);
    const block = await file.readBlock(file.header.categories, 'CategoryMap');
    assert.equal(block.length, file.header.categories.size);
    await assert.rejects(
      file.readBlock({ fptr: 2 ** 33, size: 10 }, 'annotations'),
      (e: unknown) => e instanceof FormatError && /annotations block .* past the end/.test(e.message),
    );
    await file.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged block size cannot make the reader allocate more than one block limit (256 MiB)', async () => {
  const good = build('SLOG 2.0.6');
  const bytes = good.slice();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const MiB = 2 ** 20;
  dv.setInt32(20, 350 * MiB); // max_buffer_bytesize: plausible for a 400 MiB file
  dv.setInt32(80, 300 * MiB); // TreeDir FBinfo size (fptr at 72, size at 80)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-bigblock-'));
  const file = path.join(dir, 'bigblock.slog2');
  try {
    fs.writeFileSync(file, bytes);
    fs.truncateSync(file, 400 * MiB); // sparse: the size check must not depend on real bytes
    const source = await FileSource.open(file);
    const e = await Slog2File.open(source).then(
      () => undefined,
      (x: unknown) => x,
    );
    await source.close();
    assert.ok(e instanceof FormatError, `expected a FormatError, got ${String(e)}`);
    assert.match(e.message, /exceeds the 256 MiB limit of one block/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
