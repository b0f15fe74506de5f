/**
 * The row-index builder's fast parts against the plain reader they replace: slab reads against
 * one read per node and record, the columnar site decoder against decodeNodeRecord, the key
 * lookup table against the key map, and the segment checksum's damage detection.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { nodeSourceLocations } from '../../../src/core/formats/srcloc/readSourceLocations';
import { decodeNodeSites } from '../../../src/core/formats/srcloc/nodeSites';
import { decodeNodeRecord } from '../../../src/core/formats/srcloc/table';
import { ordinalOrder } from '../../../src/core/index/build';
import { checksum } from '../../../src/core/index/format';
import { keyLookup, keySpaceOf } from '../../../src/core/index/keys';
import { HeldSlab, nodesInSlabs, recordInSlab } from '../../../src/core/formats/slog2/nodeSlabs';
import { NodeScanner } from '../../../src/core/index/scan';
import { parseTreeNode } from '../../../src/core/formats/slog2/treeNode';
import { BinaryReader } from '../../../src/core/bytes/binaryReader';
import { synthSlog2 } from './rowIndexHelpers';
import { Prng } from '../../../src/core/synth/prng';

test('slab reads: every node and its source-location record, as node-by-node reads give them, at any slab size', async () => {
  const file = await synthSlog2(64, 400_000);
  const table = file.sourceLocationTable;
  assert.ok(table !== undefined, 'the synthetic trace has source locations');
  const nodes = ordinalOrder(file);
  assert.ok(nodes.length > 10, `a tree with several nodes (${nodes.length})`);
  for (const [slab, readAhead] of [
    [1, 1],
    [5000, 2],
    [64 << 10, 1],
    [64 << 10, 2],
    [64 << 10, 3],
    [4 << 20, 2],
  ] as const) {
    let n = 0;
    let records = 0;
    const held = new HeldSlab();
    for await (const got of nodesInSlabs(file, nodes, true, { slabBytes: slab, readAhead, held })) {
      const info = nodes[n++]!;
      assert.equal(got.info, info);
      assert.deepEqual(got.bytes, await file.readBlock(info, 'node'), `node ${n} with slabs of ${slab} bytes`);
      // the slab in use holds the node (and its record, unless the slab ends first), and nothing before the file's start
      assert.deepEqual(held.view(info.fptr, info.size), got.bytes, `held node ${n} with slabs of ${slab} bytes`);
      const inSlab = recordInSlab(held, info, file.source);
      if (inSlab !== 'outside') assert.deepEqual(inSlab, got.record, `held record of node ${n} with slabs of ${slab} bytes`);
      assert.equal(held.view(-1, 2), undefined);
      const located = await nodeSourceLocations(file, table, info);
      assert.equal(got.record !== undefined, located !== undefined, `record of node ${n} with slabs of ${slab} bytes`);
      if (got.record === undefined || located === undefined) continue;
      records++;
      assert.deepEqual(decodeNodeRecord(got.record, info.fptr + info.size, 'x', table), located);
    }
    assert.equal(n, nodes.length);
    assert.ok(records > 0);
    assert.equal(held.view(nodes[0]!.fptr, 1), undefined, 'no slab held after the pass');
  }
});

test('site columns: the same sources as decodeNodeRecord, by list position; damaged records refused alike', async () => {
  const file = await synthSlog2(16, 200_000);
  const table = file.sourceLocationTable!;
  const space = keySpaceOf(file.lineIDMaps);
  const scanner = new NodeScanner(keyLookup(space), space.lineIDs.length);
  let compared = 0;
  for await (const { info, bytes, record } of nodesInSlabs(file, ordinalOrder(file), true)) {
    if (record === undefined) continue;
    scanner.scan(bytes, info.fptr, 'x', file.header.version);
    const nestless = scanner.nestless;
    const plain = decodeNodeRecord(record, 0, 'x', table);
    const lists = [plain.nestless, plain.nestable];
    const counts = [nestless, scanner.drawables.count - nestless];
    const sites = decodeNodeSites(record, 0, 'x', table.sites.length, counts[0]!, counts[1]!);
    [sites.nestless, sites.nestable].forEach((cols, l) => {
      for (let i = 0; i < counts[l]!; i++) {
        const s = lists[l]!.get(i);
        assert.equal(cols.located[i] ?? 0, s === undefined ? 0 : 1);
        if (s === undefined) continue;
        assert.equal(cols.start[i], s.start === undefined ? -1 : table.sites.indexOf(s.start));
        assert.equal(cols.end[i], s.end === undefined ? -1 : table.sites.indexOf(s.end));
        compared++;
      }
    });
    const rng = new Prng(compared);
    for (let k = 0; k < 20; k++) {
      const damaged = record.slice();
      damaged[rng.int(0, damaged.length - 1)] ^= 1 << rng.int(0, 7);
      const plainError = errorOf(() => decodeNodeRecord(damaged, 0, 'x', table));
      const columnError = errorOf(() => decodeNodeSites(damaged, 0, 'x', table.sites.length, counts[0]!, counts[1]!));
      assert.equal(columnError, plainError, 'both refuse a damaged record, or neither');
    }
  }
  assert.ok(compared > 100, `compared ${compared} located drawables`);
});

function errorOf(f: () => unknown): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    assert.ok(isFormatError(e), String(e));
    return e.message;
  }
}

test('key lookup: the key map as a table for compact line IDs, the map itself for sparse ones, -1 for unknown IDs', () => {
  const compact = keySpaceOf([{ title: 'Process View', rows: [3, 1, 0, 2].map((id) => ({ lineID: id, path: [id] })) } as never]);
  const sparse = keySpaceOf([{ title: 'Process View', rows: [5, 1_000_000, 7].map((id, i) => ({ lineID: id, path: [i] })) } as never]);
  for (const space of [compact, sparse]) {
    const keyOf = keyLookup(space);
    for (const [id, key] of space.keyOfLine) assert.equal(keyOf(id), key);
    for (const id of [-5, 4, 6, 999_999, 2 ** 31 - 1]) if (!space.keyOfLine.has(id)) assert.equal(keyOf(id), -1);
  }
});

test('segment checksum: any flipped bit changes it; the same bytes give the same sum at any alignment', () => {
  const rng = new Prng(5);
  for (let k = 0; k < 200; k++) {
    const n = rng.int(0, 90);
    const bytes = Uint8Array.from({ length: n + 7 }, () => rng.int(0, 255));
    const from = rng.int(0, 7);
    const sum = checksum(bytes, from, from + n);
    const shifted = new Uint8Array(n + 3);
    shifted.set(bytes.subarray(from, from + n), 3);
    assert.equal(checksum(shifted, 3, 3 + n), sum);
    if (n === 0) continue;
    const flipped = bytes.slice();
    flipped[from + rng.int(0, n - 1)] ^= 1 << rng.int(0, 7);
    assert.notEqual(checksum(flipped, from, from + n), sum);
  }
});

test('segment checksum: two flipped bits change it too, top bits of words among them (fuzz case rowindex:319:2236)', () => {
  const rng = new Prng(319);
  // the fuzz case's two flips: bit 7 of bytes 3 mod 4 (words' top bits) in two lanes, 492 bytes apart
  const bytes = Uint8Array.from({ length: 600 }, () => rng.int(0, 255));
  const sum = checksum(bytes, 0, 600);
  const two = bytes.slice();
  two[19] ^= 0x80;
  two[511] ^= 0x80;
  assert.notEqual(checksum(two, 0, 600), sum, 'top bits of two lanes');
  const oneLane = bytes.slice();
  oneLane[3] ^= 0x80;
  oneLane[19] ^= 0x80;
  assert.notEqual(checksum(oneLane, 0, 600), sum, 'top bits of two words of one lane');
  for (let k = 0; k < 3000; k++) {
    const n = rng.int(2, 300);
    const b = Uint8Array.from({ length: n }, () => rng.int(0, 255));
    const s = checksum(b, 0, n);
    const p = rng.int(0, n - 1);
    let q = rng.int(0, n - 2);
    if (q >= p) q++;
    const f = b.slice();
    // half of the pairs top bits of words, the others any bit
    f[p] ^= k % 2 === 0 ? 0x80 : 1 << rng.int(0, 7);
    f[q] ^= k % 2 === 0 ? 0x80 : 1 << rng.int(0, 7);
    assert.notEqual(checksum(f, 0, n), s, `flips at ${p} and ${q} of ${n}`);
  }
});

test('node scanner: entry extents tile each node, and a truncated node is refused with its offset', async () => {
  const file = await synthSlog2(32, 150_000);
  const space = keySpaceOf(file.lineIDMaps);
  const scanner = new NodeScanner(keyLookup(space), space.lineIDs.length);
  for await (const { info, bytes } of nodesInSlabs(file, ordinalOrder(file), false)) {
    scanner.scan(bytes, info.fptr, 'x', file.header.version);
    const node = parseTreeNode(new BinaryReader(bytes, info.fptr, 'x'), { version: file.header.version, seeCategory: () => {}, warn: () => {} });
    const d = scanner.drawables;
    assert.equal(d.count, node.drawables.length);
    assert.equal(
      scanner.shadows.count,
      node.shadowBuffers.reduce((n, b) => n + b.shadows.length, 0),
    );
    for (let i = 1; i < d.count; i++) if (i !== scanner.nestless) assert.equal(d.start[i], d.end[i - 1]);
    const cut = bytes.subarray(0, Math.max(0, bytes.length - 5));
    assert.throws(
      () => scanner.scan(cut, info.fptr, 'x', file.header.version),
      (e: unknown) => isFormatError(e) && e.offset >= info.fptr && e.offset <= info.fptr + bytes.length,
    );
  }
});
