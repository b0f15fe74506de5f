import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timesliceAt } from '../../../webview/timeline/timeslice';
import { ARROW_SPEC, EVENT_SPEC, SHADOW_SPEC, SHADOW_WEIGHT_SPEC, STATE_SPEC, allocateTable, type WindowColumns } from '../../../src/protocol/wire';

function columns(): WindowColumns {
  // row 0: Phase [0,10] ⊃ Solve [2,8] ⊃ MPI_Barrier [3,4]; row 1: a preview box [0,10] 70 % cat 5, 30 % cat 6
  const states = allocateTable(STATE_SPEC, 3);
  states.start.set([0, 2, 3]);
  states.end.set([10, 8, 4]);
  states.row.set([0, 0, 0]);
  states.category.set([1, 2, 3]);
  states.depth.set([0, 1, 2]);
  const shadows = allocateTable(SHADOW_SPEC, 1);
  shadows.start[0] = 0;
  shadows.end[0] = 10;
  shadows.row[0] = 1;
  shadows.weightStart[0] = 0;
  shadows.weightCount[0] = 2;
  const w = allocateTable(SHADOW_WEIGHT_SPEC, 2);
  w.category.set([6, 5]);
  w.excl.set([0.3, 0.7]);
  return {
    header: { baseTime: 100, t0: 100, t1: 110, rowStart: 0, rowEnd: 3, mapIndex: 0, lowestDepth: 0, maxNesting: 2, truncated: false, nodesRead: 0, buildMs: 0 },
    states,
    shadows,
    shadowWeights: w,
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  };
}

test('the state stack of every shown row at t, outermost first; preview boxes as shares', () => {
  const s = timesliceAt(columns(), 103.5, [1, 0, 2]);
  assert.deepEqual(s[1], { row: 0, stack: [1, 2, 3] });
  assert.deepEqual(
    s[0]!.summary?.map((p) => p.category),
    [5, 6],
  );
  assert.deepEqual(s[2], { row: 2, stack: [] });
  assert.deepEqual(timesliceAt(columns(), 109, [0])[0]!.stack, [1]);
  assert.deepEqual(timesliceAt(columns(), 103.5, [0], new Set([2]))[0]!.stack, [1, 3]);
});
