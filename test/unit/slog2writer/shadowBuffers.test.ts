// NodeShadows as the writer reuses them: a child merged into its parent by being taken over, and
// a released buffer's line index handed to the next buffer, empty.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeShadows, STATE, EVENT, type PrimitiveColumns } from '../../../src/core/formats/slog2/writer/shadows';

/** One primitive per entry: [topology, category, start, end, line]. */
function columns(prims: readonly (readonly [number, number, number, number, number])[]): PrimitiveColumns {
  const n = prims.length;
  const vertexStart = new Uint32Array(n + 1);
  const times: number[] = [];
  const lines: number[] = [];
  prims.forEach(([topology, , start, end, line], p) => {
    vertexStart[p] = times.length;
    if (topology === EVENT) times.push(start);
    else times.push(start, end);
    for (let i = times.length - lines.length; i > 0; i--) lines.push(line);
  });
  vertexStart[n] = times.length;
  return {
    primTopology: Uint8Array.from(prims.map((p) => p[0])),
    primCategory: Int32Array.from(prims.map((p) => p[1])),
    primEarliest: Float64Array.from(prims.map((p) => p[2])),
    primLatest: Float64Array.from(prims.map((p) => p[3])),
    vertexStart,
    vertexTime: Float64Array.from(times),
    vertexLine: Int32Array.from(lines),
  };
}

function finished(cols: PrimitiveColumns, latest: number): NodeShadows {
  const b = new NodeShadows();
  for (let p = 0; p < cols.primTopology.length; p++) b.add(cols, p);
  b.latest = latest;
  b.initializeWeights();
  b.finalizeWeights();
  return b;
}

test('a released buffer lends its line index to the next one, empty', () => {
  const child = finished(
    columns([
      [STATE, 7, 0, 4, 3],
      [EVENT, 9, 2, 2, 3],
    ]),
    4,
  );
  child.release();
  const next = finished(columns([[STATE, 7, 10, 12, 3]]), 12);
  assert.equal(next.shadows.length, 1);
  assert.equal(next.shadows[0]!.numRealObjs, 1, 'no shadow of the released buffer is found by key');
  assert.deepEqual(next.shadows[0]!.times, [10, 12]);
});

test('merging by taking over gives the shadows a copying merge gives', () => {
  const make = (): NodeShadows[] => [
    finished(
      columns([
        [STATE, 7, 0, 4, 3],
        [STATE, 8, 1, 2, 3],
        [EVENT, 9, 2, 2, 5],
      ]),
      4,
    ),
    finished(
      columns([
        [STATE, 7, 5, 9, 3],
        [EVENT, 9, 6, 6, 6],
      ]),
      9,
    ),
  ];
  const summary = (b: NodeShadows): unknown =>
    b.shadows.map((s) => ({
      key: s.key,
      times: [...s.times],
      lines: [...s.lineIDs],
      n: s.numRealObjs,
      bounds: [s.earliest, s.latest],
      weights: [...s.weights!],
    }));
  const copied = finished(columns([[STATE, 7, 0, 9, 3]]), 9);
  for (const c of make()) copied.mergeChild(c);
  const adopted = finished(columns([[STATE, 7, 0, 9, 3]]), 9);
  for (const c of make()) adopted.mergeChild(c, true);
  assert.deepEqual(summary(adopted), summary(copied));
  assert.equal(adopted.shadows.length, 3, 'one per key: state on line 3, events on lines 5 and 6');
});

test("a child shadow merged into an own state shadow takes its time off the members' exclusive time", () => {
  const child = finished(columns([[STATE, 7, 5, 9, 3]]), 9);
  const parent = new NodeShadows();
  const own = columns([[STATE, 7, 0, 9, 3]]);
  parent.add(own, 0);
  parent.latest = 9;
  parent.initializeWeights();
  parent.mergeChild(child, true);
  parent.finalizeWeights();
  const [s] = parent.shadows;
  assert.deepEqual([s!.earliest, s!.latest, s!.numRealObjs], [0, 9, 2]);
  // Own member: 9 s, of which the child's cover [5, 9] is not exclusive (5/9); the child's own
  // weight came merged with its exclusive ratio 1 scaled by 4/9.
  const f = Math.fround;
  assert.deepEqual([...s!.weights!], [7, f(1 + f(4 / 9)), f(f(4 / 9) + f(5 / 9)), 2]);
});
