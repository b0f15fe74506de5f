import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hitTest } from '../../../webview/timeline/hitTest';
import { ARROW_SPEC, EVENT_SPEC, SHADOW_SPEC, SHADOW_WEIGHT_SPEC, STATE_SPEC, allocateTable, type WindowColumns } from '../../../src/protocol/wire';

function columns(): WindowColumns {
  // row 0: outer state [0, 10] depth 0, inner [2, 4] depth 1 (sorted outermost first); event at 6
  const states = allocateTable(STATE_SPEC, 2);
  states.start.set([0, 2]);
  states.end.set([10, 4]);
  states.row.set([0, 0]);
  states.category.set([1, 2]);
  states.depth.set([0, 1]);
  const events = allocateTable(EVENT_SPEC, 1);
  events.time[0] = events.start[0] = events.end[0] = 6;
  const arrows = allocateTable(ARROW_SPEC, 1);
  arrows.start[0] = 12;
  arrows.end[0] = 14;
  arrows.fromRow[0] = 0;
  arrows.toRow[0] = 2;
  const shadows = allocateTable(SHADOW_SPEC, 1);
  shadows.start[0] = 20;
  shadows.end[0] = 30;
  shadows.row[0] = 1;
  return {
    header: { baseTime: 0, t0: 0, t1: 40, rowStart: 0, rowEnd: 3, mapIndex: 0, lowestDepth: 1, maxNesting: 1, truncated: false, nodesRead: 0, buildMs: 0 },
    states,
    shadows,
    shadowWeights: allocateTable(SHADOW_WEIGHT_SPEC, 0),
    arrows,
    events,
  };
}

const rows = { rowCount: 3, rowHeight: 24, scrollPx: 0, heightPx: 100 };
const x = (o: number) => o * 10; // 10 px per second

test('the innermost state under the pointer wins; events and arrows before states; shadows', () => {
  const c = columns();
  assert.deepEqual(hitTest(c, x, rows, 30, 12), { kind: 'state', index: 1 });
  assert.deepEqual(hitTest(c, x, rows, 30, 3), { kind: 'state', index: 0 }, 'above the inner box: the outer state');
  assert.deepEqual(hitTest(c, x, rows, 80, 12), { kind: 'state', index: 0 });
  assert.deepEqual(hitTest(c, x, rows, 62, 12), { kind: 'event', index: 0 });
  // arrow from (120, 12) to (140, 60): its midpoint (130, 36) lies in row 1
  assert.deepEqual(hitTest(c, x, rows, 130, 37), { kind: 'arrow', index: 0 });
  assert.deepEqual(hitTest(c, x, rows, 250, 36), { kind: 'shadow', index: 0 });
  assert.equal(hitTest(c, x, rows, 250, 12), undefined);
  assert.equal(hitTest(c, x, rows, 30, 90), undefined, 'below the last row');
});

test('hidden categories (legend V off) are never hit: the state below them is', () => {
  const c = columns();
  assert.deepEqual(hitTest(c, x, rows, 30, 12, new Set([2])), { kind: 'state', index: 0 }, 'inner hidden: the outer state');
  assert.equal(hitTest(c, x, rows, 30, 12, new Set([1, 2])), undefined);
  // the event has category 0 (zeroed column): hidden, the outer state under it wins
  assert.deepEqual(hitTest(c, x, rows, 62, 12, new Set([0])), { kind: 'state', index: 0 });
});
