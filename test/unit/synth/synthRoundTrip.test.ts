/**
 * synth → read: for several seeds and shapes, the drawables read back per category (count, kind,
 * sourced start/end vertices) equal what the synthesizer says it wrote; records and SRCLOC counts
 * too; no warnings, nothing unmatched, output in arrival order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { parsePreamble } from '../../../src/core/formats/clog2/preamble';
import { collectConversion } from '../../../src/core/formats/convert/result';
import type { SynthOptions } from '../../../src/core/synth/synthClog2';
import { synthToMemory } from './synthUtil';

async function* chunked(bytes: Uint8Array, n: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += n) yield bytes.subarray(i, i + n);
}

const SHAPES: Omit<SynthOptions, 'sink'>[] = [
  { ranks: 2, seconds: 0.02, seed: 1 },
  { ranks: 5, seconds: 0.01, seed: 7, srcloc: true },
  { ranks: 3, seconds: 0.01, seed: 42, threads: 2, srcloc: true },
  { ranks: 1, seconds: 0.005, seed: 3, srcloc: true },
  { ranks: 4, seconds: 0.005, seed: 9, threads: 3, blockSize: 1024 },
  { ranks: 3, seconds: 0.005, seed: 21, srcloc: true, littleEndian: true },
  { ranks: 5, seconds: 0.01, seed: 8, srcloc: true, subComms: true, threads: 2 },
];

for (const shape of SHAPES) {
  test(`synth ${JSON.stringify(shape)} reads back as written`, async () => {
    const { bytes, report } = await synthToMemory(shape);
    assert.equal(bytes.length, report.bytes);
    const pre = parsePreamble(bytes.subarray(0, 1024), 'synth');
    assert.equal(pre.commtableFptr, report.commtableFptr);
    assert.equal(pre.maxCommWorldSize, shape.ranks);
    assert.equal(pre.isBigEndian, shape.littleEndian !== true);
    assert.ok(report.iterations > 0);
    const { drawables, summary } = await collectConversion(convertClog2(chunked(bytes, 10007), { name: 'synth' }));
    assert.deepEqual(summary.warnings, []);
    assert.deepEqual(summary.records, report.records);
    // The communicator table: world (LID 0) and every process's MPI_COMM_SELF, all intra.
    const comms = shape.ranks + 1 + (shape.subComms ? 2 : 0);
    assert.deepEqual(
      summary.clog2?.commTable?.map((c) => [c.lid, c.kind, c.host]),
      Array.from({ length: comms }, (_, i) => [i, 1, 'synthhost']),
    );
    assert.equal(summary.unmatched.reference, 0);
    assert.equal(summary.unmatched.droppedFinals, 0);
    const got = new Map<string, { kind: string; count: number; sourcedStart: number; sourcedEnd: number }>();
    for (const p of drawables) {
      const c = summary.categories.find((x) => x.index === p.category)!;
      let e = got.get(c.name);
      if (e === undefined) got.set(c.name, (e = { kind: c.topology, count: 0, sourcedStart: 0, sourcedEnd: 0 }));
      e.count++;
      if (p.source?.start) e.sourcedStart++;
      if (p.source?.end) e.sourcedEnd++;
    }
    assert.deepEqual(Object.fromEntries([...got].sort()), Object.fromEntries([...report.drawables].sort()));
    assert.deepEqual(summary.sourceLocations, { records: report.srclocRecords, sites: report.srclocSites });
    // One line per (rank, thread) on world, plus one per rank on its half-communicator.
    assert.equal(summary.lineIDMaps[0]!.rows.length, shape.ranks * (shape.threads ?? 1) + (shape.subComms ? shape.ranks : 0));
    if (shape.subComms) {
      const half = Math.ceil(shape.ranks / 2);
      const commView = summary.lineIDMaps[1]!.rows.map((r) => r.path.slice(0, 2).join(':'));
      for (let r = 0; r < shape.ranks; r++) assert.ok(commView.includes(r < half ? `${shape.ranks + 1}:${r}` : `${shape.ranks + 2}:${r - half}`), `rank ${r}`);
    }
    for (let i = 1; i < drawables.length; i++) {
      const [a, b] = [drawables[i - 1]!, drawables[i]!];
      assert.ok(a.latest < b.latest || (a.latest === b.latest && a.earliest >= b.earliest), `order at ${i}`);
    }
    // The MPI states keep MPE's colours through the definitions written at the end.
    const send = summary.categories.find((c) => c.name === 'MPI_Isend')!;
    if (shape.ranks > 1) assert.deepEqual(send.rgba, [135, 206, 235, 255]);
    if (shape.ranks > 1 && report.iterations > 3) {
      assert.deepEqual(summary.categories.find((c) => c.name === 'MPI_Send')?.rgba, [0, 0, 255, 255]);
      assert.deepEqual(summary.categories.find((c) => c.name === 'MPI_Recv')?.rgba, [0, 255, 0, 255]);
    }
  });
}

test('synth is deterministic for a seed, and different seeds differ', async () => {
  const a = await synthToMemory({ ranks: 3, seconds: 0.003, seed: 11 });
  const b = await synthToMemory({ ranks: 3, seconds: 0.003, seed: 11 });
  const c = await synthToMemory({ ranks: 3, seconds: 0.003, seed: 12 });
  assert.deepEqual(a.bytes, b.bytes);
  assert.notDeepEqual(a.bytes, c.bytes);
});

test('synth --bytes target: stops near the requested size; without the preamble rewrite the table is ignored', async () => {
  const { bytes, report } = await synthToMemory({ ranks: 2, bytes: 300_000, seed: 2 }, false);
  assert.ok(report.bytes >= 300_000 && report.bytes < 300_000 + 3 * 65536, `${report.bytes}`);
  assert.equal(parsePreamble(bytes.subarray(0, 1024), 's').commtableFptr, 0);
  const { summary } = await collectConversion(convertClog2(chunked(bytes, 65536), { name: 'synth' }));
  assert.deepEqual(summary.warnings, []);
  assert.equal(
    summary.drawables.total,
    [...report.drawables.values()].reduce((n, e) => n + e.count, 0),
  );
});
