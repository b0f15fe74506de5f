// The window query: reads only the nodes overlapping the window, returns the same drawables as a
// full scan, and the shadows of the lowest loaded level equal the reference recur dump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { javaFloat } from '../../../src/core/model/javaNumber';
import type { Drawable, Shadow } from '../../../src/core/model/types';
import { chooseLowestDepth } from '../../../src/core/formats/slog2/levelOfDetail';
import { Slog2File, type NodeSlice } from '../../../src/core/formats/slog2/slog2File';
import { readDumpLines, recurNodes, type RefShadow } from './referenceDump';
import { samples, sampleSource } from './samples';

const bigrun = samples.find((s) => s.name === 'bigrun_medium_4')!;

async function collect(gen: AsyncGenerator<NodeSlice>): Promise<NodeSlice[]> {
  const out: NodeSlice[] = [];
  for await (const s of gen) out.push(s);
  return out;
}

function drawableKey(d: Drawable): string {
  return `${d.kind} ${d.category} ${d.earliest} ${d.latest}`;
}

test('bigrun: a narrow window reads one root-to-leaf path, a wider one proportionally more', async () => {
  const source = sampleSource(bigrun);
  const file = await Slog2File.open(source, { nodeCacheSize: 4 });
  assert.equal(file.header.maxTreeDepth, 5);
  assert.equal(file.treeDir.length, 63);
  assert.equal(file.nodesRead, 0, 'open reads no tree node');
  const [a, b] = file.timeRange;
  const everything: Drawable[] = [];
  for await (const d of file.allDrawables()) everything.push(d);

  const leaves = file.level(0);
  const leaf = leaves[13]!;
  const mid = (leaf.earliest + leaf.latest) / 2;
  const probes: [number, number, number][] = [
    // window, most nodes allowed
    [mid, mid, 6],
    [mid - (leaf.latest - leaf.earliest) / 4, mid + (leaf.latest - leaf.earliest) / 4, 6],
    [a + (b - a) * 0.5, a + (b - a) * 0.5 + (b - a) / 8, 6 + 5 + 2 * 3],
  ];
  for (const [t0, t1, maxNodes] of probes) {
    // A fresh reader per probe (same bytes) so that no node comes from an earlier query's cache.
    const fresh = await Slog2File.open(source, { nodeCacheSize: 4 });
    const slices = await collect(fresh.query(t0, t1));
    const read = fresh.nodesRead;
    assert.ok(read <= maxNodes, `window [${t0}, ${t1}] read ${read} nodes (limit ${maxNodes})`);
    assert.equal(read, slices.length);
    const depths = new Set(slices.map((s) => s.depth));
    assert.deepEqual([...depths].sort(), [0, 1, 2, 3, 4, 5]);
    for (const s of slices) assert.deepEqual(s.shadows, [], 'no shadows at lowestDepth 0');
    const got = slices
      .flatMap((s) => s.drawables)
      .map(drawableKey)
      .sort();
    const want = everything
      .filter((d) => d.earliest <= t1 && t0 <= d.latest)
      .map(drawableKey)
      .sort();
    assert.deepEqual(got, want);
    assert.ok(want.length > 0 && want.length < everything.length / 4);
  }
  // The whole range down to depth 3 reads only the 1 + 2 + 4 upper nodes (32 leaves, 63 nodes).
  const fresh = await Slog2File.open(source);
  const top = await collect(fresh.query(a, b, { lowestDepth: 3 }));
  assert.equal(fresh.nodesRead, 7);
  assert.equal(top.length, 7);
  assert.equal(file.level(0).length, 32);
  assert.ok(top.filter((s) => s.depth === 3).every((s) => s.shadows.length > 0));
  assert.ok(top.filter((s) => s.depth > 3).every((s) => s.shadows.length === 0));
  await file.close();
});

test('chooseLowestDepth: the deepest level whose overlapping node count fits', async () => {
  const file = await Slog2File.open(sampleSource(bigrun));
  const [a, b] = file.timeRange;
  const brute = (t0: number, t1: number, max: number) => {
    for (let d = 0; d < file.maxDepth; d++) {
      if (file.treeDir.filter((n) => n.depth === d && n.earliest <= t1 && t0 <= n.latest).length <= max) return d;
    }
    return file.maxDepth;
  };
  assert.equal(chooseLowestDepth(file, a, b, 1), 5);
  assert.equal(chooseLowestDepth(file, a, b, 1000), 0);
  for (const [f0, f1, max] of [
    [0, 1, 8],
    [0.1, 0.2, 2],
    [0.3, 0.31, 1],
    [0.5, 0.9, 5],
    [0, 1, 20],
  ] as const) {
    const t0 = a + (b - a) * f0;
    const t1 = a + (b - a) * f1;
    assert.equal(chooseLowestDepth(file, t0, t1, max), brute(t0, t1, max), `[${f0}, ${f1}] max ${max}`);
  }
  await file.close();
});

test('query honours an abort signal between nodes', async () => {
  const file = await Slog2File.open(sampleSource(bigrun));
  const ac = new AbortController();
  const [a, b] = file.timeRange;
  let n = 0;
  await assert.rejects(async () => {
    for await (const _ of file.query(a, b, { signal: ac.signal })) {
      if (++n === 3) ac.abort(new Error('stop'));
    }
  }, /stop/);
  assert.equal(n, 3);
  await file.close();
});

function shadowKey(s: Shadow): string {
  const w = s.weights.map((x) => `${x.category}:${javaFloat(x.incl)},${javaFloat(x.excl)}:${x.count}`).sort();
  return `${s.category} ${s.vertices.map((v) => `(${javaFloat(v.time)}, ${v.lineID})`).join(' ')} [${s.earliest},${s.latest}] n=${s.numRealObjs} ${w.join(' ')}`;
}

function refShadowKey(s: RefShadow): string {
  return `${s.category} ${s.vertices} [${s.earliest},${s.latest}] n=${s.numRealObjs} ${[...s.weights].sort().join(' ')}`;
}

for (const name of ['fpilog', 'bigrun_medium_4']) {
  test(`${name}: the shadows of each lowest depth equal the reference recur dump (weights included)`, async (t) => {
    const s = samples.find((x) => x.name === name);
    if (!s) return t.skip('sample not present');
    const file = await Slog2File.open(sampleSource(s));
    const ref = recurNodes(readDumpLines(s.recurDump)).filter((n) => n.complete);
    let compared = 0;
    const [a, b] = file.timeRange;
    for (let depth = 1; depth <= file.maxDepth; depth++) {
      const slices = await collect(file.query(a, b, { lowestDepth: depth }));
      for (const node of ref.filter((n) => n.depth === depth)) {
        const slice = slices.find((x) => x.depth === depth && x.xpos === node.xpos);
        assert.ok(slice, `node (${depth},${node.xpos}) queried`);
        assert.deepEqual(slice.shadows.map(shadowKey).sort(), node.shadows.map(refShadowKey).sort(), `shadows of (${depth},${node.xpos})`);
        compared += node.shadows.length;
      }
    }
    assert.ok(compared >= 10, `compared ${compared} shadows`);
    await file.close();
  });
}

test('the node cache is bounded by node bytes as well as by count (wide traces have 15 MB nodes)', async () => {
  const source = sampleSource(bigrun);
  const probe = await Slog2File.open(source);
  const top = [...probe.level(probe.maxDepth), ...probe.level(probe.maxDepth - 1)];
  const bytes = top.reduce((n, x) => n + x.size, 0);
  for (const [budget, rereads] of [
    [bytes, 0],
    [bytes - 1, top.length],
  ] as const) {
    const file = await Slog2File.open(source, { nodeCacheSize: 64, nodeCacheBytes: budget });
    for (const info of top) await file.readNode(info);
    const before = file.nodesRead;
    for (const info of top) await file.readNode(info);
    assert.equal(file.nodesRead - before, rereads, `budget ${budget} of ${bytes} node bytes`);
  }
});
