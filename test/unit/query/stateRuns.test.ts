// States go out ordered by depth, then row (stateOrder.ts orderByDepthAndRow), and the payload
// carries the runs of that order (stateRuns.ts) so a frame scans shown rows only. The order is
// the stable comparison sort's; the runs tile the table; received runs are checked before use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderByDepthAndRow } from '../../../src/core/query/stateOrder';
import { packStateRuns, stateRunsOf, unpackStateRuns } from '../../../src/core/query/stateRuns';
import { Prng } from '../../../src/core/synth/prng';
import {
  ARROW_SPEC,
  EVENT_SPEC,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  STATE_SPEC,
  allocateTable,
  decodeWindow,
  encodeWindow,
  type WindowColumns,
} from '../../../src/protocol/wire';

test('orderByDepthAndRow is the stable sort by depth, then row (counting passes, and the wide-row fallback)', () => {
  const rand = new Prng(21);
  for (const [n, rowStart, rows] of [
    [0, 0, 1],
    [1, 5, 1],
    [500, 0, 7],
    [3000, 100, 64],
    [400, 0, 3 << 20],
  ] as const) {
    const depth = Array.from({ length: n }, () => rand.int(0, 3));
    const row = Array.from({ length: n }, () => rowStart + rand.int(0, rows - 1));
    const want = Array.from({ length: n }, (_, i) => i).sort((a, b) => depth[a]! - depth[b]! || row[a]! - row[b]! || a - b);
    assert.deepEqual([...orderByDepthAndRow(depth, row, rowStart, n)], want, `${n} states over ${rows} rows`);
  }
});

test('stateRunsOf: runs of equal depth and row that tile the table; none when the order breaks', () => {
  const runs = stateRunsOf([0, 0, 0, 1, 1, 2], [3, 3, 5, 0, 4, 4])!;
  assert.equal(runs.count, 5);
  assert.deepEqual([...runs.depth], [0, 0, 1, 1, 2]);
  assert.deepEqual([...runs.row], [3, 5, 0, 4, 4]);
  assert.deepEqual([...runs.from], [0, 2, 3, 4, 5]);
  assert.deepEqual([...runs.to], [2, 3, 4, 5, 6]);
  assert.equal(stateRunsOf([0, 0, 1], [2, 1, 0]), undefined, 'row goes back within a depth');
  assert.equal(stateRunsOf([1, 0], [0, 0]), undefined, 'depth goes back');
  assert.equal(stateRunsOf([], [])!.count, 0);
});

test('received runs: packed and unpacked unchanged; a buffer that does not tile the table in order is refused', () => {
  const runs = stateRunsOf([0, 0, 1, 1], [0, 2, 0, 1])!;
  const back = unpackStateRuns(packStateRuns(runs, 4), 4);
  for (const k of ['depth', 'row', 'from', 'to'] as const) assert.deepEqual([...back[k]], [...runs[k]], k);
  assert.equal(unpackStateRuns(packStateRuns(stateRunsOf([], [])!, 0), 0).count, 0);
  const bad = (values: number[], states: number, what: RegExp): void =>
    assert.throws(() => unpackStateRuns(new Int32Array(values).buffer, states), what, JSON.stringify(values));
  bad([0, 0, 0, 4], 5, /cover/); // ends short of the table
  bad([0, 0, 0, 0, 1], 4, /3 per run/);
  bad([0, 1, 0, 0, 0, 2, 4], 4, /run 1 out of order/); // row goes back
  bad([0, 0, 0, 0, 1, 3, 2], 2, /run 1 out of order/); // starts past the end
  bad([0, 0, 1, 0, 1, 2, 4], 4, /run 0 out of order/); // does not start at 0
  bad([0, 0, 0, 0, 1, 0, 4], 4, /run 0 out of order/); // an empty run
  assert.throws(() => unpackStateRuns(new ArrayBuffer(6), 0), /misaligned/);
  assert.throws(() => unpackStateRuns(undefined, 0), /missing/);
});

function windowOf(depth: number[], row: number[]): WindowColumns {
  const st = allocateTable(STATE_SPEC, depth.length);
  st.depth.set(depth);
  st.row.set(row);
  const header = { baseTime: 0, t0: 0, t1: 1, rowStart: 0, rowEnd: 8, mapIndex: 0, lowestDepth: 0, maxNesting: 2, truncated: false, nodesRead: 0, buildMs: 0 };
  const empty = {
    shadows: allocateTable(SHADOW_SPEC, 0),
    shadowWeights: allocateTable(SHADOW_WEIGHT_SPEC, 0),
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  };
  return { header, states: st, ...empty };
}

test('a payload carries its runs over the wire, and none when its states are not in that order', () => {
  const sorted = decodeWindow(encodeWindow(windowOf([0, 0, 1, 2, 2], [1, 4, 4, 0, 7])));
  assert.deepEqual([...sorted.chunks!.stateRuns!.from], [0, 1, 2, 3, 4]);
  assert.deepEqual([...sorted.chunks!.stateRuns!.row], [1, 4, 4, 0, 7]);
  assert.equal(decodeWindow(encodeWindow(windowOf([0, 0], [4, 1]))).chunks!.stateRuns, undefined);
});
