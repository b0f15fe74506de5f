// The statistics strip: per column, the share of the shown rows in their innermost state, preview
// boxes by their exclusive shares, hidden categories left out, categories ordered by total share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activityOf } from '../../../webview/timeline/activity';
import {
  ARROW_SPEC,
  EVENT_SPEC,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  SITE_COLOUR_SHIFT,
  STATE_SPEC,
  allocateTable,
  type WindowColumns,
} from '../../../src/protocol/wire';
import { codeColourKey, UNCOLOURED_KEY } from '../../../webview/timeline/codeColour';
import { spansInView, timeChunks } from '../../../webview/timeline/timeChunks';

function columns(lowestDepth = 0): WindowColumns {
  // row 0: Phase(1) [0,10] ⊃ Barrier(3) [5,10]; row 1: Phase(1) [0,5]; row 2: a preview box [0,10] 75 % cat 5, 25 % cat 6
  const states = allocateTable(STATE_SPEC, 3);
  states.start.set([0, 0, 5]);
  states.end.set([10, 5, 10]);
  states.row.set([0, 1, 0]);
  states.category.set([1, 1, 3]);
  states.depth.set([0, 0, 1]);
  const shadows = allocateTable(SHADOW_SPEC, 1);
  shadows.end[0] = 10;
  shadows.row[0] = 2;
  shadows.weightCount[0] = 2;
  const w = allocateTable(SHADOW_WEIGHT_SPEC, 2);
  w.category.set([5, 6]);
  w.excl.set([0.6, 0.2]);
  return {
    header: { baseTime: 0, t0: 0, t1: 10, rowStart: 0, rowEnd: 3, mapIndex: 0, lowestDepth, maxNesting: 1, truncated: false, nodesRead: 0, buildMs: 0 },
    states,
    shadows,
    shadowWeights: w,
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  };
}

const at = (a: ReturnType<typeof activityOf>, col: number, cat: number): number => {
  const k = a.categories.indexOf(cat);
  return k < 0 ? 0 : a.share[col * a.categories.length + k]!;
};

test('innermost state per row, preview boxes by their exclusive shares, as fractions of the rows', () => {
  const a = activityOf({ columns: columns(), map: { shift: 0, k: 10 }, width: 100, slotOf: (r) => r, slots: 3, hidden: new Set() });
  assert.equal(a.cols, 100);
  assert.equal(a.source, 'exact');
  // left half: rows 0 and 1 in Phase, row 2 the preview (3/4 cat 5, 1/4 cat 6)
  assert.ok(Math.abs(at(a, 20, 1) - 2 / 3) < 1e-6);
  assert.ok(Math.abs(at(a, 20, 5) - 0.75 / 3) < 1e-6);
  assert.ok(Math.abs(at(a, 20, 6) - 0.25 / 3) < 1e-6);
  // right half: row 0 in Barrier (innermost), row 1 idle
  assert.ok(Math.abs(at(a, 80, 3) - 1 / 3) < 1e-6);
  assert.equal(at(a, 80, 1), 0);
  // largest total share first
  assert.equal(a.categories[0], 1);
  assert.equal(columns(2).header.lowestDepth, 2);
  assert.equal(activityOf({ columns: columns(2), map: { shift: 0, k: 10 }, width: 100, slotOf: (r) => r, slots: 3, hidden: new Set() }).source, 'preview');
});

test('hidden categories and rows not counted are left out; the grid stays bounded', () => {
  const a = activityOf({ columns: columns(), map: { shift: 0, k: 10 }, width: 100, slotOf: (r) => (r === 0 ? 0 : -1), slots: 1, hidden: new Set([3]) });
  assert.ok(Math.abs(at(a, 80, 1) - 1) < 1e-6, 'row 0 shows Phase where the hidden Barrier was');
  assert.equal(a.categories.includes(5), false);
  const wide = activityOf({ columns: columns(), map: { shift: 0, k: 200 }, width: 2000, slotOf: (r) => r, slots: 100_000, hidden: new Set() });
  assert.ok(wide.cols * wide.rows <= 4 << 20);
});

test('code colours: states count under their colouring key, uncoloured ones and preview boxes under one grey key', () => {
  // state 2 (row 0's Barrier) carries colouring 1 in its flags; Phase states none
  const c = columns();
  c.states.flags[2] = 1 << SITE_COLOUR_SHIFT;
  const a = activityOf({
    columns: c,
    map: { shift: 0, k: 10 },
    width: 100,
    slotOf: (r) => r,
    slots: 3,
    hidden: new Set(),
    keyOf: (i) => codeColourKey(c.states.flags[i]!, 1),
    previewKey: UNCOLOURED_KEY,
  });
  const coloured = codeColourKey(1 << SITE_COLOUR_SHIFT, 1);
  assert.notEqual(coloured, UNCOLOURED_KEY);
  assert.deepEqual([...a.categories].sort(), [coloured, UNCOLOURED_KEY].sort());
  // left half: all three rows uncoloured (two Phase, one preview box); right half: row 0 coloured, row 2 preview
  assert.ok(Math.abs(at(a, 20, UNCOLOURED_KEY) - 1) < 1e-6);
  assert.ok(Math.abs(at(a, 80, coloured) - 1 / 3) < 1e-6);
  assert.ok(Math.abs(at(a, 80, UNCOLOURED_KEY) - 1 / 3) < 1e-6);
  // a colouring index beyond those known is uncoloured
  assert.equal(codeColourKey(2 << SITE_COLOUR_SHIFT, 1), UNCOLOURED_KEY);
});

for (const order of ['time', 'rows'] as const)
  test(`a payload wider than the view, states in ${order} order: the same strip as visiting every state in table order`, () => {
    // 6 000 (row by row: 24 000) states over 40 rows, a time span 5× the view's, nested and overlapping, some hidden,
    // rows 7 and 8 not counted, and preview boxes: the strip equals a plain walk over every state.
    // In time order the chunks in view are one span; row by row (each row's in time order, as the
    // builder orders a depth's), a span a row.
    let seed = 11;
    const rnd = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const base = columns();
    // row by row, rows of more states than a chunk (256), so that some chunks miss the view
    const n = order === 'rows' ? 24_000 : 6000;
    const made: [number, number, number, number][] = [];
    for (let i = 0; i < n; i++) {
      const t = (i / n) * 500 + rnd() * 3; // table order roughly by time, as payloads are: chunks cull
      made.push([t, t + (rnd() < 0.1 ? rnd() * 80 : rnd() * 2), Math.floor(rnd() * 40), 1 + Math.floor(rnd() * 6)]);
    }
    if (order === 'rows') made.sort((p, q) => p[2] - q[2] || p[0] - q[0]);
    const states = allocateTable(STATE_SPEC, n);
    made.forEach(([t0, t1, r, cat], i) => {
      states.start[i] = t0;
      states.end[i] = t1;
      states.row[i] = r;
      states.category[i] = cat;
    });
    const c: WindowColumns = { ...base, states, header: { ...base.header, rowEnd: 40 } };
    const map = { shift: -1000.25, k: 10.3 };
    const width = 1000;
    const spans = spansInView(timeChunks(states.start, states.end), (-1 - map.shift) / map.k, (width + 1 - map.shift) / map.k);
    if (order === 'rows') assert.ok(spans.length / 2 > 10, `${spans.length / 2} spans`);
    const slotOf = (r: number): number => (r === 7 || r === 8 ? -1 : r < 7 ? r : r - 2);
    const hidden = new Set([4]);
    const a = activityOf({ columns: c, map, width, slotOf, slots: 38, hidden });
    // the oracle: every state, in table order, through the same mapping
    const cols = width;
    const owner = new Int32Array(38 * cols);
    const mark = (slot: number, x0: number, x1: number, v: number): void => {
      if (slot < 0 || slot >= 38) return;
      const c0 = Math.max(0, Math.floor(x0));
      owner.fill(v, slot * cols + c0, slot * cols + Math.min(cols, Math.max(c0 + 1, Math.ceil(x1))));
    };
    for (let i = 0; i < n; i++) {
      const x0 = map.shift + states.start[i]! * map.k;
      const x1 = map.shift + states.end[i]! * map.k;
      if (x1 < 0 || x0 > width || hidden.has(states.category[i]!)) continue;
      mark(slotOf(states.row[i]!), x0, x1, states.category[i]! + (1 << 20));
    }
    for (let i = 0; i < c.shadows.start.length; i++) {
      const x0 = map.shift + c.shadows.start[i]! * map.k;
      const x1 = map.shift + c.shadows.end[i]! * map.k;
      if (!(x1 < 0 || x0 > width)) mark(slotOf(c.shadows.row[i]!), x0, x1, -(i + 1));
    }
    const expected = new Map<number, Float64Array>();
    for (let s = 0; s < 38; s++)
      for (let col = 0; col < cols; col++) {
        const o = owner[s * cols + col]!;
        if (o <= 0) continue;
        const cat = o - (1 << 20);
        if (!expected.has(cat)) expected.set(cat, new Float64Array(cols));
        expected.get(cat)![col]! += 1;
      }
    assert.ok(a.categories.length >= 5, 'the view shows most categories');
    assert.equal(a.categories.includes(4), false);
    let compared = 0;
    for (const [cat, counts] of expected)
      for (let col = 0; col < cols; col++) {
        assert.equal(at(a, col, cat), Math.fround(counts[col]! / 38), `category ${cat}, column ${col}`);
        compared++;
      }
    assert.ok(compared > 4000);
  });
