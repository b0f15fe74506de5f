import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STATE_SPEC,
  allocateTable,
  clampOffset,
  copyWire,
  decodeTable,
  decodeWindow,
  encodeTable,
  encodeWindow,
  TIME_CHUNK,
  windowBuffers,
  wireBytes,
  ARROW_SPEC,
  EVENT_SPEC,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  type WindowColumns,
} from '../../../src/protocol/wire';
import { isWebviewToHost } from '../../../src/protocol/webview';
import { embedWindow } from '../../../src/host/embedWindow';
import { windowOfEmbedded } from '../../../webview/embeddedWindow';

function sampleWindow(): WindowColumns {
  const states = allocateTable(STATE_SPEC, 3);
  states.start.set([0, 0.25, 1.5]);
  states.end.set([1, 0.5, 2]);
  states.row.set([0, 0, 7]);
  states.category.set([5, 6, 5]);
  states.depth.set([0, 1, 0]);
  states.flags.set([0, 2, 0]);
  const shadows = allocateTable(SHADOW_SPEC, 1);
  shadows.start[0] = 2;
  shadows.end[0] = 3;
  shadows.row[0] = 1;
  shadows.count[0] = 12345;
  shadows.weightStart[0] = 0;
  shadows.weightCount[0] = 2;
  const weights = allocateTable(SHADOW_WEIGHT_SPEC, 2);
  weights.category.set([5, 6]);
  weights.excl.set([0.75, 0.25]);
  weights.incl.set([0.8, 0.3]);
  weights.count.set([12000, 345]);
  const arrows = allocateTable(ARROW_SPEC, 1);
  arrows.start[0] = 0.1;
  arrows.end[0] = 0.2;
  arrows.fromRow[0] = 0;
  arrows.toRow[0] = 3;
  arrows.count[0] = 1;
  const events = allocateTable(EVENT_SPEC, 0);
  return {
    header: {
      baseTime: 1000.5,
      t0: 1000.5,
      t1: 1004.5,
      rowStart: 0,
      rowEnd: 64,
      mapIndex: 0,
      lowestDepth: 2,
      maxNesting: 1,
      truncated: false,
      nodesRead: 3,
      buildMs: 1,
    },
    states,
    shadows,
    shadowWeights: weights,
    arrows,
    events,
  };
}

test('a window survives encode → structured clone → decode unchanged', () => {
  const w = sampleWindow();
  const wire = encodeWindow(w);
  // structuredClone with a transfer list is what postMessage does to the buffers
  const received = structuredClone(wire, { transfer: windowBuffers(wire) });
  const back = decodeWindow(received);
  assert.deepEqual(back.header, w.header);
  assert.deepEqual([...back.states.start], [0, 0.25, 1.5]);
  assert.deepEqual([...back.states.row], [0, 0, 7]);
  assert.deepEqual([...back.states.depth], [0, 1, 0]);
  assert.deepEqual([...back.states.flags], [0, 2, 0]);
  assert.equal(back.shadows.count[0], 12345);
  assert.deepEqual([...back.shadowWeights.category], [5, 6]);
  assert.deepEqual([...back.shadowWeights.excl], [0.75, 0.25]);
  assert.equal(back.arrows.toRow[0], 3);
  assert.equal(back.events.time.length, 0);
  // the time bounds of each table's runs of TIME_CHUNK drawables come along (one run each here)
  assert.deepEqual([...back.chunks!.states.lo, ...back.chunks!.states.hi], [0, 2]);
  assert.deepEqual([...back.chunks!.arrows.lo, ...back.chunks!.arrows.hi], [Math.fround(0.1), Math.fround(0.2)]);
  assert.equal(back.chunks!.events.lo.length, 0);
  const chunkBytes = 2 * 4 + 2 * 4;
  assert.equal(wireBytes(received), 3 * (4 + 4 + 4 + 4 + 1 + 1) + (4 + 4 + 4 + 1 + 8 + 4 + 4) + 2 * (4 + 4 + 4 + 8) + (4 + 4 + 4 + 4 + 4 + 8 + 1) + chunkBytes);
});

test("a payload's chunk bounds: one pair per TIME_CHUNK drawables, an event's own time counted, checked on decode", () => {
  const w = sampleWindow();
  const n = 2 * TIME_CHUNK + 3;
  const events = allocateTable(EVENT_SPEC, n);
  for (let i = 0; i < n; i++) {
    events.start[i] = i;
    events.end[i] = i + 0.5;
    events.time[i] = i + 0.25;
  }
  events.time[TIME_CHUNK + 7] = 9999;
  events.end[2 * TIME_CHUNK + 1] = Number.NaN;
  const wire = encodeWindow({ ...w, events });
  const got = decodeWindow(wire).chunks!.events;
  assert.deepEqual([...got.lo], [0, TIME_CHUNK, -Infinity]);
  assert.deepEqual([...got.hi], [TIME_CHUNK - 1 + 0.5, 9999, Infinity]);
  const short = { ...wire.chunks!, events: { lo: new ArrayBuffer(8), hi: wire.chunks!.events.hi } };
  assert.throws(() => decodeWindow({ ...wire, chunks: short }), /chunks\.events\.lo: 8 bytes, expected 12/);
  const { chunks: _none, ...without } = wire;
  assert.equal(decodeWindow(without).chunks, undefined, 'a window without them (embedded in the page) decodes; the page computes them');
});

test('every column travels in its own exact-size buffer; views on bigger buffers are copied', () => {
  const big = new Float32Array(100);
  big.set([1, 2, 3], 10);
  const view = big.subarray(10, 13);
  const cols = {
    start: view,
    end: new Float32Array([4, 5, 6]),
    row: new Uint32Array(3),
    category: new Int32Array(3),
    depth: new Uint8Array(3),
    flags: new Uint8Array(3),
  };
  const wire = encodeTable(STATE_SPEC, cols);
  assert.equal(wire.count, 3);
  assert.equal(wire.buffers.start.byteLength, 12);
  assert.notEqual(wire.buffers.start, big.buffer);
  assert.equal(wire.buffers.end, cols.end.buffer, 'exact buffers are not copied');
  assert.deepEqual([...new Float32Array(wire.buffers.start)], [1, 2, 3]);
  const buffers = new Set(Object.values(wire.buffers));
  assert.equal(buffers.size, 6);
});

test('decode rejects buffers whose size does not match the count', () => {
  const wire = encodeTable(STATE_SPEC, allocateTable(STATE_SPEC, 2));
  assert.throws(() => decodeTable(STATE_SPEC, { ...wire, count: 3 }, 'states'), /states\.start: 8 bytes, expected 3 × 4/);
  const { start: _drop, ...rest } = wire.buffers;
  assert.throws(() => decodeTable(STATE_SPEC, { count: 2, buffers: rest as typeof wire.buffers }, 'states'), /missing buffer/);
  const w = encodeWindow(sampleWindow());
  const badWeights = encodeTable(SHADOW_WEIGHT_SPEC, allocateTable(SHADOW_WEIGHT_SPEC, 1));
  assert.throws(() => decodeWindow({ ...w, shadowWeights: badWeights }), /weights out of range/);
});

test('copyWire gives independent buffers (the host keeps its cached copy)', () => {
  const wire = encodeWindow(sampleWindow());
  const copy = copyWire(wire);
  structuredClone(copy, { transfer: windowBuffers(copy) });
  assert.equal(
    windowBuffers(copy).every((b) => b.byteLength === 0),
    true,
    'transferred copies are detached',
  );
  assert.equal(decodeWindow(wire).states.start[1], 0.25, 'the original is intact');
});

test('offsets keep float32 precision relative to the base at deep zoom', () => {
  const base = 123456.789;
  const t = base + 3.5e-9;
  const f = Math.fround(clampOffset(t, base, 1));
  assert.ok(Math.abs(base + f - t) < 1e-15 * 1e6, `error ${base + f - t}`);
  assert.equal(clampOffset(base - 100, base, 4), -4);
  assert.equal(clampOffset(base + 100, base, 4), 4);
});

test('messages from the webview are checked structurally', () => {
  assert.equal(isWebviewToHost({ kind: 'ready' }), true);
  const request = { t0: 0, t1: 1, rowStart: 0, rowEnd: 64, mapIndex: 0, pixelWidth: 800, visibleSpan: 0.25 };
  assert.equal(isWebviewToHost({ kind: 'requestWindow', channel: 'main', requestId: 1, generation: 1, request }), true);
  assert.equal(isWebviewToHost({ kind: 'requestWindow', channel: 'main', requestId: 1, generation: 1, request: { ...request, t1: Number.NaN } }), false);
  assert.equal(isWebviewToHost({ kind: 'requestWindow', channel: 'other', requestId: 1, generation: 1, request }), false);
  assert.equal(isWebviewToHost({ kind: 'requestWindow', channel: 'main', requestId: '1', generation: 1, request }), false);
  assert.equal(isWebviewToHost({ kind: 'openFile', path: '/etc/passwd' }), false);
  assert.equal(isWebviewToHost(undefined), false);
  assert.equal(isWebviewToHost({ kind: 'painted', generation: 1, drawables: 5, frameMs: 2 }), true);
  assert.equal(isWebviewToHost({ kind: 'painted', drawables: 5 }), false);
  assert.equal(isWebviewToHost({ kind: 'viewState', state: { t0: 0, t1: 1, mapIndex: 0, scrollRow: 0 }, moved: false, syncSeq: 0 }), true);
  assert.equal(isWebviewToHost({ kind: 'viewState', state: { t0: 0, t1: '1', mapIndex: 0, scrollRow: 0 }, moved: false, syncSeq: 0 }), false);
  // A comparison trusts `moved` and `syncSeq`: both must be there and well-formed.
  assert.equal(isWebviewToHost({ kind: 'viewState', state: { t0: 0, t1: 1, mapIndex: 0, scrollRow: 0 } }), false);
  assert.equal(isWebviewToHost({ kind: 'viewState', state: { t0: 0, t1: 1, mapIndex: 0, scrollRow: 0 }, moved: 1, syncSeq: 0 }), false);
  assert.equal(isWebviewToHost({ kind: 'viewState', state: { t0: 0, t1: 1, mapIndex: 0, scrollRow: 0 }, moved: true, syncSeq: -1 }), false);
});

test('a window embedded in the page (JSON, base64 buffers) decodes to the same columns; a damaged one is refused', () => {
  const w = sampleWindow();
  const text = JSON.stringify({ kind: 'embeddedWindow', generation: 4, pushedKey: 'k', final: true, payload: embedWindow(encodeWindow(w)) });
  const m = windowOfEmbedded(JSON.parse(text));
  assert.equal(m.kind, 'window');
  assert.equal(m.requestId, 0, 'a pushed window');
  assert.equal(m.pushedKey, 'k');
  assert.equal(m.final, true);
  assert.equal(windowOfEmbedded({ ...JSON.parse(text), final: false }).final, false, 'a coarse answer stays not final: the page asks for the full one');
  assert.equal(m.generation, 4);
  assert.deepEqual(decodeWindow(m.payload), w);
  const damaged = JSON.parse(text);
  damaged.payload.states.buffers.start = damaged.payload.states.buffers.start.slice(0, 8);
  assert.throws(() => decodeWindow(windowOfEmbedded(damaged).payload), /states\.start: \d+ bytes, expected 3 × 4/);
});
