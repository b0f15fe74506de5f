// The TreeDir's WebAssembly kernel (src/core/formats/slog2/treeDirKernel.ts) against plain JS: the
// same columns and summary for random directories (both byte orders, entries out of range, NaN
// bounds, empty and overlapping blocks), fptrs past 2^53 left to the JS parse, the overlap proof
// equal to a brute-force check, the levels equal to a grouping in JS, the kept entries; and the committed bytes are
// what the .wat assembles to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { allInKernel, disjointInKernel, levelsInKernel, parseInKernel } from '../../../src/core/formats/slog2/treeDirKernel';
import { TREEDIR_ENTRY_BYTES, TreeDirColumns, type TreeDirSummary } from '../../../src/core/formats/slog2/treeDir';
import { Prng } from '../../../src/core/synth/prng';
import { repoRoot } from '../../helpers/paths';

/** An integer in [0, n). */
const under = (rng: Prng, n: number): number => rng.int(0, n - 1);

interface Entry {
  depth: number;
  xpos: number;
  earliest: number;
  latest: number;
  fptr: bigint;
  size: number;
}

function encode(entries: readonly Entry[], le: boolean): Uint8Array {
  const bytes = new Uint8Array(entries.length * TREEDIR_ENTRY_BYTES);
  const v = new DataView(bytes.buffer);
  entries.forEach((e, i) => {
    const p = i * TREEDIR_ENTRY_BYTES;
    v.setInt16(p, e.depth, le);
    v.setInt32(p + 2, e.xpos, le);
    v.setFloat64(p + 6, e.earliest, le);
    v.setFloat64(p + 14, e.latest, le);
    v.setBigInt64(p + 22, e.fptr, le);
    v.setInt32(p + 30, e.size, le);
  });
  return bytes;
}

/** What TreeDirSummary says, worked out entry by entry. */
function expectedSummary(entries: readonly Entry[], maxDepth: number): TreeDirSummary {
  const depths = maxDepth + 1;
  const counts = new Int32Array(depths);
  const byXpos = new Uint8Array(depths).fill(1);
  const inTime = new Uint8Array(depths).fill(1);
  const last = new Map<number, Entry>();
  let inRange = true;
  let root = -1;
  entries.forEach((e, i) => {
    if (e.depth < 0 || e.depth > maxDepth || e.xpos < 0) {
      inRange = false;
      return;
    }
    const p = last.get(e.depth);
    if (p !== undefined) {
      if (!(p.xpos < e.xpos)) byXpos[e.depth] = 0;
      if (!(p.earliest <= e.earliest && p.latest <= e.latest)) inTime[e.depth] = 0;
    }
    last.set(e.depth, e);
    counts[e.depth]!++;
    if (root < 0 && e.depth === maxDepth && e.xpos === 0) root = i;
  });
  const fptrs = entries.map((e) => Number(e.fptr));
  const sizes = entries.map((e) => e.size);
  const none = entries.length === 0;
  return {
    inRange,
    minFptr: none ? 0 : Math.min(...fptrs),
    maxEnd: none ? 0 : Math.max(...entries.map((e) => Number(e.fptr) + e.size)),
    minSize: none ? 0 : Math.min(...sizes),
    maxSize: none ? 0 : Math.max(...sizes),
    counts,
    byXpos,
    inTime,
    root,
  };
}

/** A directory as writers make them (levels in xpos and time order, blocks back to back), then damaged at random. */
function randomEntries(rng: Prng, maxDepth: number): Entry[] {
  const entries: Entry[] = [];
  let at = 108;
  for (let d = maxDepth; d >= 0; d--) {
    const n = d === maxDepth ? 1 : 1 + under(rng, 6);
    for (let x = 0; x < n; x++) {
      const size = 1 + under(rng, 500);
      entries.push({ depth: d, xpos: x, earliest: x, latest: x + 1, fptr: BigInt(at), size });
      at += size + (under(rng, 3) === 0 ? under(rng, 50) : 0);
    }
  }
  if (under(rng, 3) === 0) entries.reverse();
  for (let k = under(rng, 4); k > 0; k--) {
    const e = entries[under(rng, entries.length)]!;
    switch (under(rng, 9)) {
      case 0:
        e.depth = under(rng, 2) === 0 ? -1 - under(rng, 3) : maxDepth + 1 + under(rng, 3);
        break;
      case 1:
        e.xpos = -1 - under(rng, 5);
        break;
      case 2:
        e.earliest = Number.NaN;
        break;
      case 3:
        e.latest = -Infinity;
        break;
      case 4:
        e.size = 0 - under(rng, 3);
        break;
      case 5:
        e.fptr = BigInt(under(rng, 2000));
        break;
      case 6:
        e.xpos = entries[under(rng, entries.length)]!.xpos;
        break;
      case 7:
        e.fptr = 0n - BigInt(under(rng, 1000));
        break;
      default:
        e.size = 0x7fffffff - under(rng, 10);
    }
  }
  return entries;
}

function plainColumns(entries: readonly Entry[]): Record<string, number[]> {
  return {
    depth: entries.map((e) => e.depth),
    xpos: entries.map((e) => e.xpos),
    earliest: entries.map((e) => e.earliest),
    latest: entries.map((e) => e.latest),
    fptr: entries.map((e) => Number(e.fptr)),
    size: entries.map((e) => e.size),
  };
}

const columnsOf = (dir: TreeDirColumns): Record<string, number[]> => ({
  depth: [...dir.depth],
  xpos: [...dir.xpos],
  earliest: [...dir.earliest],
  latest: [...dir.latest],
  fptr: [...dir.fptr],
  size: [...dir.size],
});

test('the kernel parses random directories, both byte orders, into the columns and summary worked out in JS', () => {
  const rng = new Prng(21);
  for (let round = 0; round < 300; round++) {
    const maxDepth = under(rng, 6);
    const entries = round === 0 ? [] : randomEntries(rng, maxDepth);
    for (const le of [false, true]) {
      const dir = new TreeDirColumns(entries.length, 1000);
      const summary = parseInKernel(encode(entries, le), entries.length, le, maxDepth, dir);
      assert.ok(summary !== undefined, `round ${round}: the kernel ran`);
      assert.deepEqual(columnsOf(dir), plainColumns(entries), `round ${round} (${le ? 'LE' : 'BE'}): columns`);
      assert.deepEqual(summary, expectedSummary(entries, maxDepth), `round ${round} (${le ? 'LE' : 'BE'}): summary`);
    }
  }
});

test('an fptr beyond what a double holds exactly is left to the JS parse (which names it)', () => {
  const entries: Entry[] = [
    { depth: 0, xpos: 0, earliest: 0, latest: 1, fptr: 200n, size: 10 },
    { depth: 1, xpos: 0, earliest: 0, latest: 1, fptr: 1n << 53n, size: 10 },
  ];
  for (const le of [false, true]) {
    assert.equal(parseInKernel(encode(entries, le), 2, le, 1, new TreeDirColumns(2, 0)), undefined);
  }
  // the largest the JS parse takes at once: a high word of 2^21 − 1
  entries[1]!.fptr = (1n << 53n) - 1n;
  const dir = new TreeDirColumns(2, 0);
  assert.ok(parseInKernel(encode(entries, false), 2, false, 1, dir) !== undefined);
  assert.equal(dir.fptr[1], 2 ** 53 - 1);
});

/** Brute force: no two half-open blocks share a byte. */
function reallyDisjoint(blocks: readonly { fptr: number; size: number }[]): boolean {
  for (let i = 0; i < blocks.length; i++)
    for (let j = i + 1; j < blocks.length; j++) {
      const a = blocks[i]!;
      const b = blocks[j]!;
      if (a.fptr < b.fptr + b.size && b.fptr < a.fptr + a.size) return false;
    }
  return true;
}

test('the overlap proof agrees with a brute-force check: runs per level, any order, ties, named blocks', () => {
  const rng = new Prng(5);
  let overlapping = 0;
  for (let round = 0; round < 400; round++) {
    const n = under(rng, 200);
    const blocks: { fptr: number; size: number }[] = [];
    let at = 108;
    for (let i = 0; i < n + 4; i++) {
      const size = 1 + under(rng, 100);
      blocks.push({ fptr: at, size });
      at += size + under(rng, 3);
    }
    // interleave as levels (runs), shuffle, or leave in file order
    const mode = under(rng, 3);
    if (mode === 0) blocks.sort((a, b) => (a.fptr % 7) - (b.fptr % 7) || a.fptr - b.fptr);
    if (mode === 1) for (let i = blocks.length - 1; i > 0; i--) [blocks[i], blocks[under(rng, i + 1)]] = [blocks[under(rng, i + 1)]!, blocks[i]!];
    for (let k = under(rng, 3); k > 0 && blocks.length > 1; k--) {
      const b = blocks[under(rng, blocks.length)]!;
      const other = blocks[under(rng, blocks.length)]!;
      b.fptr = other.fptr + under(rng, Math.max(1, other.size)) - (under(rng, 2) === 0 ? 0 : under(rng, 3));
    }
    const named = blocks.splice(n, blocks.length - n).slice(0, under(rng, 5));
    const fptr = Float64Array.from(blocks, (b) => b.fptr);
    const size = Int32Array.from(blocks, (b) => b.size);
    const expected = reallyDisjoint([...blocks, ...named]);
    if (!expected) overlapping++;
    assert.equal(disjointInKernel(fptr, size, named), expected, `round ${round}`);
  }
  assert.ok(overlapping > 50 && overlapping < 350, `both answers met (${overlapping} overlapping of 400)`);
});

test('the levels are the entries grouped by depth, each group in file order', () => {
  const rng = new Prng(9);
  for (let round = 0; round < 100; round++) {
    const depths = 1 + under(rng, 8);
    const depth = Int16Array.from({ length: under(rng, 500) }, () => under(rng, depths));
    const counts = new Int32Array(depths);
    for (const d of depth) counts[d]!++;
    const grouped = levelsInKernel(depth, counts);
    const expected: number[] = [];
    for (let d = 0; d < depths; d++) depth.forEach((x, i) => x === d && expected.push(i));
    assert.deepEqual([...grouped!], expected, `round ${round}`);
  }
});

test('every entry kept: 0, 1, …, n − 1', () => {
  for (const n of [0, 1, 7, 14_304])
    assert.deepEqual(
      [...allInKernel(n)!],
      Array.from({ length: n }, (_, i) => i),
    );
});

test('the committed kernel bytes are what treeDirKernel.wat assembles to', () => {
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-wasm.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `build-wasm --check: ${r.stderr}`);
});
