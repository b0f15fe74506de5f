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
