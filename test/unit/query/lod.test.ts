import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COARSE_BYTE_LIMIT, COARSE_NODE_LIMIT, MAX_NODE_BUDGET, MIN_NODE_BUDGET, coarseDepth, nodeBudget } from '../../../src/core/query/lod';

test('node budget follows the pixels, with bounded credit for over-fetch', () => {
  assert.equal(nodeBudget(1200, 1, 1), 12);
  assert.equal(nodeBudget(1200, 1, 2), 24);
  assert.equal(nodeBudget(1200, 1, 8), 36, 'over-fetch beyond 3x buys no more nodes');
  assert.equal(nodeBudget(10, 1, 1), MIN_NODE_BUDGET);
  assert.equal(nodeBudget(1e6, 1, 8), MAX_NODE_BUDGET);
});

// A binary tree of depth 5 over [0, 32): level d has 32 / 2^d nodes of width 2^d, each of
// `nodeBytes(d)` bytes (small by default).
function binaryTree(nodeBytes: (depth: number) => number = () => 1024) {
  return {
    maxDepth: 5,
    nodesOverlapping(depth: number, t0: number, t1: number): readonly number[] {
      const w = 2 ** depth;
      const out: number[] = [];
      for (let x = 0; x < 32 / w; x++) if (x * w <= t1 && t0 <= (x + 1) * w) out.push(x);
      return out;
    },
    countOverlapping(depth: number, t0: number, t1: number): number {
      return this.nodesOverlapping(depth, t0, t1).length;
    },
    bytesOverlapping(depth: number, t0: number, t1: number): number {
      return this.countOverlapping(depth, t0, t1) * nodeBytes(depth);
    },
  };
}
const tree = binaryTree();

test('the coarse first answer reads at most COARSE_NODE_LIMIT nodes over all its levels', () => {
  const total = (from: number, t0: number, t1: number): number => {
    let n = 0;
    for (let d = from; d <= tree.maxDepth; d++) n += tree.nodesOverlapping(d, t0, t1).length;
    return n;
  };
  const c = coarseDepth(tree, 0, 31.5, 0);
  assert.ok(total(c, 0, 31.5) <= COARSE_NODE_LIMIT, `depth ${c}`);
  assert.ok(total(c - 1, 0, 31.5) > COARSE_NODE_LIMIT, 'and is the lowest such depth');
  // a narrow window near the leaves is cheap already: no coarse answer needed
  assert.equal(coarseDepth(tree, 10.2, 10.4, 3), 3);
  assert.equal(coarseDepth(tree, 0, 31.5, 5), 5);
});

test('the coarse first answer parses at most COARSE_BYTE_LIMIT node bytes, and the root at least', () => {
  const bytes = (t: ReturnType<typeof binaryTree>, from: number): number => {
    let n = 0;
    for (let d = from; d <= t.maxDepth; d++) n += t.bytesOverlapping(d, 0, 31.5);
    return n;
  };
  // Root + 2 nodes of a quarter of the limit each fit (3 nodes, 3/4 of the bytes).
  const quarter = binaryTree(() => COARSE_BYTE_LIMIT / 4);
  assert.equal(coarseDepth(quarter, 0, 31.5, 0), 4);
  // Big top nodes (a wide trace's): the node count allows depth 4, the bytes only the root.
  const half = binaryTree(() => COARSE_BYTE_LIMIT / 2);
  assert.equal(coarseDepth(half, 0, 31.5, 0), 5);
  assert.ok(bytes(half, 5) <= COARSE_BYTE_LIMIT && bytes(half, 4) > COARSE_BYTE_LIMIT);
  // A root bigger than the limit is still read: there is nothing coarser.
  assert.equal(
    coarseDepth(
      binaryTree(() => 4 * COARSE_BYTE_LIMIT),
      0,
      31.5,
      0,
    ),
    5,
  );
  // Small nodes: the node count decides, as before.
  assert.equal(
    coarseDepth(
      binaryTree(() => 10),
      0,
      31.5,
      0,
    ),
    coarseDepth(tree, 0, 31.5, 0),
  );
});
