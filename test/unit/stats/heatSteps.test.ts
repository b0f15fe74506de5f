// The source heat map's bands: the largest line in the top band, each line in the band of its
// share of the largest, every line exactly once, and no division by zero for a file of zero times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heatSteps } from '../../../src/core/stats/heatSteps';

test('lines fall in the band of their share of the largest total; the largest is on top', () => {
  const lines = [
    { line: 79, total: 1.0 },
    { line: 82, total: 0.5 },
    { line: 85, total: 0.19 },
    { line: 90, total: 0.0 },
    { line: 95, total: 0.8 },
  ];
  const steps = heatSteps(lines, 5);
  assert.deepEqual(steps, [[85, 90], [], [82], [], [79, 95]]);
  assert.equal(steps.flat().length, lines.length);
});

test('a file whose lines took no time: all in the first band; no lines: empty bands', () => {
  assert.deepEqual(
    heatSteps(
      [
        { line: 1, total: 0 },
        { line: 2, total: 0 },
      ],
      3,
    ),
    [[1, 2], [], []],
  );
  assert.deepEqual(heatSteps([], 4), [[], [], [], []]);
});
