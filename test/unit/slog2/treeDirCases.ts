// The TreeDir checks at open on a real multi-node file (the reference converter's bigrun_medium_4,
// 63 nodes over 6 depths), with its entries reordered, repeated, overlapping or out of range: the
// fast paths for well-ordered directories must give the same nodes, warnings and errors as before.
// Registered twice: with the WebAssembly kernel (treeDirChecks.test.ts) and without it
// (treeDirChecksNoWasm.test.ts), whose JS loops must give the same.
import { test as nodeTest } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { BinaryReader } from '../../../src/core/bytes/binaryReader';
import { HEADER_BYTES, parseHeader } from '../../../src/core/formats/slog2/header';
import { checkNoOverlap } from '../../../src/core/formats/slog2/openChecks';
import { TREEDIR_ENTRY_BYTES, parseTreeDir, type TreeNodeInfo } from '../../../src/core/formats/slog2/treeDir';
import { fixtureSlog2Bytes } from '../../helpers/fixtureTraces';

const original = fixtureSlog2Bytes('bigrun_medium_4');
const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
/** Offset of the TreeDir's first entry (after its i32 count), from the header's FBinfo at byte 72. */
const entriesAt = Number(view(original).getBigInt64(72)) + 4;
const entryCount = view(original).getInt32(entriesAt - 4);
const entryAt = (i: number): number => entriesAt + i * TREEDIR_ENTRY_BYTES;

function open(bytes: Uint8Array): Promise<Slog2File> {
  return Slog2File.open(new MemorySource('t.slog2', bytes));
}

async function openError(bytes: Uint8Array): Promise<FormatError> {
  try {
    await open(bytes);
  } catch (e) {
    assert.ok(e instanceof FormatError, String(e));
    return e;
  }
  assert.fail('expected a FormatError');
}

/** The entries rewritten in another order (a permutation of 0…n−1). */
function reordered(order: readonly number[]): Uint8Array {
  const out = original.slice();
  order.forEach((from, to) => out.set(original.subarray(entryAt(from), entryAt(from + 1)), entryAt(to)));
  return out;
}

const key = (n: TreeNodeInfo): string => `${n.depth},${n.xpos},${n.earliest},${n.latest},${n.fptr},${n.size}`;

async function wholeTrace(file: Slog2File): Promise<string[]> {
  const out: string[] = [];
  const [t0, t1] = file.timeRange;
  for await (const s of file.query(t0, t1))
    for (const d of s.drawables) out.push(JSON.stringify(d, (_k, v: unknown) => (v instanceof Uint8Array ? [...v] : v)));
  return out.sort();
}

/** Registers the cases, each name suffixed with `how` the directory is worked through. */
export function treeDirCases(how: string): void {
  const test = (name: string, fn: () => void | Promise<void>): void => {
    nodeTest(`${name} (${how})`, fn);
  };
  test('the reference file lists its nodes by level, not in file order, and opens as before', async () => {
    const file = await open(original);
    assert.equal(file.treeDir.length, entryCount);
    const fptrs = file.treeDir.map((n) => n.fptr);
    assert.notDeepEqual(
      fptrs,
      [...fptrs].sort((a, b) => a - b),
      'this test needs a directory out of file order',
    );
    assert.deepEqual(file.warnings, []);
  });

  test('any order of the entries: the same nodes per level, the same lookups, the same drawables', async () => {
    const before = await open(original);
    const reversed = Array.from({ length: entryCount }, (_, i) => entryCount - 1 - i);
    let seed = 7;
    const shuffled = Array.from({ length: entryCount }, (_, i) => i);
    for (let i = shuffled.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const j = seed % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    for (const order of [reversed, shuffled]) {
      const after = await open(reordered(order));
      assert.deepEqual(after.warnings, []);
      for (let d = 0; d <= before.maxDepth; d++) {
        assert.deepEqual(after.level(d).map(key), before.level(d).map(key), `depth ${d}`);
        for (const n of before.level(d)) assert.equal(key(after.nodeAt(d, n.xpos)!), key(n));
      }
      assert.deepEqual(await wholeTrace(after), await wholeTrace(before));
    }
  });

  test('a repeated id: the first entry is kept, the later one dropped with a warning at its offset', async () => {
    const before = await open(original);
    const leaves = before.level(0);
    const first = leaves[0]!;
    const later = leaves[5]!;
    const bytes = original.slice();
    view(bytes).setInt32(later.entryOffset + 2, first.xpos);
    const after = await open(bytes);
    assert.deepEqual(after.warnings, [`t.slog2:${later.entryOffset}: duplicate tree directory id (0,${first.xpos}) ignored`]);
    assert.equal(after.treeDir.length, entryCount - 1);
    assert.equal(after.nodeAt(0, first.xpos)?.fptr, first.fptr);
    // xpos 5 is gone: the level is no longer dense, and the lookups past the hole still find their nodes.
    assert.equal(after.nodeAt(0, later.xpos), undefined);
    for (const n of leaves.slice(6)) assert.equal(after.nodeAt(0, n.xpos)?.fptr, n.fptr);
    assert.equal(after.nodeAt(0, leaves.length + 3), undefined);
  });

  /** bigrun_medium_4 with its TreeDir rewritten in file (fptr) order, as our writer lists it. */
  async function inFileOrder(): Promise<Uint8Array> {
    const file = await open(original);
    const entries = file.treeDir.map((n, i) => ({ i, fptr: n.fptr }));
    return reordered(entries.sort((x, y) => x.fptr - y.fptr).map((e) => e.i));
  }

  test('overlapping blocks are refused, with the TreeDir in file order or not, naming both blocks', async () => {
    const categoriesAt = Number(view(original).getBigInt64(24));
    for (const base of [original, await inFileOrder()]) {
      const file = await open(base);
      const leaves = [...file.level(0)].sort((a, b) => a.fptr - b.fptr);
      // Two nodes: the later one starts inside the one before.
      const a = leaves[3]!;
      const b = leaves[4]!;
      const bytes = base.slice();
      view(bytes).setBigInt64(b.entryOffset + 22, BigInt(a.fptr + 1));
      const e = await openError(bytes);
      assert.equal(e.offset, b.entryOffset);
      assert.match(e.message, new RegExp(`tree node \\(0,${b.xpos}\\) block at ${a.fptr + 1} overlaps tree node \\(0,${a.xpos}\\) block`));
      // A node block moved inside the CategoryMap (a named block).
      const n = file.level(1)[0]!;
      const inCategories = base.slice();
      view(inCategories).setBigInt64(n.entryOffset + 22, BigInt(categoriesAt + 10));
      view(inCategories).setInt32(n.entryOffset + 30, 100);
      const c = await openError(inCategories);
      assert.equal(c.offset, n.entryOffset);
      assert.match(
        c.message,
        new RegExp(`tree node \\(1,${n.xpos}\\) block at ${categoriesAt + 10} overlaps CategoryMap block \\(829 bytes at ${categoriesAt}\\)`),
      );
      // The last node in the file grown into the CategoryMap after it (the nodes stay in order).
      const last = [...file.treeDir].sort((x, y) => x.fptr - y.fptr).pop()!;
      assert.equal(last.fptr + last.size, categoriesAt, 'the CategoryMap follows the last node');
      const grown = base.slice();
      view(grown).setInt32(last.entryOffset + 30, last.size + 10);
      if (last === file.root) view(grown).setInt32(68, last.size + 10); // the header's treeroot FBinfo
      const g = await openError(grown);
      assert.equal(g.offset, 24);
      assert.match(
        g.message,
        new RegExp(`CategoryMap block at ${categoriesAt} overlaps tree node \\(${last.depth},${last.xpos}\\) block \\(${last.size + 10} bytes`),
      );
      // A named block (MethodDefs, null in this file) pointed inside a leaf.
      const inLeaf = base.slice();
      view(inLeaf).setBigInt64(36, BigInt(a.fptr + 5));
      view(inLeaf).setInt32(44, 10);
      const m = await openError(inLeaf);
      assert.equal(m.offset, 36);
      assert.match(m.message, new RegExp(`MethodDefs block at ${a.fptr + 5} overlaps tree node \\(0,${a.xpos}\\) block`));
      // A named block in a gap after a (shrunk) leaf, running into the block after it.
      const next = [...file.treeDir].sort((x, y) => x.fptr - y.fptr).find((x) => x.fptr > a.fptr)!;
      assert.equal(a.fptr + a.size, next.fptr, 'the blocks are back to back');
      const overNext = base.slice();
      view(overNext).setInt32(a.entryOffset + 30, a.size - 20);
      view(overNext).setBigInt64(36, BigInt(next.fptr - 10));
      view(overNext).setInt32(44, 15);
      const o = await openError(overNext);
      assert.equal(o.offset, next.entryOffset);
      assert.match(
        o.message,
        new RegExp(`tree node \\(${next.depth},${next.xpos}\\) block at ${next.fptr} overlaps MethodDefs block \\(15 bytes at ${next.fptr - 10}\\)`),
      );
    }
  });

  test('an entry whose fptr is past 2^53 fails at that field', async () => {
    const file = await open(original);
    const n = file.level(1)[0]!;
    const bytes = original.slice();
    view(bytes).setBigInt64(n.entryOffset + 22, 2n ** 60n);
    const e = await openError(bytes);
    assert.equal(e.offset, n.entryOffset + 22);
    assert.match(e.message, /node fptr \d+ is outside the supported range/);
  });

  test('counting the nodes over a window and their bytes equals listing them, on ordered and unordered levels', async () => {
    const plain = await open(original);
    // A leaf that starts at the root's start: level 0 is no longer in time order.
    const widened = original.slice();
    view(widened).setFloat64(plain.level(0)[7]!.entryOffset + 6, plain.timeRange[0]);
    for (const file of [plain, await open(widened)]) {
      const [a, b] = file.timeRange;
      let seed = 3;
      const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const windows: [number, number][] = [
        [a, b],
        [a - 1, a - 0.5],
        [b, b],
        [a, a],
        [b - 1e-9, b + 1],
        [(a + b) / 2, (a + b) / 2 - 1],
      ];
      for (let i = 0; i < 40; i++) {
        const t0 = a + rand() * (b - a);
        windows.push([t0, t0 + rand() * rand() * (b - a)]);
      }
      for (let d = 0; d <= file.maxDepth; d++) {
        for (const [t0, t1] of windows) {
          const brute = t0 <= t1 ? file.treeDir.filter((n) => n.depth === d && n.earliest <= t1 && t0 <= n.latest) : [];
          assert.deepEqual(file.nodesOverlapping(d, t0, t1), brute, `list at depth ${d}, [${t0}, ${t1}]`);
          assert.equal(file.countOverlapping(d, t0, t1), brute.length, `count at depth ${d}, [${t0}, ${t1}]`);
          const bytes = brute.reduce((sum, n) => sum + n.size, 0);
          assert.equal(file.bytesOverlapping(d, t0, t1), bytes, `bytes at depth ${d}, [${t0}, ${t1}]`);
        }
      }
    }
  });

  test('checkNoOverlap with the nodes also refuses two named blocks that overlap', () => {
    const bytes = original.slice();
    // The LineIDMapList pointed into the CategoryMap.
    view(bytes).setBigInt64(48, view(bytes).getBigInt64(24) + 4n);
    const { header } = parseHeader(bytes.subarray(0, HEADER_BYTES), 't.slog2', bytes.length);
    const dir = parseTreeDir(new BinaryReader(bytes.subarray(entriesAt - 4, entryAt(entryCount)), entriesAt - 4, 't.slog2'), header.maxTreeDepth);
    for (const order of [Int32Array.from(dir.fptr.keys()), Int32Array.from(dir.fptr.keys()).sort((x, y) => dir.fptr[x]! - dir.fptr[y]!)]) {
      assert.throws(
        () => checkNoOverlap('t.slog2', header, dir, order),
        (e: unknown) => e instanceof FormatError && /LineIDMapList block at \d+ overlaps CategoryMap block/.test(e.message),
      );
    }
  });
}
