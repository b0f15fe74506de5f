import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Slog2File, chooseLowestDepth } from '../../../src/core/formats/slog2';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipToMemory } from '../../../src/io/gzip';
import { buildWindow } from '../../../src/core/query/buildWindow';
import { rowLayoutOf, defaultMapIndex } from '../../../src/core/query/rows';
import { nodeBudget } from '../../../src/core/query/lod';
import { FLAG_SHADOW, decodeWindow, encodeWindow } from '../../../src/protocol/wire';
import { fixture } from '../../helpers/paths';

interface Facts {
  slog2: { drawables: { states: number; arrows: number; events: number }; time_range: [number, number] };
}
const facts = (name: string): Facts => JSON.parse(fs.readFileSync(fixture(`${name}.facts.json`), 'utf8').replace(/\bNaN\b/g, 'null')) as Facts;

async function openFixture(name: string): Promise<Slog2File> {
  const path = fixture(name);
  if (name.endsWith('.gz')) {
    const gz = await FileSource.open(path);
    try {
      return await Slog2File.open(await gunzipToMemory(gz, 64 << 20));
    } finally {
      await gz.close();
    }
  }
  return Slog2File.open(await FileSource.open(path));
}

function fullSpec(file: Slog2File, lowestDepth: number) {
  const mapIndex = defaultMapIndex(file.lineIDMaps);
  const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
  const [t0, t1] = file.timeRange;
  return { t0, t1, rowStart: 0, rowEnd: layout.labels.length, mapIndex, lowestDepth, rowOfLine: layout.rowOfLine };
}

test('user_states_4 at full detail: every state/event once, nesting Phase > Solve > Kernel', async () => {
  const file = await openFixture('user_states_4.slog2');
  try {
    const w = await buildWindow(file, fullSpec(file, 0));
    const f = facts('user_states_4').slog2.drawables;
    assert.equal(w.states.start.length, f.states);
    assert.equal(w.events.time.length, f.events);
    assert.equal(w.arrows.start.length, f.arrows);
    assert.equal(w.shadows.start.length, 0, 'no shadows at depth 0');
    const byName = new Map([...file.categories.values()].map((c) => [c.name, c.index]));
    const depthsOf = (name: string) => new Set([...w.states.category].flatMap((c, i) => (c === byName.get(name) ? [w.states.depth[i]!] : [])));
    assert.deepEqual(depthsOf('Phase'), new Set([0]));
    assert.deepEqual(depthsOf('Solve'), new Set([1]));
    assert.deepEqual(depthsOf('Kernel'), new Set([2]));
    assert.equal(w.header.maxNesting >= 2, true);
    for (let i = 1; i < w.states.depth.length; i++) assert.ok(w.states.depth[i - 1]! <= w.states.depth[i]!, 'outermost states come first');
    // offsets are relative to the window start and end ≥ start for states
    for (let i = 0; i < w.states.start.length; i++) assert.ok(w.states.start[i]! >= -1e-6 && w.states.end[i]! >= w.states.start[i]!);
    assert.equal(w.header.baseTime, file.timeRange[0]);
  } finally {
    await file.close();
  }
});

test('bigrun_medium_4: shadows summarise exactly the drawables not loaded at each depth', async () => {
  const file = await openFixture('bigrun_medium_4.slog2.gz');
  try {
    const f = facts('bigrun_medium_4').slog2.drawables;
    for (let depth = 0; depth <= file.maxDepth; depth++) {
      const w = await buildWindow(file, fullSpec(file, depth));
      const shadowStates = [...w.shadows.count].reduce((a, b) => a + b, 0);
      assert.equal(w.states.start.length + shadowStates, f.states, `states at depth ${depth}`);
      let arrows = 0;
      for (let i = 0; i < w.arrows.count.length; i++) arrows += w.arrows.count[i]!;
      assert.equal(arrows, f.arrows, `arrows at depth ${depth}`);
      if (depth > 0) assert.ok(w.shadows.start.length > 0, `shadows at depth ${depth}`);
      if (depth === file.maxDepth) assert.ok(w.states.start.length < f.states / 10, 'upper levels hold few real drawables');
      // weights sorted largest exclusion ratio first
      for (let i = 0; i < w.shadows.start.length; i++) {
        const s = w.shadows.weightStart[i]!;
        for (let j = s + 1; j < s + w.shadows.weightCount[i]!; j++) assert.ok(w.shadowWeights.excl[j - 1]! >= w.shadowWeights.excl[j]!);
      }
      assert.ok([...w.arrows.flags].every((fl, i) => (fl & FLAG_SHADOW) === 0 || w.arrows.category[i] === -2));
    }
  } finally {
    await file.close();
  }
});

test('level of detail: a whole-trace view on 1200 px reads few nodes and ships a small payload', async () => {
  const file = await openFixture('bigrun_medium_4.slog2.gz');
  try {
    const [t0, t1] = file.timeRange;
    const budget = nodeBudget(1200, t1 - t0, t1 - t0);
    const depth = chooseLowestDepth(file, t0, t1, budget);
    assert.ok(depth > 0, 'the whole trace is not read at leaf level');
    const w = await buildWindow(file, fullSpec(file, depth));
    assert.ok(w.header.nodesRead <= 2 * budget, `read ${w.header.nodesRead} nodes`);
    const bytes = encodeWindow(w);
    const size = Object.values(bytes.states.buffers).reduce((n, b) => n + b.byteLength, 0);
    assert.ok(size < 200_000, `states payload ${size} bytes`);
    // zoomed in to 1/1000 of the trace the same budget reaches the leaves
    const mid = (t0 + t1) / 2;
    const span = (t1 - t0) / 1000;
    assert.equal(chooseLowestDepth(file, mid, mid + 3 * span, nodeBudget(1200, span, 3 * span)), 0);
    const zoomed = await buildWindow(file, { ...fullSpec(file, 0), t0: mid, t1: mid + 3 * span });
    assert.equal(zoomed.shadows.start.length, 0);
    assert.ok(zoomed.states.start.length > 0);
    // everything inside the window overlaps it
    const back = decodeWindow(encodeWindow(zoomed));
    for (let i = 0; i < back.states.start.length; i++) assert.ok(back.states.end[i]! >= 0 && back.states.start[i]! <= 3 * span * 1.000001);
    // the states of a depth and row, read from many nodes, go out one after another in time (a
    // frame finds those of a time range by binary search): at leaf level and with shadows
    for (const window of [w, zoomed, await buildWindow(file, fullSpec(file, 0))]) {
      const runs = decodeWindow(encodeWindow(window)).chunks!.stateRuns!;
      assert.ok(window.header.nodesRead > 1 && runs.count > 1, `${window.header.nodesRead} nodes, ${runs.count} runs`);
      assert.equal(runs.timeOrdered, true, `runs in time order (${window.header.nodesRead} nodes read)`);
    }
  } finally {
    await file.close();
  }
});

test('rows outside the requested range are left out; a cancelled query throws', async () => {
  const file = await openFixture('bigrun_medium_4.slog2.gz');
  try {
    const spec = { ...fullSpec(file, 0), rowStart: 1, rowEnd: 2 };
    const w = await buildWindow(file, spec);
    assert.ok(w.states.row.every((r) => r === 1));
    assert.ok(w.states.start.length > 1000);
    // arrows touching or crossing row 1 are kept (their line passes through the visible rows)
    for (let i = 0; i < w.arrows.fromRow.length; i++)
      assert.ok(Math.min(w.arrows.fromRow[i]!, w.arrows.toRow[i]!) <= 1 && Math.max(w.arrows.fromRow[i]!, w.arrows.toRow[i]!) >= 1);
    const ac = new AbortController();
    ac.abort(new Error('superseded'));
    await assert.rejects(buildWindow(file, fullSpec(file, 0), ac.signal), /superseded/);
  } finally {
    await file.close();
  }
});

test('ring_p2p_4: the reference sample drawables land on their rows at their times (f32 offsets + f64 base)', async () => {
  interface Sample {
    category_index: number;
    first: { start: number; end: number; vertices: [number, number][] }[];
  }
  const samples = (JSON.parse(fs.readFileSync(fixture('ring_p2p_4.facts.json'), 'utf8').replace(/\bNaN\b/g, 'null')) as { slog2: { samples: Sample[] } }).slog2
    .samples;
  const file = await openFixture('ring_p2p_4.slog2');
  try {
    const spec = fullSpec(file, 0);
    const w = await buildWindow(file, spec);
    const base = w.header.baseTime;
    const span = spec.t1 - spec.t0;
    const near = (a: number, b: number): boolean => Math.abs(a - b) <= span * 1e-6;
    const message = samples.find((s) => s.category_index === 0)!.first[0]!;
    const arrow = [...w.arrows.start.keys()].find((i) => w.arrows.category[i] === 0 && near(base + w.arrows.start[i]!, message.vertices[0]![0]));
    assert.ok(arrow !== undefined, 'the first message is an arrow');
    assert.equal(w.arrows.fromRow[arrow], spec.rowOfLine.get(message.vertices[0]![1]));
    assert.equal(w.arrows.toRow[arrow], spec.rowOfLine.get(message.vertices[1]![1]));
    assert.ok(near(base + w.arrows.end[arrow]!, message.vertices[1]![0]));
    for (const barrier of samples.find((s) => s.category_index === 6)!.first) {
      const i = [...w.states.start.keys()].find((k) => w.states.category[k] === 6 && near(base + w.states.start[k]!, barrier.start));
      assert.ok(i !== undefined, `MPI_Barrier at ${barrier.start}`);
      assert.equal(w.states.row[i], spec.rowOfLine.get(barrier.vertices[0]![1]));
      assert.ok(near(base + w.states.end[i]!, barrier.end));
    }
  } finally {
    await file.close();
  }
});

test('state shadows nest among the real states of their row, and the columns keep every number', async () => {
  // a synthetic source: real states [0, 10] and [6, 7] and state shadows [2, 4] and [12, 14] on row 0, an
  // arrow row 0 → 1 and an event on row 1, past the 16 entries a table starts with (its columns grow)
  const vertex = (time: number, lineID: number) => ({ time, lineID });
  const state = (a: number, b: number, category: number) => ({
    kind: 'primitive' as const,
    category,
    vertices: [vertex(a, 0), vertex(b, 0)],
    earliest: a,
    latest: b,
  });
  const drawables = [
    state(0, 10, 0),
    state(6, 7, 0),
    ...Array.from({ length: 40 }, (_, i) => state(20 + i, 20.5 + i, 1)),
    { kind: 'primitive' as const, category: 2, vertices: [vertex(1, 0), vertex(1.5, 1)], earliest: 1, latest: 1.5 },
    { kind: 'primitive' as const, category: 3, vertices: [vertex(8, 1)], earliest: 8, latest: 8 },
  ];
  const shadow = (a: number, b: number) => ({
    category: -3,
    vertices: [vertex(a, 0), vertex(b, 0)],
    earliest: a,
    latest: b,
    numRealObjs: 12,
    weights: [{ category: 0, incl: 1, excl: 1, count: 12 }],
  });
  const topology = ['state', 'state', 'arrow', 'event'] as const;
  const categories = new Map(topology.map((t, index) => [index, { index, name: `c${index}`, topology: t } as never]));
  const source = {
    categories,
    nodesRead: 0,
    async *query() {
      yield { drawables, shadows: [shadow(2, 4), shadow(12, 14)], depth: 3, xpos: 5 };
    },
  };
  let ids: { states: { nodeDepth: Int32Array; earliest: Float64Array } } | undefined;
  const spec = {
    t0: 0,
    t1: 100,
    rowStart: 0,
    rowEnd: 2,
    mapIndex: 0,
    lowestDepth: 0,
    rowOfLine: new Map([
      [0, 0],
      [1, 1],
    ]),
  };
  const w = await buildWindow(source, spec, undefined, { set: (x) => (ids = x) });
  assert.equal(w.states.start.length, 42);
  assert.equal(w.shadows.start.length, 2);
  assert.deepEqual([...w.shadows.depth], [1, 0], 'a shadow inside [0, 10], one outside any state');
  assert.deepEqual([w.shadows.start[0], w.shadows.end[0], w.shadows.count[0]], [2, 4, 12]);
  assert.deepEqual([w.arrows.fromRow[0], w.arrows.toRow[0], w.arrows.category[0]], [0, 1, 2]);
  assert.deepEqual([w.events.row[0], w.events.time[0], w.events.category[0]], [1, 8, 3]);
  // outermost first: [0, 10] and the 40 at depth 0, then [6, 7] at depth 1
  const inner = [...w.states.start].findIndex((s, i) => s === 6 && w.states.end[i] === 7);
  assert.equal(w.states.depth[inner], 1);
  assert.equal(ids?.states.nodeDepth[0], 3);
  assert.deepEqual([...ids!.states.earliest].sort((a, b) => a - b).slice(0, 3), [0, 6, 20]);
});
