// The time axis of a preview that knows when its run ends: it opens on what it has drawn, zooms
// out to the whole run (the rest hatched by the data layer), and gives way to the whole trace —
// seen whole when the preview was seen whole, else the view is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InitMessage } from '../../../src/protocol/webview';
import { TimelineView } from '../../../webview/timeline/viewState';

function initOf(generation: number, timeRange: [number, number], preview?: InitMessage['preview']): InitMessage {
  return {
    kind: 'init',
    generation,
    fileName: '/w/run.clog2',
    timeRange,
    categories: [],
    yMaps: [{ title: 'Process View', columns: ['rank'], rows: ['0', '1', '2', '3'] }],
    defaultMap: 0,
    treeDepth: 4,
    warnings: [],
    ...(preview ? { preview } : {}),
  } as unknown as InitMessage;
}

function view(): TimelineView {
  const v = new TimelineView({ changed: () => undefined, syncScroll: () => undefined }, undefined);
  v.width = 1000;
  v.height = 400;
  return v;
}

const preview = { shownBytes: 4 << 20, totalBytes: 3 << 30, progress: 0, runEnd: 73 };

test('a preview opens on its drawables; the whole run is the full range; the whole trace then shows whole', () => {
  const v = view();
  v.setInit(initOf(1, [0, 0.1], preview));
  assert.deepEqual(v.window, { t0: 0, t1: 0.1 });
  assert.deepEqual(v.fullRange(), { t0: 0, t1: 73 });
  assert.deepEqual(v.dataRange(), { t0: 0, t1: 0.1 });
  v.showAll();
  assert.deepEqual(v.window, { t0: 0, t1: 73 });
  // The finished trace: the preview was seen whole, so is the trace.
  v.setInit(initOf(2, [0, 72.9]));
  assert.deepEqual(v.window, { t0: 0, t1: 72.9 });
  assert.deepEqual(v.fullRange(), { t0: 0, t1: 72.9 });
});

test('a view zoomed into the preview is kept when the whole trace comes', () => {
  const v = view();
  v.setInit(initOf(1, [0, 0.1], preview));
  v.setWindow({ t0: 0.02, t1: 0.04 });
  v.setInit(initOf(2, [0, 72.9]));
  assert.deepEqual(v.window, { t0: 0.02, t1: 0.04 });
});

test('without a run end (or one before the last drawable) the full range is the drawables', () => {
  for (const p of [
    { ...preview, runEnd: undefined },
    { ...preview, runEnd: 0.05 },
  ]) {
    const v = view();
    v.setInit(initOf(1, [0, 0.1], p));
    assert.deepEqual(v.fullRange(), { t0: 0, t1: 0.1 });
    assert.deepEqual(v.window, { t0: 0, t1: 0.1 });
  }
});

test('the rest fills in: a snapshot seen whole gives way to the next seen whole; a zoomed view and the whole run are kept', () => {
  const v = view();
  v.setInit(initOf(1, [0, 0.1], preview));
  // Seen whole: the next snapshot shows all it has drawn, then the next, then the whole trace.
  v.setInit(initOf(2, [0, 20], { ...preview, shownBytes: 900 << 20 }));
  assert.deepEqual(v.window, { t0: 0, t1: 20 });
  assert.deepEqual(v.fullRange(), { t0: 0, t1: 73 });
  v.setInit(initOf(3, [0, 41], { ...preview, shownBytes: 1800 << 20 }));
  assert.deepEqual(v.window, { t0: 0, t1: 41 });
  v.setInit(initOf(4, [0, 72.9]));
  assert.deepEqual(v.window, { t0: 0, t1: 72.9 });

  // Zoomed into a snapshot: kept through the next ones.
  const z = view();
  z.setInit(initOf(1, [0, 0.1], preview));
  z.setWindow({ t0: 0.02, t1: 0.04 });
  z.setInit(initOf(2, [0, 20], { ...preview, shownBytes: 900 << 20 }));
  assert.deepEqual(z.window, { t0: 0.02, t1: 0.04 });

  // The whole run (Home) stays the whole run while it fills in.
  const h = view();
  h.setInit(initOf(1, [0, 0.1], preview));
  h.showAll();
  h.setInit(initOf(2, [0, 20], { ...preview, shownBytes: 900 << 20 }));
  assert.deepEqual(h.window, { t0: 0, t1: 73 });
});
