// The WebAssembly shadow-weights kernel gives every shadow the weights the JS path gives it (same
// categories in the same order, same float ratios and counts) on trees of buffers: own members
// nested, out of order, equal in drawing order, of zero duration; children merged before the
// inclusive weights (rows with weights already) and between them and the exclusive ones (covers);
// categories the kernel's cache maps to one entry, negative and past 2^16; buffers too big for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeShadows, STATE, EVENT, ARROW, type ShadowView } from '../../../src/core/formats/slog2/writer/shadows';
import { useWeightsKernel } from '../../../src/core/formats/slog2/writer/shadowWeights';
import { ShadowWeightsKernel } from '../../../src/core/formats/slog2/writer/shadowWeightsKernel';
import { rng } from '../../helpers/rng';
import { primitiveColumns, type TestPrimitive } from './primitiveColumns';

interface Shape {
  readonly lines: number;
  readonly count: number;
  /** Categories drawn from (the kernel's cache holds 256: 0, 256, 512 … share an entry). */
  readonly categories: readonly number[];
  /** Share of members that copy an earlier one (equal in drawing order). */
  readonly repeat: number;
  /** Share of states of zero duration. */
  readonly instant: number;
  /** Members in the order made, not by end time (the buffer takes either). */
  readonly unordered?: boolean;
}

const CATEGORIES = [0, 1, 2, 256, 512, 768, -5, 65_535, 65_536, 1_000_000, 0x7fffffff];

function primitives(seed: number, shape: Shape, offset: number): TestPrimitive[] {
  const next = rng(seed);
  const prims: TestPrimitive[] = [];
  for (let i = 0; i < shape.count; i++) {
    if (prims.length > 0 && next() < shape.repeat) {
      prims.push(prims[Math.floor(next() * prims.length)]!);
      continue;
    }
    const line = Math.floor(next() * shape.lines);
    // thirds: ratios that are not sums of powers of two, so the order floats are added in shows
    const start = offset + Math.floor(next() * 400) / 3;
    const length = next() < shape.instant ? 0 : Math.floor(next() * 160) / 3;
    const pick = next();
    const topology = pick < 0.7 ? STATE : pick < 0.85 ? EVENT : ARROW;
    const category = shape.categories[Math.floor(next() * shape.categories.length)]!;
    prims.push([topology, category, start, topology === EVENT ? start : start + length, line, (line + 1) % shape.lines]);
  }
  // arrival order: by end time, as the writer takes drawables
  return shape.unordered ? prims : prims.sort((a, b) => a[3] - b[3]);
}

function buffer(prims: readonly TestPrimitive[]): NodeShadows {
  const cols = primitiveColumns(prims);
  const b = new NodeShadows();
  for (let p = 0; p < prims.length; p++) b.add(cols, p);
  b.earliest = Math.min(...prims.map((p) => p[2]));
  b.latest = Math.max(...prims.map((p) => p[3]));
  return b;
}

function finished(prims: readonly TestPrimitive[]): NodeShadows {
  const b = buffer(prims);
  b.initializeWeights();
  b.finalizeWeights();
  return b;
}

/**
 * A parent with own members, one child merged before its inclusive weights and one between them
 * and its exclusive ones, every shadow as plain values.
 */
function tree(seed: number, shape: Shape): ShadowView[] {
  const early = finished(primitives(seed + 1, shape, 0));
  const late = finished(primitives(seed + 2, shape, 100));
  const parent = buffer(primitives(seed, shape, 0));
  parent.mergeChild(early);
  parent.initializeWeights();
  parent.mergeChild(late);
  parent.finalizeWeights();
  return Array.from({ length: parent.count }, (_, r) => parent.view(r));
}

function bothWays(run: () => ShadowView[]): [ShadowView[], ShadowView[]] {
  try {
    useWeightsKernel(false);
    const js = run();
    useWeightsKernel(true);
    return [js, run()];
  } finally {
    useWeightsKernel(true);
  }
}

test('WebAssembly is there to test the kernel', () => {
  assert.ok(ShadowWeightsKernel.create() !== undefined);
});

test('the kernel gives every shadow the JS weights: trees of buffers, nested and equal members, cache collisions', () => {
  const shapes: Shape[] = [
    { lines: 1, count: 40, categories: [0, 256], repeat: 0.2, instant: 0 },
    { lines: 4, count: 600, categories: CATEGORIES, repeat: 0.1, instant: 0.05 },
    { lines: 16, count: 3000, categories: CATEGORIES, repeat: 0.02, instant: 0.01 },
    { lines: 3, count: 2500, categories: [7, 263, 519], repeat: 0.3, instant: 0.3 },
    { lines: 200, count: 4000, categories: [1, 2, 3], repeat: 0, instant: 0 },
    { lines: 2, count: 3000, categories: [4, 5], repeat: 0.3, instant: 0.02, unordered: true },
  ];
  for (const [i, shape] of shapes.entries()) {
    for (const seed of [10 * i + 1, 10 * i + 2]) {
      const [js, kernel] = bothWays(() => tree(seed, shape));
      assert.ok(
        js.some((v) => v.weights !== undefined && v.weights.length >= 8),
        `shape ${i}: shadows with several weights`,
      );
      assert.deepEqual(kernel, js, `shape ${i}, seed ${seed}`);
    }
  }
});

test('shadows of zero duration and all members equal: the same (NaN) ratios either way', () => {
  const prims: TestPrimitive[] = Array.from({ length: 50 }, (_, k) => [STATE, k % 3, 5, 5, 0] as const);
  const [js, kernel] = bothWays(() => {
    const b = buffer(prims);
    b.initializeWeights();
    b.finalizeWeights();
    return Array.from({ length: b.count }, (_, r) => b.view(r));
  });
  assert.ok(Number.isNaN(js[0]!.weights![1]));
  assert.deepEqual(kernel, js);
});

test('a buffer too big for the kernel is weighed in JS, and the kernel works for the next one', () => {
  const big: Shape = { lines: 8, count: 30_000, categories: CATEGORIES, repeat: 0.01, instant: 0 };
  const small: Shape = { lines: 8, count: 500, categories: CATEGORIES, repeat: 0.01, instant: 0 };
  const [js, kernel] = bothWays(() => [...tree(71, big), ...tree(72, small)]);
  assert.deepEqual(kernel, js);
});
