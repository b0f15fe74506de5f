import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WindowLoader } from '../../../webview/timeline/windowLoader';
import type { CancelWindowMessage, InitMessage, RequestWindowMessage } from '../../../src/protocol/webview';
import { keyId, predictFirstWindow, requestOf, windowKeyFor } from '../../../src/core/query/windowKey';
import { TimelineView } from '../../../webview/timeline/viewState';
import { DEFAULT_ROW_PX, MIN_AUTO_FIT_PX } from '../../../webview/timeline/rowLayout';
import { STATE_SPEC, SHADOW_SPEC, SHADOW_WEIGHT_SPEC, ARROW_SPEC, EVENT_SPEC, allocateTable, encodeWindow } from '../../../src/protocol/wire';

function payloadFor(r: RequestWindowMessage['request'], states: number, lowestDepth = 0, truncated = false) {
  return encodeWindow({
    header: {
      baseTime: r.t0,
      t0: r.t0,
      t1: r.t1,
      rowStart: r.rowStart,
      rowEnd: r.rowEnd,
      mapIndex: r.mapIndex,
      lowestDepth,
      maxNesting: 0,
      truncated,
      nodesRead: 1,
      buildMs: 0,
    },
    states: allocateTable(STATE_SPEC, states),
    shadows: allocateTable(SHADOW_SPEC, 0),
    shadowWeights: allocateTable(SHADOW_WEIGHT_SPEC, 0),
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  });
}

const view = (t0: number, t1: number, mapIndex = 0) => ({ t0, t1, rowStart: 0, rowEnd: 10, rowCount: 100, mapIndex, pixelWidth: 1000 });

test('small pans need no request; a new key cancels the one in flight; stale answers are dropped', () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('main', (m) => sent.push(m));
  assert.equal(l.update(view(10, 11)), false, 'nothing before init');
  l.reset(1);
  assert.equal(l.update(view(10, 11)), true);
  const first = sent[0] as RequestWindowMessage;
  assert.equal(first.kind, 'requestWindow');
  assert.equal(first.channel, 'main');
  assert.deepEqual([first.request.t0, first.request.t1], [9, 13]);
  assert.equal(l.update(view(10.2, 11.2)), false, 'same key while loading');
  assert.equal(l.update(view(12, 13)), true, 'left the span: new request');
  assert.deepEqual(sent[1], { kind: 'cancelWindow', requestId: first.requestId });
  const second = sent[2] as RequestWindowMessage;
  // the answer to the cancelled first request arrives late: dropped
  assert.equal(l.receive({ kind: 'window', final: true, requestId: first.requestId, generation: 1, payload: payloadFor(first.request, 5) }), false);
  assert.equal(l.loaded?.requestId, undefined);
  assert.equal(l.receive({ kind: 'window', final: true, requestId: second.requestId, generation: 1, payload: payloadFor(second.request, 7) }), true);
  assert.equal(l.loaded?.drawables, 7);
  assert.equal(l.loading, false);
  assert.equal(l.update(view(12.3, 13.3)), false, 'cache hit: the loaded payload covers the pan');
  assert.equal(l.complete(view(12.3, 13.3)), true);
  assert.equal(l.complete(view(12.3, 13.3, 1)), false, 'another Y map is not covered');
});

test('an exact payload serves zooming in on it: no request, and the one in flight for a view left is cancelled', () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('main', (m) => sent.push(m));
  const load = (v: ReturnType<typeof view>, lowestDepth = 0, truncated = false, final = true): RequestWindowMessage => {
    assert.equal(l.update(v), true, `a request for [${v.t0}, ${v.t1}]`);
    const r = sent.at(-1) as RequestWindowMessage;
    l.receive({ kind: 'window', final, requestId: r.requestId, generation: 1, payload: payloadFor(r.request, 3, lowestDepth, truncated) });
    return r;
  };
  l.reset(1);
  const r = load(view(0, 64));
  assert.deepEqual([r.request.t0, r.request.t1], [-64, 192]);
  // zoomed in, down to 2^-6 of the payload's key span, anywhere inside it: the payload has every drawable
  for (const [a, b] of [
    [10, 20],
    [100, 101],
    [-60, -59],
  ] as const)
    assert.equal(l.update(view(a, b)), false, `[${a}, ${b}] served by the exact payload`);
  assert.equal(sent.length, 1);
  assert.equal(l.complete(view(100, 101)), true);
  // finer than that (float32 offsets): asked for
  assert.equal(l.update(view(100, 100.5)), true, 'too fine for the payload');
  const finer = sent.at(-1) as RequestWindowMessage;
  // back inside: the request for the view left is withdrawn, the exact payload stays
  assert.equal(l.update(view(10, 20)), false);
  assert.deepEqual(sent.at(-1), { kind: 'cancelWindow', requestId: finer.requestId });
  assert.equal(l.loading, false);
  assert.equal(l.loaded?.requestId, r.requestId);
  // outside its span or rows: asked for
  assert.equal(l.update(view(150, 250)), true, 'beyond the payload');
  assert.equal(l.update({ ...view(10, 20), rowStart: 900, rowEnd: 910, rowCount: 1000 }), true, 'rows beyond the payload');
  // not exact (shadows, cut short, coarse) or marked stale: asked for
  for (const [lowestDepth, truncated, final] of [
    [1, false, true],
    [0, true, true],
    [0, false, false],
  ] as const) {
    l.reset(1);
    load(view(0, 64), lowestDepth, truncated, final);
    assert.equal(l.update(view(10, 20)), true, `depth ${lowestDepth}, truncated ${truncated}, final ${final}: zooming in asks`);
  }
  l.reset(1);
  load(view(0, 64));
  l.invalidate();
  assert.equal(l.update(view(10, 20)), true, 'an invalidated payload is fetched again');
});

test('a coarse first answer is drawn while the request stays pending for the final one', () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('main', (m) => sent.push(m));
  l.reset(1);
  l.update(view(0, 1));
  const r = sent[0] as RequestWindowMessage;
  assert.equal(l.receive({ kind: 'window', final: false, requestId: r.requestId, generation: 1, payload: payloadFor(r.request, 2) }), true);
  assert.equal(l.loaded?.final, false);
  assert.equal(l.loading, true);
  assert.equal(l.update(view(0.1, 1.1)), false, 'no second request for the same key');
  assert.equal(l.receive({ kind: 'window', final: true, requestId: r.requestId, generation: 1, payload: payloadFor(r.request, 9) }), true);
  assert.equal(l.loaded?.drawables, 9);
  assert.equal(l.loading, false);
});

test('a new generation (file changed on disk) drops everything, old answers included', () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('overview', (m) => sent.push(m));
  l.reset(1);
  l.update(view(0, 1));
  const r = sent[0] as RequestWindowMessage;
  l.receive({ kind: 'window', final: true, requestId: r.requestId, generation: 1, payload: payloadFor(r.request, 3) });
  l.reset(2);
  assert.equal(l.loaded, undefined);
  assert.equal(l.update(view(0, 1)), true);
  const r2 = sent[sent.length - 1] as RequestWindowMessage;
  assert.equal(r2.generation, 2);
  assert.equal(l.receive({ kind: 'window', final: true, requestId: r2.requestId, generation: 1, payload: payloadFor(r2.request, 3) }), false);
});

test('a failed window is not re-requested in a loop; a cancelled one is', () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('main', (m) => sent.push(m));
  l.reset(1);
  l.update(view(0, 1));
  const r = sent[0] as RequestWindowMessage;
  l.failed({ kind: 'windowFailed', requestId: r.requestId, generation: 1, cancelled: false, message: 'boom' });
  assert.equal(l.lastError, 'boom');
  assert.equal(l.update(view(0, 1)), false);
  l.update(view(5, 6));
  const r2 = sent[sent.length - 1] as RequestWindowMessage;
  l.failed({ kind: 'windowFailed', requestId: r2.requestId, generation: 1, cancelled: true, message: 'superseded' });
  assert.equal(l.update(view(5, 6)), true);
});

test('a pushed window answers the request in flight for its key (which is withdrawn); another key is ignored', () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('main', (m) => sent.push(m));
  l.reset(1);
  l.update(view(0, 1));
  const r = sent[0] as RequestWindowMessage;
  const key = keyId(windowKeyFor(view(0, 1)));
  assert.equal(l.receive({ kind: 'window', final: false, requestId: 0, generation: 1, payload: payloadFor(r.request, 2), pushedKey: 'other' }), false);
  assert.equal(
    l.receive({ kind: 'window', final: true, requestId: 0, generation: 2, payload: payloadFor(r.request, 2), pushedKey: key }),
    false,
    'stale generation',
  );
  assert.equal(l.receive({ kind: 'window', final: false, requestId: 0, generation: 1, payload: payloadFor(r.request, 2), pushedKey: key }), true);
  assert.equal(l.loaded?.final, false);
  assert.equal(l.loading, true);
  assert.equal(l.receive({ kind: 'window', final: true, requestId: 0, generation: 1, payload: payloadFor(r.request, 6), pushedKey: key }), true);
  assert.equal(l.loaded?.drawables, 6);
  assert.equal(l.loading, false);
  assert.deepEqual(sent[1], { kind: 'cancelWindow', requestId: r.requestId }, 'the request is withdrawn');
  assert.equal(
    l.receive({ kind: 'window', final: true, requestId: r.requestId, generation: 1, payload: payloadFor(r.request, 6) }),
    false,
    "the host's own answer is dropped",
  );
});

test('a pushed window that comes before the view asks is used when the view asks for its key', () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('main', (m) => sent.push(m));
  l.reset(1);
  const { request } = requestOf(view(0, 1));
  l.receive({ kind: 'window', final: true, requestId: 0, generation: 1, payload: payloadFor(request, 4), pushedKey: keyId(windowKeyFor(view(0, 1))) });
  assert.equal(l.update(view(0, 1)), false, 'no request: the pushed window is the answer');
  assert.equal(l.loaded?.drawables, 4);
  assert.equal(sent.length, 0);
});

test("the host's prediction of a fresh view's first window is the webview's own first request (auto row sizing, whole range)", () => {
  for (const [rows, width, height] of [
    [4, 748, 462],
    [64, 1200, 800],
    [33, 900, 462],
    [34, 900, 462],
    [4096, 748, 462],
    [16384, 1513, 1021],
  ] as const) {
    const t: [number, number] = [0.008194, 0.010959961537165873];
    const v = new TimelineView({ changed: () => undefined, syncScroll: () => undefined }, undefined);
    v.width = width;
    v.height = height;
    const init = {
      kind: 'init',
      generation: 1,
      fileName: 'x.slog2',
      timeRange: t,
      categories: [],
      yMaps: [{ title: 'Process View', columns: ['rank'], rows: Array.from({ length: rows }, (_, i) => `${i}`) }],
      defaultMap: 0,
      treeDepth: 4,
      warnings: [],
    } as unknown as InitMessage;
    v.setInit(init);
    const own = requestOf(v.visible());
    const hint = { pixelWidth: width, heightPx: height, minFitRowPx: MIN_AUTO_FIT_PX, rowPx: DEFAULT_ROW_PX };
    const predicted = requestOf(predictFirstWindow(hint, t, rows, 0));
    assert.equal(keyId(predicted.key), keyId(own.key), `${rows} rows in ${width}×${height}`);
    assert.deepEqual(
      [predicted.request.t0, predicted.request.t1, predicted.request.rowStart, predicted.request.rowEnd],
      [own.request.t0, own.request.t1, own.request.rowStart, own.request.rowEnd],
    );
  }
});

test("a preview's successor keeps the last picture drawable until its own first answer (no blank frame)", () => {
  const sent: (RequestWindowMessage | CancelWindowMessage)[] = [];
  const l = new WindowLoader('main', (m) => sent.push(m));
  l.reset(1);
  l.update(view(0, 1));
  const r = sent[0] as RequestWindowMessage;
  l.receive({ kind: 'window', final: true, requestId: r.requestId, generation: 1, payload: payloadFor(r.request, 3) });
  l.reset(2, true);
  assert.equal(l.drawableFor(view(0, 1))?.drawables, 3, 'the old picture is still drawn');
  assert.equal(l.update(view(0, 1)), true, 'but fetched again for the new generation');
  const r2 = sent[sent.length - 1] as RequestWindowMessage;
  assert.equal(r2.generation, 2);
  assert.equal(
    l.receive({ kind: 'window', final: true, requestId: r.requestId, generation: 1, payload: payloadFor(r.request, 4) }),
    false,
    'old answers stay dropped',
  );
  assert.equal(l.receive({ kind: 'window', final: true, requestId: r2.requestId, generation: 2, payload: payloadFor(r2.request, 8) }), true);
  assert.equal(l.drawableFor(view(0, 1))?.drawables, 8);
});
