// A click's selection and host reference come from the payload columns in absolute times, with a
// tolerance that covers the float32 offsets; shadows give their per-category shares instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allocateTable,
  ARROW_SPEC,
  EVENT_SPEC,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  STATE_SPEC,
  FLAG_SHADOW,
  type WindowColumns,
} from '../../../src/protocol/wire';
import { refOf, selectionOf, shadowSummaryOf } from '../../../webview/timeline/selection';

function columns(): WindowColumns {
  const states = allocateTable(STATE_SPEC, 1);
  states.start[0] = 0.5;
  states.end[0] = 0.75;
  states.row[0] = 2;
  states.category[0] = 7;
  states.depth[0] = 1;
  const shadows = allocateTable(SHADOW_SPEC, 1);
  shadows.count[0] = 12;
  shadows.weightStart[0] = 0;
  shadows.weightCount[0] = 2;
  const w = allocateTable(SHADOW_WEIGHT_SPEC, 2);
  w.category.set([7, 8]);
  w.excl.set([0.5, 0.25]);
  w.incl.set([0.75, 0.25]);
  w.count.set([10, 2]);
  const arrows = allocateTable(ARROW_SPEC, 1);
  arrows.start[0] = 0.1;
  arrows.end[0] = 0.2;
  arrows.fromRow[0] = 1;
  arrows.toRow[0] = 3;
  arrows.category[0] = 9;
  const events = allocateTable(EVENT_SPEC, 1);
  events.flags[0] = FLAG_SHADOW;
  const header = {
    baseTime: 100,
    t0: 100,
    t1: 101,
    rowStart: 0,
    rowEnd: 4,
    mapIndex: 0,
    lowestDepth: 2,
    maxNesting: 1,
    truncated: false,
    nodesRead: 0,
    buildMs: 0,
  };
  return { header, states, shadows, shadowWeights: w, arrows, events };
}

test('a state: absolute times, rows, depth, and a reference with the payload depth', () => {
  const c = columns();
  const s = selectionOf({ kind: 'state', index: 0 }, c, 1);
  assert.deepEqual(s, { kind: 'state', start: 100.5, end: 100.75, row: 2, toRow: 2, depth: 1, mapIndex: 1, category: 7, summary: false });
  const r = refOf({ kind: 'state', index: 0 }, c, 1);
  assert.ok(r);
  assert.equal(r.drawable, 'state');
  assert.equal(r.lowestDepth, 2);
  assert.ok(r.tolerance > 0 && r.tolerance < 1e-6, String(r.tolerance));
});

test('an arrow keeps both rows; a shadow event or a state shadow has no host reference', () => {
  const c = columns();
  const a = refOf({ kind: 'arrow', index: 0 }, c, 0);
  assert.equal(a?.row, 1);
  assert.equal(a?.toRow, 3);
  assert.equal(refOf({ kind: 'event', index: 0 }, c, 0), undefined);
  assert.equal(refOf({ kind: 'shadow', index: 0 }, c, 0), undefined);
});

test('a state shadow lists its per-category shares and counts', () => {
  assert.deepEqual(shadowSummaryOf(0, columns()), {
    count: 12,
    shares: [
      { category: 7, inclusive: 0.75, exclusive: 0.5, count: 10 },
      { category: 8, inclusive: 0.25, exclusive: 0.25, count: 2 },
    ],
  });
});

test('keyboard moves: next/previous on the row by start time, the same time on a neighbouring row', async () => {
  const { nextOnRow, atTimeOnRow } = await import('../../../webview/timeline/selection');
  const states = allocateTable(STATE_SPEC, 4);
  // row 0: [0, 10] depth 0, [2, 4] depth 1, [6, 8] depth 1; row 1: [1, 9] depth 0
  states.start.set([0, 2, 6, 1]);
  states.end.set([10, 4, 8, 9]);
  states.row.set([0, 0, 0, 1]);
  states.depth.set([0, 1, 1, 0]);
  const c: WindowColumns = {
    ...columns(),
    header: { ...columns().header, baseTime: 0 },
    states,
    events: allocateTable(EVENT_SPEC, 0),
  };
  const sel = (i: number) => selectionOf({ kind: 'state', index: i }, c, 0);
  assert.deepEqual(nextOnRow(c, sel(0), 1), { kind: 'state', index: 1 });
  assert.deepEqual(nextOnRow(c, sel(1), 1), { kind: 'state', index: 2 });
  assert.equal(nextOnRow(c, sel(2), 1), undefined);
  assert.deepEqual(nextOnRow(c, sel(2), -1), { kind: 'state', index: 1 });
  assert.deepEqual(nextOnRow(c, sel(1), -1), { kind: 'state', index: 0 });
  assert.deepEqual(atTimeOnRow(c, sel(3), 0), { kind: 'state', index: 0 }, 'time 5 on row 0: only the outer state covers it');
  assert.deepEqual(atTimeOnRow(c, sel(2), 1), { kind: 'state', index: 3 });
  assert.equal(atTimeOnRow(c, sel(0), 2), undefined);
});
