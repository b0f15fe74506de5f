// The data layer's warm-up while the view rests (warmUp.ts): which frames it draws (a drag's pans
// by whole pixels at the view's scale, zooms in, pans there, the view itself last), and when: only
// after QUIET_MS without a real frame, one frame per long idle period, put off by any real frame,
// never where a harness asks for none, and its scratch canvas given back at the end. Idle
// callbacks are the test's and timers mocked (no DOM); the pixels its frames leave behind are
// dataLayerPixels.test.ts's.
import { afterEach, beforeEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { DataWarmUp, QUIET_MS, WARM_UP_FRAMES, warmUpScale, type IdleCallbacks, type WarmUpTarget } from '../../../webview/timeline/warmUp';
import { TimeScale } from '../../../webview/timeline/timeScale';

test('the frames: pans by 8 px at the view scale (out, then back), zooms in by 1.6 a step, pans there, then the view', () => {
  const view = new TimeScale(10, 10.012, 1200);
  const scales = Array.from({ length: WARM_UP_FRAMES }, (_, i) => warmUpScale(i, view));
  assert.equal(scales.at(-1), view, 'the last frame is the view itself');
  const pxOf = (s: TimeScale): number => s.timeToPx(view.t0) - view.timeToPx(view.t0);
  let pans = 0;
  for (const [i, s] of scales.entries()) assert.equal(s.widthPx, 1200, `frame ${i}: the plot's width`);
  for (let i = 0; i < scales.length && Math.abs(scales[i]!.pxPerSec / view.pxPerSec - 1) < 1e-9; i++) {
    // six pans one way, then six back (both directions' branches warmed)
    const want = i < 6 ? 8 * (i + 1) : 8 * (11 - i);
    assert.ok(Math.abs(pxOf(scales[i]!) - want) < 1e-6, `frame ${i}: panned ${pxOf(scales[i]!)} px, want ${want}`);
    pans++;
  }
  assert.equal(pans, 12, 'a drag of 12 moves first');
  const steps = scales.slice(0, pans).map((s, i) => pxOf(s) - (i === 0 ? 0 : pxOf(scales[i - 1]!)));
  assert.ok(steps.some((d) => d > 0) && steps.some((d) => d < 0), `pans both ways: ${steps.join(', ')}`);
  const zooms = scales.slice(pans, -1).map((s) => s.pxPerSec / view.pxPerSec);
  for (const [i, z] of zooms.entries()) assert.ok(z > 1, `zoom frame ${i}: zoomed in (×${z})`);
  for (let i = 1; i < 6; i++) assert.ok(Math.abs(zooms[i]! / zooms[i - 1]! - 1.6) < 1e-9, `zoom step ${i}: ×1.6`);
  // then pans at the deepest zoom, by whole pixels there
  const deep = scales.slice(pans + 6, -1);
  assert.ok(deep.length > 0);
  for (const [i, s] of deep.entries()) {
    assert.ok(Math.abs(s.pxPerSec / scales[pans + 5]!.pxPerSec - 1) < 1e-9, `deep pan ${i}: the deepest zoom`);
    const moved = s.timeToPx(scales[pans + 5]!.t0);
    const want = i < deep.length >> 1 ? 8 * (i + 1) : 8 * (deep.length - 1 - i);
    assert.ok(Math.abs(moved - want) < 1e-6, `deep pan ${i}: moved ${moved} px, want ${want}`);
  }
});

// ---- scheduling, with idle callbacks of the test's and mocked timers ----------------------

/** Idle callbacks run when the test says (`idle`), and the frames drawn and canvases given back. */
class Harness {
  steps: number[] = [];
  released = 0;
  private pending = new Map<number, (left: number) => void>();
  private ids = 0;
  readonly callbacks: IdleCallbacks = {
    request: (fn) => (this.pending.set(++this.ids, fn), this.ids),
    cancel: (id) => void this.pending.delete(id),
  };

  constructor(readonly ready: () => boolean = () => true) {}

  readonly target: WarmUpTarget = {
    draw: (step) => this.ready() && (this.steps.push(step), true),
    release: () => void this.released++,
  };

  /** Runs the idle callbacks pending (those asked for meanwhile wait for the next call), `left` ms each. */
  idle(left = 49): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const fn of due) fn(left);
  }
}

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => {
  mock.timers.reset();
  delete (globalThis as { __mpeNoWarmUp?: boolean }).__mpeNoWarmUp;
});

test('warms only after the view rested, a frame per long idle period, then gives the canvas back', () => {
  const t = new Harness();
  const { steps } = t;
  const idle = t.idle.bind(t);
  const w = new DataWarmUp(t.target, t.callbacks);
  w.afterFrame();
  idle();
  assert.deepEqual(steps, [], 'nothing before QUIET_MS');
  mock.timers.tick(QUIET_MS);
  idle(5);
  assert.deepEqual(steps, [], 'a short idle period draws nothing');
  idle();
  idle();
  assert.deepEqual(steps, [0, 1], 'one frame per idle period');
  // a real frame: put off until the view rests again, then on from where it was
  w.afterFrame();
  idle();
  assert.deepEqual(steps, [0, 1]);
  mock.timers.tick(QUIET_MS - 1);
  idle();
  assert.deepEqual(steps, [0, 1], 'still within QUIET_MS of the real frame');
  mock.timers.tick(1);
  for (let i = 0; i < 2 * WARM_UP_FRAMES; i++) idle();
  assert.deepEqual(
    steps,
    Array.from({ length: WARM_UP_FRAMES }, (_, i) => i),
    'every frame once',
  );
  assert.equal(w.remaining, 0);
  assert.equal(t.released, 1, 'the scratch canvas given back');
  w.afterFrame();
  mock.timers.tick(QUIET_MS);
  idle();
  assert.equal(steps.length, WARM_UP_FRAMES, 'done for good');
});

test('nothing to warm yet waits for the next real frame; a harness may ask for no warm-up; dispose stops it', () => {
  let ready = false;
  const t = new Harness(() => ready);
  const { steps } = t;
  const idle = t.idle.bind(t);
  const w = new DataWarmUp(t.target, t.callbacks);
  w.afterFrame();
  mock.timers.tick(QUIET_MS);
  idle();
  idle();
  assert.deepEqual(steps, [], 'no payload yet');
  assert.equal(t.released, 1, 'the canvas given back meanwhile');
  ready = true;
  w.afterFrame();
  mock.timers.tick(QUIET_MS);
  idle();
  assert.deepEqual(steps, [0]);
  w.dispose();
  idle();
  w.afterFrame();
  mock.timers.tick(QUIET_MS);
  idle();
  assert.deepEqual(steps, [0], 'nothing after dispose');

  (globalThis as { __mpeNoWarmUp?: boolean }).__mpeNoWarmUp = true;
  const none = new Harness();
  new DataWarmUp(none.target, none.callbacks).afterFrame();
  mock.timers.tick(QUIET_MS);
  none.idle();
  assert.deepEqual(none.steps, [], 'no warm-up where the harness asked for none');
});

test('a frame that throws stops the warm-up and is not swallowed', () => {
  let calls = 0;
  const t = new Harness();
  const w = new DataWarmUp(
    {
      draw: () => {
        calls++;
        throw new Error('boom');
      },
      release: t.target.release,
    },
    t.callbacks,
  );
  w.afterFrame();
  mock.timers.tick(QUIET_MS);
  assert.throws(() => t.idle(), /boom/);
  w.afterFrame();
  mock.timers.tick(QUIET_MS);
  t.idle();
  assert.equal(calls, 1);
  assert.equal(w.remaining, 0);
  assert.equal(t.released, 1, 'the canvas given back');
});
