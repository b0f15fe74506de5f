// The data layer's per-frame culling and lookups (timeChunks.ts, drawKeys.ts, rowLayout.ts
// visibleSlots, columnStrips.ts packCss): chunks never drop a drawable that overlaps the view,
// and the tables say what the per-drawable lookups said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK, adoptChunks, spansInRange, spansInRun, spansInView, timeChunks } from '../../../webview/timeline/timeChunks';
import {
  ARROW_SPEC,
  EVENT_SPEC,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  STATE_SPEC,
  allocateTable,
  decodeWindow,
  encodeWindow,
  type WindowColumns,
} from '../../../src/protocol/wire';

function emptyWindow(): WindowColumns {
  const header = { baseTime: 0, t0: 0, t1: 1, rowStart: 0, rowEnd: 1, mapIndex: 0, lowestDepth: 0, maxNesting: 0, truncated: false, nodesRead: 0, buildMs: 0 };
  return {
    header,
    states: allocateTable(STATE_SPEC, 0),
    shadows: allocateTable(SHADOW_SPEC, 0),
    shadowWeights: allocateTable(SHADOW_WEIGHT_SPEC, 0),
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  };
}
import { HIDDEN_KEY, drawKeys } from '../../../webview/timeline/drawKeys';
import { slotOfRow, visibleRows, visibleSlots } from '../../../webview/timeline/rowLayout';
import { packCss } from '../../../webview/timeline/colour';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Indices in the spans, in order. */
function covered(spans: readonly number[]): number[] {
  const out: number[] = [];
  for (let k = 0; k < spans.length; k += 2) for (let i = spans[k]!; i < spans[k + 1]!; i++) out.push(i);
  return out;
}

test('the chunk spans of a run (spansInRange) are the view spans cut to the run, merged, in order', () => {
  const rand = rng(11);
  const n = 10 * CHUNK + 17;
  const start = new Float32Array(n);
  const end = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    start[i] = i / n + (rand() - 0.5) * 0.05;
    end[i] = start[i]! + rand() * 0.002;
  }
  const chunks = timeChunks(start, end);
  const scratch: number[] = [];
  for (let q = 0; q < 200; q++) {
    const from = Math.floor(rand() * n);
    const to = Math.min(n, from + Math.floor(rand() * 3 * CHUNK));
    const a = rand() * 1.1 - 0.05;
    const b = a + rand() * 0.3;
    const got = spansInRange(chunks, from, to, a, b, scratch);
    assert.equal(got, scratch, 'written into the scratch');
    const want = covered(spansInView(chunks, a, b)).filter((i) => i >= from && i < to);
    assert.deepEqual(covered(got), want, `[${from}, ${to}) in view [${a}, ${b}]`);
    for (let k = 2; k < got.length; k += 2) assert.ok(got[k]! > got[k - 1]!, 'adjacent parts merged');
  }
  assert.deepEqual(spansInRange(chunks, 5, 5, 0, 1, scratch), [], 'an empty run');
});

test('the states of a run in time order over a time range (spansInRun) are exactly those overlapping it', () => {
  const rand = rng(12);
  const n = 3000;
  // one depth and row: states one after another, some touching, some of no length, float32 times
  const start = new Float32Array(n);
  const end = new Float32Array(n);
  let t = 0;
  for (let i = 0; i < n; i++) {
    t += rand() < 0.2 ? 0 : rand() * 0.001;
    start[i] = t;
    t += rand() < 0.1 ? 0 : rand() * 0.001;
    end[i] = t;
  }
  const scratch: number[] = [];
  for (let q = 0; q < 300; q++) {
    const from = Math.floor(rand() * n);
    const to = Math.min(n, from + Math.floor(rand() * 2000));
    // ranges of every size, their ends often exactly on a state's start or end
    const a = rand() < 0.3 ? start[Math.floor(rand() * n)]! : rand() * t * 1.1 - 0.05 * t;
    const b = rand() < 0.3 ? end[Math.floor(rand() * n)]! : a + rand() * (rand() < 0.5 ? 0.002 : 0.5);
    const got = spansInRun(start, end, from, to, a, b, scratch);
    assert.equal(got, scratch, 'written into the scratch');
    const want: number[] = [];
    for (let i = from; i < to; i++) if (end[i]! >= a && start[i]! <= b) want.push(i);
    assert.deepEqual(covered(got), want, `[${from}, ${to}) over [${a}, ${b}]`);
  }
  assert.deepEqual(spansInRun(start, end, 5, 5, 0, 1, scratch), [], 'an empty run');
  assert.deepEqual(spansInRun(start, end, 0, n, Number.NaN, 1, scratch), [], 'a NaN range');
});

test('chunks keep every drawable overlapping the view, in table order, and skip chunks wholly outside', () => {
  const rand = rng(7);
  for (const n of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 10 * CHUNK + 17]) {
    const start = new Float32Array(n);
    const end = new Float32Array(n);
    // mostly time-ordered (as payloads are), with long states, reversed spans and a NaN
    for (let i = 0; i < n; i++) {
      const t = i / Math.max(1, n) + (rand() - 0.5) * 0.05;
      start[i] = t;
      end[i] = t + (rand() < 0.0005 ? rand() : rand() * 0.002) * (rand() < 0.02 ? -1 : 1);
    }
    if (n > 5) start[5] = Number.NaN;
    if (n > 3 * CHUNK) end[2 * CHUNK + 9] = Number.NaN;
    const chunks = timeChunks(start, end);
    assert.equal(timeChunks(start, end), chunks, 'kept with the table');
    for (let q = 0; q < 40; q++) {
      const a = rand() * 1.2 - 0.1;
      const b = a + rand() * 0.3;
      const idx = covered(spansInView(chunks, a, b));
      assert.deepEqual(
        idx,
        [...idx].sort((x, y) => x - y),
        'table order',
      );
      const got = new Set(idx);
      for (let i = 0; i < n; i++) {
        const lo = Math.min(start[i]!, end[i]!);
        const hi = Math.max(start[i]!, end[i]!);
        if (Number.isNaN(start[i]!) || Number.isNaN(end[i]!) || (hi >= a && lo <= b))
          assert.ok(got.has(i), `drawable ${i} [${lo}, ${hi}] overlaps [${a}, ${b}]`);
      }
      if (n === 10 * CHUNK + 17 && b - a < 0.05) assert.ok(got.size < n / 2, `a narrow view skips chunks (${got.size} of ${n})`);
    }
  }
});

test("an event's own time counts besides its span", () => {
  const time = new Float32Array(CHUNK * 2).fill(0.5);
  const span = new Float32Array(CHUNK * 2).fill(0);
  time[CHUNK + 3] = 9;
  assert.deepEqual(spansInView(timeChunks(span, span, time), 8, 10), [CHUNK, 2 * CHUNK]);
  const odd = new Float32Array(CHUNK * 2).fill(0.5);
  odd[3] = Number.NaN;
  assert.deepEqual(spansInView(timeChunks(new Float32Array(CHUNK * 2), new Float32Array(CHUNK * 2), odd), 8, 10), [0, CHUNK], 'a NaN time: never skipped');
});

test("a payload's own chunk bounds are used as they came (no pass over its drawables)", () => {
  const start = new Float32Array(CHUNK + 1);
  const wire = encodeWindow({ ...emptyWindow(), states: { ...allocateTable(STATE_SPEC, CHUNK + 1), start } });
  const columns = decodeWindow(wire);
  adoptChunks(columns);
  assert.equal(timeChunks(columns.states.start, columns.states.end).lo, columns.chunks!.states.lo);
  assert.deepEqual(spansInView(timeChunks(columns.states.start, columns.states.end), 1, 2), [], 'all at 0: none in view');
});

test('draw keys fold the hidden categories and the site key into one number per drawable', () => {
  const category = new Int32Array([0, 1, 2, 1]);
  const flags = new Uint8Array([0, 4, 0, 0]);
  const p = { hidden: new Set([2]), siteKey: (cat: number, f: number) => (f !== 0 ? 1000 + cat : cat) };
  assert.deepEqual([...drawKeys(p, category, flags)], [0, 1001, HIDDEN_KEY, 1]);
  assert.equal(drawKeys(p, category, flags), drawKeys(p, category, flags), 'kept per palette and payload');
  const plain = { hidden: new Set<number>() };
  assert.deepEqual([...drawKeys(plain, category, flags)], [0, 1, 2, 1], 'a new palette has its own keys');
  assert.equal(drawKeys(plain, category, flags), category, 'nothing hidden, no site marks: the categories themselves, no pass');
});

test('the visible-slot table agrees with slotOfRow and visibleRows', () => {
  for (const rows of [
    { rowCount: 64, rowHeight: 20, scrollPx: 130, heightPx: 300 },
    { rowCount: 6, rowHeight: 30, scrollPx: 0, heightPx: 120, slotOf: [3, -1, 0, 2, 1, -1], order: [2, 4, 3, 0] },
  ]) {
    const { first, end } = visibleRows(rows);
    const t = visibleSlots(rows, 1, rows.rowCount);
    for (let r = 1; r < rows.rowCount; r++) {
      const s = slotOfRow(rows, r);
      assert.equal(t[r - 1], s >= first && s < end ? s : -1, `row ${r}`);
    }
  }
});

test('canvas-normalised colours pack as ImageData bytes', () => {
  const bytes = (v: number) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24];
  assert.deepEqual(bytes(packCss('#ff8000')), [255, 128, 0, 255]);
  assert.deepEqual(bytes(packCss('rgba(10, 20, 30, 0.5)')), [10, 20, 30, 128]);
  assert.deepEqual(bytes(packCss('rgb(1, 2, 3)')), [1, 2, 3, 255]);
});
