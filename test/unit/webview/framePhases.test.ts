// The data frames' phase record (webview/timeline/framePhases.ts): kept only where a harness
// provides the array, one record per frame, a phase's time summed over its calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHASES, beginFramePhases, endFramePhases, endPhase, phaseClock } from '../../../webview/timeline/framePhases';

const g = globalThis as { __mpeFramePhases?: number[][] };

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('without a harness nothing is timed or kept', () => {
  delete g.__mpeFramePhases;
  beginFramePhases();
  assert.equal(phaseClock(), 0);
  endPhase('strips', 0);
  endFramePhases();
  assert.equal(g.__mpeFramePhases, undefined);
});

test('a harness gets one record per frame, each phase summed over its calls', () => {
  g.__mpeFramePhases = [];
  try {
    beginFramePhases();
    for (let depth = 0; depth < 3; depth++) {
      const t = phaseClock();
      assert.ok(t > 0);
      busy(2);
      endPhase('strips', t);
    }
    const t = phaseClock();
    busy(3);
    endPhase('raster', t);
    endFramePhases();
    beginFramePhases();
    endFramePhases();
    assert.equal(g.__mpeFramePhases.length, 2);
    const [first, second] = g.__mpeFramePhases as [number[], number[]];
    assert.equal(first.length, PHASES.length);
    assert.ok(first[PHASES.indexOf('strips')]! >= 6, `strips ${first[PHASES.indexOf('strips')]}`);
    assert.ok(first[PHASES.indexOf('raster')]! >= 3);
    assert.equal(first[PHASES.indexOf('arrows')], 0);
    assert.deepEqual(
      second,
      PHASES.map(() => 0),
    );
    // phases after the frame ended go nowhere
    endPhase('states', phaseClock());
    assert.equal(g.__mpeFramePhases.length, 2);
  } finally {
    delete g.__mpeFramePhases;
  }
});
