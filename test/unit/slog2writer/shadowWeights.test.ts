// The weights of a node's own shadows (shadowWeights.ts) against §12.2 computed directly: per
// shadow, one weight per category in the order its members first show it, inclusive and exclusive
// ratios summed in insertion order with Java float rounding. Members come interleaved across
// shadows and categories, as on a trace of many ranks, with categories the weights' slot cache
// does not hold (negative, 2^16 and above) and categories shared by shadows in different orders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeShadows, STATE, EVENT, ARROW } from '../../../src/core/formats/slog2/writer/shadows';
import { exclusiveDurations, type Grouped } from '../../../src/core/formats/slog2/writer/shadowMembers';
import { rng } from '../../helpers/rng';
import { primitiveColumns as columns } from './primitiveColumns';

type Prim = readonly [topology: number, category: number, start: number, end: number, line: number, line2: number];

const f = Math.fround;

/** §12.2 for one buffer without children: per shadow key, [category, inclusive, exclusive, count] in first-seen order. */
function expectedWeights(prims: readonly Prim[]): Map<string, number[]> {
  const byShadow = new Map<string, Prim[]>();
  for (const p of prims) {
    const key = `${p[0]}:${p[4]}:${p[0] === ARROW ? p[5] : p[4]}`;
    let members = byShadow.get(key);
    if (members === undefined) byShadow.set(key, (members = []));
    members.push(p);
  }
  const out = new Map<string, number[]>();
  const noCovers: Grouped = {
    earliest: new Float64Array(0),
    latest: new Float64Array(0),
    category: new Int32Array(0),
    starts: new Uint32Array(1),
    fill: new Uint32Array(0),
  };
  for (const [key, members] of byShadow) {
    const earliest = Math.min(...members.map((m) => m[2]));
    const latest = Math.max(...members.map((m) => m[3]));
    const duration = latest - earliest;
    const cats: number[] = [];
    const incl = new Map<number, number>();
    const excl = new Map<number, number>();
    const count = new Map<number, number>();
    for (const m of members) {
      if (!incl.has(m[1])) {
        cats.push(m[1]);
        incl.set(m[1], 0);
        excl.set(m[1], 0);
        count.set(m[1], 0);
      }
      incl.set(m[1], f(incl.get(m[1])! + f((m[3] - m[2]) / duration)));
      count.set(m[1], count.get(m[1])! + 1);
    }
    if (members[0]![0] === STATE) {
      const ex = exclusiveDurations(
        Float64Array.from(members.map((m) => m[2])),
        Float64Array.from(members.map((m) => m[3])),
        Int32Array.from(members.map((m) => m[1])),
        0,
        members.length,
        noCovers,
        0,
        0,
      );
      // summed per category in insertion order, then added to the weight's 0 once
      members.forEach((m, k) => excl.set(m[1], f(excl.get(m[1])! + f(ex[k]! / duration))));
    }
    out.set(
      key,
      cats.flatMap((c) => [c, incl.get(c)!, f(0 + excl.get(c)!), count.get(c)!]),
    );
  }
  return out;
}

const ODD_CATEGORIES = [-5, 65_535, 65_536, 1_000_000, 0x7fffffff];

function interleaved(seed: number, lines: number, count: number): Prim[] {
  const next = rng(seed);
  const prims: Prim[] = [];
  for (let i = 0; i < count; i++) {
    const line = Math.floor(next() * lines);
    const start = Math.floor(next() * 1000) / 8;
    const length = Math.floor(next() * 200) / 16;
    const pick = next();
    const topology = pick < 0.6 ? STATE : pick < 0.8 ? EVENT : ARROW;
    // per line a preferred order of categories, so shadows meet shared categories in different orders
    const category = next() < 0.1 ? ODD_CATEGORIES[Math.floor(next() * ODD_CATEGORIES.length)]! : (line * 7 + Math.floor(next() * 6)) % 11;
    prims.push([topology, category, start, topology === EVENT ? start : start + length, line, (line + 1 + Math.floor(next() * 3)) % lines]);
  }
  return prims;
}

function weightsOf(prims: readonly Prim[]): Map<string, number[]> {
  const cols = columns(prims);
  const b = new NodeShadows();
  for (let p = 0; p < prims.length; p++) b.add(cols, p);
  b.latest = Math.max(...prims.map((p) => p[3]));
  b.initializeWeights();
  b.finalizeWeights();
  const out = new Map<string, number[]>();
  for (let r = 0; r < b.count; r++) {
    const v = b.view(r);
    const key = `${v.topology}:${v.lineIDs[0]}:${v.lineIDs[v.lineIDs.length - 1]}`;
    out.set(key, v.weights!);
  }
  return out;
}

test('own shadows weights equal §12.2 computed per shadow, members interleaved across shadows and categories', () => {
  for (const [seed, lines, count] of [
    [1, 4, 50],
    [2, 16, 2000],
    [3, 3, 3000],
    [4, 64, 5000],
  ] as const) {
    const prims = interleaved(seed, lines, count);
    const got = weightsOf(prims);
    const want = expectedWeights(prims);
    assert.equal(got.size, want.size, `seed ${seed}: shadows`);
    for (const [key, w] of want) assert.deepEqual(got.get(key), w, `seed ${seed}: shadow ${key}`);
  }
});

test('buffers one after another: what one shadow or buffer cached of its categories does not leak into the next', () => {
  // Same categories, opposite first-seen orders, on one line then another, in two buffers in turn.
  const a: Prim[] = [
    [STATE, 1, 0, 4, 0, 0],
    [STATE, 2, 1, 2, 0, 0],
    [STATE, 3, 2, 3, 0, 0],
    [STATE, 3, 0, 1, 1, 1],
    [STATE, 2, 1, 3, 1, 1],
    [STATE, 1, 3, 4, 1, 1],
  ];
  const b: Prim[] = [
    [STATE, 2, 0, 2, 0, 0],
    [STATE, 1, 0, 1, 0, 0],
    [STATE, 1, 2, 6, 0, 0],
  ];
  for (const prims of [a, b, a]) {
    const got = weightsOf(prims);
    for (const [key, w] of expectedWeights(prims)) assert.deepEqual(got.get(key), w, `shadow ${key}`);
  }
});

test('weights of a buffer whose children are merged between its inclusive and exclusive weights: the same with its grouping reused or made again', () => {
  const own = interleaved(5, 6, 800);
  const child = interleaved(6, 12, 400).map((p): Prim => [p[0], p[1], p[2] + 1000, p[3] + 1000, p[4], p[5]]);
  const parentWeights = (interfere: boolean): unknown[] => {
    const childBuffer = new NodeShadows();
    const childCols = columns(child);
    for (let p = 0; p < child.length; p++) childBuffer.add(childCols, p);
    childBuffer.latest = Math.max(...child.map((p) => p[3]));
    childBuffer.initializeWeights();
    childBuffer.finalizeWeights();
    const parent = new NodeShadows();
    const cols = columns(own);
    for (let p = 0; p < own.length; p++) parent.add(cols, p);
    parent.latest = childBuffer.latest;
    parent.initializeWeights();
    // another buffer's weights in between take the grouping scratch: the parent's must be made again
    const other = interfere ? new NodeShadows() : undefined;
    if (other) {
      const otherCols = columns(interleaved(7, 5, 300));
      for (let p = 0; p < 300; p++) other.add(otherCols, p);
      other.latest = 2000;
      other.initializeWeights();
    }
    parent.mergeChild(childBuffer);
    parent.finalizeWeights();
    other?.finalizeWeights();
    return Array.from({ length: parent.count }, (_, r) => parent.view(r));
  };
  const reused = parentWeights(false);
  assert.ok(reused.length > 6 * 3, 'the child brought shadows the parent did not have');
  assert.deepEqual(reused, parentWeights(true));
});
