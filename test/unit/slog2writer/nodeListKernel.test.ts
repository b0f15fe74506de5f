// The WebAssembly node-list kernel writes the same bytes and notes the same located entries as the
// JS lists (drawingOrderOf, then encodeEntry), whichever way its sort goes: arrival order nearly in
// drawing order (the pilot), far out of order (buckets), crowded buckets (merging), ties in every
// key, subnormal times; primitives of 1-3 vertices with and without info, composites. A node it
// cannot take (too big, or columns that do not add up) is left to JS with nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import type { Drawable, Primitive, SourceLocation, Topology } from '../../../src/core/model/types';
import { ByteWriter } from '../../../src/core/formats/slog2/writer/byteWriter';
import { DrawableBatchEncoder } from '../../../src/core/formats/slog2/writer/drawableBatchEncoder';
import type { DrawableBatch } from '../../../src/core/formats/slog2/writer/drawableBatch';
import { NodeBlocks } from '../../../src/core/formats/slog2/writer/nodeBlocks';
import { NodeDrawables } from '../../../src/core/formats/slog2/writer/nodeDrawables';
import { NodeListKernel, type SiteSink } from '../../../src/core/formats/slog2/writer/nodeListKernel';
import type { OutputBlocks } from '../../../src/core/formats/slog2/writer/outputBlocks';
import { NESTABLE_LIST, NESTLESS_LIST } from '../../../src/core/formats/srcloc/table';

/** Categories 0-9 states, 10-14 arrows, 15-19 events; composites use the states'. */
const topologyOf = (c: number): Topology => (c < 10 ? 'state' : c < 15 ? 'arrow' : 'event');

const LOCATIONS: SourceLocation[] = [
  { file: 'a.c', line: 10 },
  { file: 'b.c', line: 20 },
];

interface Shape {
  /** Lines (ranks); arrival order interleaves them. */
  readonly lines: number;
  /** Time of the first drawable and the step between starts (tiny: subnormal times). */
  readonly start: number;
  readonly step: number;
  /** Share of drawables that all start at one time (a crowded bucket). */
  readonly crowd: number;
}

function info(prng: Prng): Uint8Array | undefined {
  if (prng.next() < 0.6) return undefined;
  return Uint8Array.from({ length: 1 + Math.floor(prng.next() * 40) }, () => Math.floor(prng.next() * 256));
}

function primitive(prng: Prng, category: number, t0: number, t1: number, line: number): Primitive {
  const topology = topologyOf(category);
  const located = prng.next() < 0.3;
  const source = located ? { start: LOCATIONS[0]!, ...(prng.next() < 0.5 ? { end: LOCATIONS[1]! } : {}) } : undefined;
  const i = info(prng);
  const extra = prng.next() < 0.05 ? [{ time: (t0 + t1) / 2, lineID: line + 1 }] : [];
  const vertices =
    topology === 'event'
      ? [{ time: t0, lineID: line }]
      : [{ time: t0, lineID: line }, ...extra, { time: t1, lineID: topology === 'arrow' ? Math.floor(prng.next() * 8) : line }];
  return { kind: 'primitive', category, vertices, earliest: t0, latest: t1, ...(i ? { info: i } : {}), ...(source ? { source } : {}) };
}

/** n drawables in arrival order (non-decreasing latest time), as the writer receives them. */
function drawables(n: number, shape: Shape, prng: Prng): Drawable[] {
  const out: Drawable[] = [];
  for (let k = 0; k < n; k++) {
    const line = Math.floor(prng.next() * shape.lines);
    const crowded = prng.next() < shape.crowd;
    const t0 = crowded ? shape.start : shape.start + shape.step * Math.floor(prng.next() * n);
    const kind = prng.next();
    if (kind < 0.5) out.push(primitive(prng, Math.floor(prng.next() * 10), t0, t0 + shape.step * Math.floor(prng.next() * 50), line));
    else if (kind < 0.7) out.push(primitive(prng, 10 + Math.floor(prng.next() * 5), t0, t0 + shape.step * Math.floor(prng.next() * 5), line));
    else if (kind < 0.9) out.push(primitive(prng, 15 + Math.floor(prng.next() * 5), t0, t0, line));
    else {
      const members = 1 + Math.floor(prng.next() * 3);
      const prims = Array.from({ length: members }, (_, j) =>
        primitive(prng, Math.floor(prng.next() * 10), t0 + shape.step * j, t0 + shape.step * (j + 2), line),
      );
      const i = info(prng);
      out.push({ kind: 'composite', category: 9, primitives: prims, earliest: t0, latest: t0 + shape.step * (members + 1), ...(i ? { info: i } : {}) });
    }
  }
  // arrival order: by latest time, stable
  return out
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.latest - b.d.latest || a.i - b.i)
    .map((a) => a.d);
}

/** One batch holding `list` (the layout of a node's columns) and the entries' encoded bytes. */
function columnsOf(list: readonly Drawable[]): { columns: DrawableBatch; bytes: number } {
  const encoder = new DrawableBatchEncoder(topologyOf);
  for (const d of list) encoder.add(d);
  encoder.flush();
  // a node's columns, filled from the batches as the writer fills them
  const node = new NodeDrawables();
  for (let b = encoder.takeReady(); b !== undefined; b = encoder.takeReady()) node.addRange(b, 0, b.count);
  const columns = node.columns;
  let bytes = 0;
  for (let i = 0; i < columns.count; i++) bytes += columns.entryBytes[i]!;
  return { columns, bytes };
}

type SiteCall = [list: number, index: number, start: number, end: number];

function recorder(calls: SiteCall[]): SiteSink {
  return { addSites: (list, index, start, end) => void calls.push([list, index, start, end]) };
}

/** Both lists as the JS path writes them. */
function jsLists(columns: DrawableBatch, bytes: number): { out: Uint8Array; calls: SiteCall[] } {
  const blocks = new NodeBlocks(undefined as unknown as OutputBlocks, 1 << 20, false);
  const w = new ByteWriter(bytes + 8);
  const calls: SiteCall[] = [];
  const node = { columns } as NodeDrawables;
  blocks.writeList(w, node, NESTLESS_LIST, recorder(calls));
  blocks.writeList(w, node, NESTABLE_LIST, recorder(calls));
  assert.equal(w.pos, bytes + 8);
  return { out: w.bytes, calls };
}

test('node-list kernel: the JS bytes and located entries for every way its sort goes', () => {
  const kernel = NodeListKernel.create();
  assert.ok(kernel, 'WebAssembly is there in Node');
  const prng = new Prng(21);
  const shapes: [string, Shape][] = [
    ['one line (nearly in order)', { lines: 1, start: 100, step: 1, crowd: 0 }],
    ['16 lines', { lines: 16, start: 0, step: 0.5, crowd: 0 }],
    ['300 lines', { lines: 300, start: -50, step: 3, crowd: 0 }],
    ['crowded: half start together', { lines: 8, start: 7, step: 1, crowd: 0.5 }],
    ['all start together', { lines: 4, start: 7, step: 1, crowd: 1 }],
    ['subnormal times', { lines: 16, start: 0, step: 5e-324, crowd: 0 }],
  ];
  // the pilot's bookkeeping carries over between lists: sizes on both sides of 256, repeated
  for (let round = 0; round < 3; round++) {
    for (const [name, shape] of shapes) {
      for (const n of [0, 1, 2, 30, 255, 256, 700, 2500]) {
        const { columns, bytes } = columnsOf(drawables(n, shape, prng));
        const expected = jsLists(columns, bytes);
        const w = new ByteWriter(bytes + 8);
        const calls: SiteCall[] = [];
        assert.equal(kernel.writeLists(w, columns, bytes, recorder(calls)), true, `${name}, ${n}`);
        assert.equal(w.pos, bytes + 8, `${name}, ${n}: bytes written`);
        assert.deepEqual(w.bytes, expected.out, `${name}, ${n}: the JS bytes`);
        assert.deepEqual(calls, expected.calls, `${name}, ${n}: located entries`);
      }
    }
  }
});

test('node-list kernel: a node it cannot take is left to JS, nothing written', () => {
  const kernel = NodeListKernel.create()!;
  const prng = new Prng(5);
  // too big to copy in (a wide trace's trunk node)
  const big = columnsOf(drawables(8000, { lines: 4, start: 0, step: 1, crowd: 0 }, prng));
  const huge: DrawableBatch = { ...big.columns, infoUsed: 5 << 20, info: new Uint8Array(5 << 20) };
  const w = new ByteWriter(big.bytes + 8);
  assert.equal(kernel.writeLists(w, huge, big.bytes, recorder([])), false);
  assert.equal(w.pos, 0);
  // columns that do not add up: a primitive's vertices far past the memory (the kernel traps)
  const small = columnsOf(drawables(50, { lines: 2, start: 0, step: 1, crowd: 0 }, prng));
  const broken: DrawableBatch = { ...small.columns, vertexStart: small.columns.vertexStart.slice() };
  broken.vertexStart[1] = 0x7fff0000;
  const w2 = new ByteWriter(small.bytes + 8);
  assert.equal(kernel.writeLists(w2, broken, small.bytes, recorder([])), false);
  assert.equal(w2.pos, 0);
  // and it still works afterwards
  const again = jsLists(small.columns, small.bytes);
  const w3 = new ByteWriter(small.bytes + 8);
  assert.equal(kernel.writeLists(w3, small.columns, small.bytes, recorder([])), true);
  assert.deepEqual(w3.bytes, again.out);
});
