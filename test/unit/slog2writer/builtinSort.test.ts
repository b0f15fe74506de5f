// The writer's copy-free short sort gives the built-in sort's order exactly, even for Java's
// weight order, which is not consistent when a ratio is NaN (an event shadow's 0/0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { SHORT_SORT_MAX, ratioOrderLikeBuiltin } from '../../../src/core/formats/slog2/writer/builtinSort';
import { compareInclRatio, WEIGHT_STRIDE } from '../../../src/core/formats/slog2/writer/shadows';

test('ratioOrderLikeBuiltin: the built-in order of Java weight ratios, NaN included, short lists and long', () => {
  const prng = new Prng(11); // seeded: a failure reproduces
  const r = (): number => prng.next();
  const values = [0, 0.25, 0.5, 0.5, 1, NaN, Infinity, -0, Math.fround(1 / 3)];
  let differs = 0;
  for (let round = 0; round < 4000; round++) {
    const n = 1 + Math.floor(r() * (round % 10 === 0 ? SHORT_SORT_MAX + 20 : 6));
    const incl = Array.from({ length: n }, () => values[Math.floor(r() * values.length)]!);
    const byRatio = (a: number, b: number): number => compareInclRatio(incl[a]!, incl[b]!);
    const expected = Array.from({ length: n }, (_, i) => i).sort(byRatio);
    const weights = incl.flatMap((v, category) => [category, v, 0, 1]);
    assert.equal(weights.length, n * WEIGHT_STRIDE);
    assert.deepEqual(Array.from(ratioOrderLikeBuiltin(weights, n)).slice(0, n), expected, `ratios ${incl.join(', ')}`);
    if (expected.some((w, i) => w !== i)) differs++;
  }
  assert.ok(differs > 1000, `the cases reorder (${differs})`);
});
