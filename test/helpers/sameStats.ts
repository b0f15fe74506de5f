// Statistics compared across ways of counting them: equal but for the rounding of sums taken in another order.
import assert from 'node:assert/strict';

/** Equal but for the rounding of sums taken in another order (relative 1e-12). */
export function assertSame(actual: unknown, expected: unknown, path: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const ok = actual === expected || Math.abs(actual - expected) <= 1e-12 * Math.max(Math.abs(actual), Math.abs(expected)) + 1e-300;
    assert.ok(ok, `${path}: ${actual} ≠ ${expected}`);
    return;
  }
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null) {
    assert.deepEqual(actual, expected, path);
    return;
  }
  if (expected instanceof Map) {
    assert.ok(actual instanceof Map, `${path}: not a Map`);
    assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${path}: keys`);
    for (const [k, v] of expected) assertSame(actual.get(k), v, `${path}.get(${String(k)})`);
    return;
  }
  const keys = Object.keys(expected).sort();
  assert.deepEqual(Object.keys(actual).sort(), keys, `${path}: keys`);
  for (const k of keys) assertSame((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${path}.${k}`);
}
