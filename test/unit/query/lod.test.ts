import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COARSE_NODE_LIMIT, MAX_NODE_BUDGET, MIN_NODE_BUDGET, coarseDepth, nodeBudget } from '../../../src/core/query/lod';

test('node budget follows the pixels, with bounded credit for over-fetch', () => {
  assert.equal(nodeBudget(1200, 1, 1), 12);
  assert.equal(nodeBudget(1200, 1, 2), 24);
  assert.equal(nodeBudget(1200, 1, 8), 36, 'over-fetch beyond 3x buys no more nodes');
  assert.equal(nodeBudget(10, 1, 1), MIN_NODE_BUDGET);
  assert.equal(nodeBudget(1e6, 1, 8), MAX_NODE_BUDGET);
});

// A binary tree of depth 5 over [0, 32): level d has 32 / 2^d nodes of width 2^d.
const tree = {
  maxDepth: 5,
  nodesOverlapping(depth: number, t0: number, t1: number): readonly number[] {
    const w = 2 ** depth;
    const out: number[] = [];
    for (let x = 0; x < 32 / w; x++) if (x * w <= t1 && t0 <= (x + 1) * w) out.push(x);
    return out;
  },
};

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
