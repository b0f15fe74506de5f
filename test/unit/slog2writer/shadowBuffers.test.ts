// NodeShadows as the writer reuses them: a child merged into its parent, then released (its
// columns and line index handed to the next buffer, empty), and weights that outgrow their room.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeShadows, STATE, EVENT, ARROW, type PrimitiveColumns } from '../../../src/core/formats/slog2/writer/shadows';
import { primitiveColumns as columns } from './primitiveColumns';
import { ShadowColumns, pooledShadowColumns, releaseShadowColumns } from '../../../src/core/formats/slog2/writer/shadowColumns';

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
  assert.equal(next.count, 1);
  assert.equal(next.view(0).numRealObjs, 1, 'no shadow of the released buffer is found by key');
  assert.deepEqual(next.view(0).times, [10, 12]);
});

const summary = (b: NodeShadows): unknown =>
  Array.from({ length: b.count }, (_, r) => {
    const s = b.view(r);
    return { key: s.key, times: s.times, lines: s.lineIDs, n: s.numRealObjs, bounds: [s.earliest, s.latest], weights: s.weights };
  });

test("a parent keeps its merged shadows when the children's columns are reused", () => {
  const children = (): NodeShadows[] => [
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
  const kept = finished(columns([[STATE, 7, 0, 9, 3]]), 9);
  for (const c of children()) kept.mergeChild(c);
  const parent = finished(columns([[STATE, 7, 0, 9, 3]]), 9);
  for (const c of children()) {
    parent.mergeChild(c);
    c.release();
  }
  // The released columns go to new buffers, which fill them with other shadows.
  for (let i = 0; i < 4; i++)
    finished(
      columns([
        [STATE, 11, 20 + i, 30, 9 - i],
        [EVENT, 12, 21, 21, 40],
      ]),
      30,
    );
  assert.equal(parent.count, 3, 'one per key: state on line 3, events on lines 5 and 6');
  assert.deepEqual(summary(parent), summary(kept));
  // The events' shadows are new to the parent (copied rows): as their children had them.
  const events = Array.from({ length: 3 }, (_, r) => parent.view(r)).filter((v) => v.topology === EVENT);
  assert.deepEqual(
    events.map((v) => [v.lineIDs, v.times, v.numRealObjs, v.weights]),
    [
      [[5], [2], 1, [9, NaN, 0, 1]],
      [[6], [6], 1, [9, NaN, 0, 1]],
    ],
  );
});

test("a child shadow merged into an own state shadow takes its time off the members' exclusive time", () => {
  const child = finished(columns([[STATE, 7, 5, 9, 3]]), 9);
  const parent = new NodeShadows();
  const own = columns([[STATE, 7, 0, 9, 3]]);
  parent.add(own, 0);
  parent.latest = 9;
  parent.initializeWeights();
  parent.mergeChild(child);
  parent.finalizeWeights();
  const s = parent.view(0);
  assert.deepEqual([s.earliest, s.latest, s.numRealObjs], [0, 9, 2]);
  // Own member: 9 s, of which the child's cover [5, 9] is not exclusive (5/9); the child's own
  // weight came merged with its exclusive ratio 1 scaled by 4/9.
  const f = Math.fround;
  assert.deepEqual(s.weights, [7, f(1 + f(4 / 9)), f(f(4 / 9) + f(5 / 9)), 2]);
});

test('weights grow past their room and the arena, in insertion order, other shadows untouched', () => {
  // 300 lines, each a state shadow; child k brings category 100 + k on every line, so every
  // shadow's weights move as they grow and the arena (1024 numbers at first) grows several times.
  const lines = 300;
  const parent = finished(columns(Array.from({ length: lines }, (_, l) => [STATE, 1, 0, 1, l] as const)), 1);
  const categories = 12;
  for (let k = 0; k < categories; k++) {
    parent.mergeChild(finished(columns(Array.from({ length: lines }, (_, l) => [STATE, 100 + k, 0, 1, l] as const)), 1));
  }
  assert.equal(parent.count, lines);
  for (let r = 0; r < lines; r++) {
    const w = parent.view(r).weights!;
    assert.deepEqual(
      Array.from({ length: w.length / 4 }, (_, i) => [w[i * 4], w[i * 4 + 3]]),
      [[1, 1], ...Array.from({ length: categories }, (_, k) => [100 + k, 1])],
      `line ${r}`,
    );
    // Same bounds throughout: each weight's inclusive ratio is 1.
    for (let i = 0; i < w.length; i += 4) assert.equal(w[i + 1], 1);
  }
  // 42 bytes of stub, and per shadow 36 + 12 per vertex + 20 per weight.
  assert.equal(parent.byteSize(), 42 + lines * (36 + 24 + 20 * (1 + categories)));
});

test('a shadow of three vertices keeps them all (string key)', () => {
  const cols = columns([[ARROW, 4, 0, 3, 1]]);
  const three = {
    ...cols,
    vertexStart: Uint32Array.from([0, 3]),
    vertexTime: Float64Array.from([0, 1, 3]),
    vertexLine: Int32Array.from([1, 2, 3]),
  };
  const child = finished(three, 3);
  const parent = finished(three, 3);
  parent.mergeChild(child);
  const s = parent.view(0);
  assert.equal(parent.count, 1);
  assert.equal(s.key, '2,1,2,3');
  assert.deepEqual([s.times, s.lineIDs, s.numRealObjs], [[0, 1, 3], [1, 2, 3], 2]);
  assert.equal(parent.byteSize(), 42 + 36 + 36 + 20);
});

test('a buffer takes its columns with its first shadow, sized as expected then; an empty one holds none', () => {
  // A wide trace's trunk nodes wait empty most of the time: columns taken up front, sized for the
  // last node at their depth, held up to 10 MB each of nothing.
  releaseShadowColumns(new ShadowColumns(4096, 1 << 16));
  const pooled = pooledShadowColumns();
  const empty = new NodeShadows(4000, 1 << 15);
  assert.equal(empty.count, 0);
  assert.equal(empty.arenaWords, 0);
  assert.equal(empty.memoryBytes, 0);
  assert.ok(empty.inMemory);
  assert.equal(pooledShadowColumns(), pooled, 'no columns taken while empty');
  const cols = columns([[STATE, 7, 0, 4, 3]]);
  empty.add(cols, 0);
  assert.equal(pooledShadowColumns(), pooled - 1, 'the pooled set that holds what was expected is taken at the first shadow');
  assert.ok(empty.rows.topology.length >= 4000);
  assert.equal(empty.count, 1);
  // Released, it reads as nothing and cannot take columns again.
  empty.release();
  assert.equal(empty.count, 0);
  assert.throws(() => empty.rows, /after release/);
  // Reserved before any shadow (a node written with no own drawables), it takes a set of that size.
  const merging = new NodeShadows();
  merging.reserve(5000, 1 << 14);
  assert.ok(merging.rows.topology.length >= 5000 && merging.rows.arena.length >= 1 << 14);
});
