// States go out ordered by depth, then row, then drawing order (stateOrder.ts orderByDepth), and the payload
// carries the runs of that order (stateRuns.ts) so a frame scans shown rows only. The order is
// the stable comparison sort's; the runs tile the table; received runs are checked before use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestingDepths } from '../../../src/core/query/nesting';
import { orderByDepth } from '../../../src/core/query/stateOrder';
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

test('orderByDepth: by depth, then row, then drawing order (earliest first, then latest last), shadows left out', () => {
  const rand = new Prng(21);
  for (const [n, shadows, rowStart, rows] of [
    [0, 0, 0, 1],
    [1, 0, 5, 1],
    [500, 20, 0, 7],
    [3000, 300, 100, 64],
    [400, 10, 0, 3 << 20],
  ] as const) {
    const all = n + shadows;
    const row = Array.from({ length: all }, () => rowStart + rand.int(0, rows - 1));
    // node by node, as a window's states come: each node's in drawing order, times going back at each node
    const earliest: number[] = [];
    const latest: number[] = [];
    for (let i = 0; i < all; i++) {
      const t = (i % 50) + rand.int(0, 3);
      earliest.push(t);
      latest.push(t + rand.int(0, 2));
    }
    const nest = nestingDepths(earliest, latest, row);
    const want = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => nest.depth[a]! - nest.depth[b]! || row[a]! - row[b]! || earliest[a]! - earliest[b]! || latest[b]! - latest[a]! || a - b,
    );
    assert.deepEqual([...orderByDepth(nest.order, nest.depth, n)], want, `${n} states and ${shadows} shadows over ${rows} rows`);
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

test('stateRunsOf: time order within each run, when the start and end times are given', () => {
  const depth = [0, 0, 0, 1, 1];
  const row = [3, 3, 5, 0, 0];
  const ordered = (start: number[], end: number[]): boolean | undefined => stateRunsOf(depth, row, start, end)?.timeOrdered;
  assert.equal(stateRunsOf(depth, row)!.timeOrdered, false, 'no times: not known');
  assert.equal(ordered([0, 2, 1, 0, 5], [1, 3, 9, 4, 6]), true, 'runs follow one another; another run may start earlier');
  assert.equal(ordered([0, 0, 1, 0, 5], [1, 1, 9, 4, 6]), true, 'equal times are in order');
  assert.equal(ordered([2, 0, 1, 0, 5], [3, 1, 9, 4, 6]), false, 'a start goes back within a run');
  assert.equal(ordered([0, 2, 1, 0, 5], [5, 3, 9, 4, 6]), false, 'an end goes back within a run (a state inside the one before)');
  assert.equal(ordered([0, Number.NaN, 1, 0, 5], [1, 3, 9, 4, 6]), false, 'a NaN time');
  assert.equal(ordered([0, 2, 1, 0], [1, 3, 9, 4]), false, 'times of another table');
});

test('received runs: packed and unpacked unchanged; a buffer that does not tile the table in order is refused', () => {
  const runs = stateRunsOf([0, 0, 1, 1], [0, 2, 0, 1])!;
  const back = unpackStateRuns(packStateRuns(runs, 4), 4);
  for (const k of ['depth', 'row', 'from', 'to'] as const) assert.deepEqual([...back[k]], [...runs[k]], k);
  assert.equal(back.timeOrdered, false);
  const timed = stateRunsOf([0, 0, 1, 1], [0, 2, 0, 1], [0, 0, 0, 0], [1, 1, 1, 1])!;
  assert.equal(unpackStateRuns(packStateRuns(timed, 4), 4).timeOrdered, true);
  assert.equal(unpackStateRuns(packStateRuns(stateRunsOf([], [])!, 0), 0).count, 0);
  const bad = (values: number[], states: number, what: RegExp): void =>
    assert.throws(() => unpackStateRuns(new Int32Array(values).buffer, states), what, JSON.stringify(values));
  bad([0, 0, 0, 4, 0], 5, /cover/); // ends short of the table
  bad([0, 0, 0, 0, 1, 4], 4, /3 per run/);
  bad([0, 0, 0, 4], 4, /3 per run/); // no time order flag
  bad([0, 0, 0, 4, 2], 4, /time order flag 2/);
  bad([0, 1, 0, 0, 0, 2, 4, 0], 4, /run 1 out of order/); // row goes back
  bad([0, 0, 0, 0, 1, 3, 2, 0], 2, /run 1 out of order/); // starts past the end
  bad([0, 0, 1, 0, 1, 2, 4, 0], 4, /run 0 out of order/); // does not start at 0
  bad([0, 0, 0, 0, 1, 0, 4, 1], 4, /run 0 out of order/); // an empty run
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
  assert.equal(sorted.chunks!.stateRuns!.timeOrdered, true, 'one state a run');
  assert.equal(decodeWindow(encodeWindow(windowOf([0, 0], [4, 1]))).chunks!.stateRuns, undefined);
  const inside = windowOf([0, 0], [1, 1]);
  inside.states.start.set([0, 0.25]);
  inside.states.end.set([1, 0.5]);
  assert.equal(decodeWindow(encodeWindow(inside)).chunks!.stateRuns!.timeOrdered, false, 'a state inside the one before it on its depth and row');
});
