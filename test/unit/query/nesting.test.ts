import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestingDepths } from '../../../src/core/query/nesting';
import { rowLayoutOf, defaultMapIndex } from '../../../src/core/query/rows';

test('nesting depth counts enclosing states on the same row, in drawing order', () => {
  // row 0: Phase [0,10] > Solve [1,9] > Kernel [2,3], Kernel [4,5]; then a sibling [10, 12]
  // row 1: a state overlapping row 0's times is not nested in them
  const earliest = [2, 0, 1, 4, 10, 0.5];
  const latest = [3, 10, 9, 5, 12, 11];
  const row = [0, 0, 0, 0, 0, 1];
  const { depth, maxDepth } = nestingDepths(earliest, latest, row);
  assert.deepEqual([...depth], [2, 0, 1, 2, 0, 0]);
  assert.equal(maxDepth, 2);
});

test('equal starts: the longer state encloses the shorter one; partial overlap is not nesting', () => {
  const { depth } = nestingDepths([0, 0, 5], [4, 10, 12], [3, 3, 3]);
  assert.deepEqual([...depth], [1, 0, 0]);
});

test('rows of a Y map: distinct paths in lexicographic order, shared rows', () => {
  const map = {
    title: 'Communicator View',
    columns: ['commID', 'comm_rank'],
    methods: [],
    rows: [
      { lineID: 5, path: [1, 0] },
      { lineID: 0, path: [0, 0] },
      { lineID: 9, path: [0, 10] },
      { lineID: 3, path: [0, 2] },
      { lineID: 7, path: [1, 0] },
    ],
  };
  const layout = rowLayoutOf(map);
  assert.deepEqual(layout.labels, ['0 / 0', '0 / 2', '0 / 10', '1 / 0']);
  assert.equal(layout.rowOfLine.get(9), 2);
  assert.equal(layout.rowOfLine.get(5), 3);
  assert.equal(layout.rowOfLine.get(7), 3);
  assert.equal(
    defaultMapIndex([
      { ...map, title: 'Identity Map' },
      { ...map, title: 'Process View' },
    ]),
    1,
  );
  assert.equal(defaultMapIndex([{ ...map, title: 'Identity Map' }]), 0);
});

/** The walk as first written: one comparison sort of every state, a stack per row (the oracle). */
function nestingByOneSort(earliest: number[], latest: number[], row: number[]): { depth: number[]; maxDepth: number } {
  const order = earliest.map((_, i) => i).sort((a, b) => earliest[a]! - earliest[b]! || latest[b]! - latest[a]! || a - b);
  const stacks = new Map<number, number[]>();
  const depth: number[] = new Array<number>(earliest.length).fill(0);
  let maxDepth = 0;
  for (const i of order) {
    const stack = stacks.get(row[i]!) ?? [];
    stacks.set(row[i]!, stack);
    while (stack.length > 0 && !(earliest[stack[stack.length - 1]!]! <= earliest[i]! && latest[i]! <= latest[stack[stack.length - 1]!]!)) stack.pop();
    depth[i] = stack.length;
    maxDepth = Math.max(maxDepth, stack.length);
    stack.push(i);
  }
  return { depth, maxDepth };
}

test('rows grouped and merged by runs: the depths of one sort of every state', () => {
  let s = 12345;
  const rand = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  // rows: few and small (counting), spread far apart (comparison sort), fractional (comparison sort)
  const rowsOf: ((k: number) => number)[] = [(k) => k % 7, (k) => (k % 5) * 1e6, (k) => (k % 3) + 0.5, () => 4];
  for (const [shape, rowOf] of rowsOf.entries()) {
    for (const n of [1, 2, 17, 600, 5000]) {
      const earliest: number[] = [];
      const latest: number[] = [];
      const row: number[] = [];
      // nodes' worth of states, each node's in drawing order (runs), starts on a coarse grid (ties),
      // nested, partly overlapping and equal states
      for (let k = 0; k < n;) {
        const nodeSize = 1 + Math.floor(rand() * 40);
        const node: [number, number, number][] = [];
        for (let m = 0; m < nodeSize && k < n; m++, k++) {
          const a = Math.floor(rand() * 50) / 2;
          const b = a + Math.floor(rand() * 12) / 2;
          node.push([a, b, rowOf(Math.floor(rand() * 100))]);
        }
        if (rand() < 0.7) node.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
        for (const [a, b, r] of node) {
          earliest.push(a);
          latest.push(b);
          row.push(r);
        }
      }
      const want = nestingByOneSort(earliest, latest, row);
      const got = nestingDepths(earliest, latest, row);
      assert.deepEqual([...got.depth], want.depth, `rows of shape ${shape}, ${n} states`);
      assert.equal(got.maxDepth, want.maxDepth, `rows of shape ${shape}, ${n} states: the greatest depth`);
    }
  }
  assert.deepEqual(nestingDepths([], [], []), { depth: new Uint32Array(0), maxDepth: 0, order: new Uint32Array(0) });
});
