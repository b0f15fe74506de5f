// The converters' drawables released straight into the SLOG-2 batch encoder (no object per
// drawable) must give what the object path gives: the same arrival order out of the columnar
// reorder heap, and the same SLOG-2 bytes out of the writer, for every converter and for input
// whose drawables the writer has to drop.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chunksOf, MemorySource } from '../../../src/core/bytes/memorySource';
import { PendingPrimitives, PrimitiveCollector, PrimitiveParts } from '../../../src/core/formats/convert/pendingPrimitives';
import { ReorderBuffer } from '../../../src/core/formats/convert/reorder';
import type { ClogConversion } from '../../../src/core/formats/convert/result';
import { MemorySink } from '../../../src/core/formats/slog2/writer';
import { batchBuffers } from '../../../src/core/formats/slog2/writer/drawableBatch';
import { ConversionBatches, writeConversion } from '../../../src/core/formats/slog2/writer/writeConversion';
import { convertClogFormat } from '../../../src/core/info/clogInfo';
import type { Primitive, SourceLocation } from '../../../src/core/model/types';
import { hostileClog2Bytes } from '../../../src/core/synth/hostileClog2';
import { Prng } from '../../../src/core/synth/prng';
import { fixturesDir as fixtures } from '../../helpers/paths';
import { synthToMemory } from '../synth/synthUtil';

function parts(fields: Partial<PrimitiveParts>): PrimitiveParts {
  return Object.assign(new PrimitiveParts(), fields);
}

test('the columnar reorder heap releases what the object heap releases, in the same order, ties and forced releases included', () => {
  const rng = new Prng(11);
  const sites: SourceLocation[] = [
    { file: 'a.c', line: 1 },
    { file: 'b.c', line: 2 },
  ];
  const fromObjects: Primitive[] = [];
  const objects = new ReorderBuffer(fromObjects, 256);
  const collector = new PrimitiveCollector();
  const columns = new PendingPrimitives(collector, 256);
  const fromColumns: Primitive[] = [];
  for (let i = 0; i < 20_000; i++) {
    // Coarse times: many equal latest and earliest times (the tie-breaks), and runs that never
    // advance long enough to force early releases.
    const t = Math.floor(i / 600) + (rng.next() < 0.5 ? 0 : Math.floor(rng.next() * 4));
    if (rng.next() < 0.05) {
      objects.releaseBefore(t, fromObjects);
      columns.releaseBefore(t);
    }
    const two = rng.next() < 0.7;
    const t1 = t - Math.floor(rng.next() * 3);
    const info = rng.next() < 0.3 ? Uint8Array.of(i & 255) : undefined;
    const start = rng.next() < 0.3 ? sites[i & 1] : undefined;
    const end = two && rng.next() < 0.3 ? sites[(i + 1) & 1] : undefined;
    const [earliest, latest] = two ? [Math.min(t, t1), Math.max(t, t1)] : [t, t];
    const vertices = two
      ? [
          { time: t, lineID: i % 7 },
          { time: t1, lineID: i % 5 },
        ]
      : [{ time: t, lineID: i % 7 }];
    const source = start !== undefined || end !== undefined ? (end === undefined ? { start } : start === undefined ? { end } : { start, end }) : undefined;
    objects.push({ kind: 'primitive', category: i, vertices, earliest, latest, info, source });
    columns.push(parts({ category: i, earliest, latest, vertices: two ? 2 : 1, t0: t, l0: i % 7, t1, l1: i % 5, info, start, end }));
    fromColumns.push(...collector.take());
  }
  objects.releaseAll(fromObjects);
  columns.releaseAll();
  fromColumns.push(...collector.take());
  assert.equal(fromColumns.length, 20_000);
  assert.ok(objects.forcedReleases > 0, 'the input forces early releases');
  assert.equal(columns.forcedReleases, objects.forcedReleases);
  assert.equal(columns.lateArrivals, objects.lateArrivals);
  assert.deepEqual(fromColumns, fromObjects);
});

test('the reorder heap orders by latest time, then decreasing earliest time, then arrival', () => {
  const rng = new Prng(3);
  const collector = new PrimitiveCollector();
  const heap = new PendingPrimitives(collector);
  const pushed: { category: number; earliest: number; latest: number }[] = [];
  for (let i = 0; i < 5000; i++) {
    const latest = Math.floor(rng.next() * 20);
    const earliest = latest - Math.floor(rng.next() * 3);
    pushed.push({ category: i, earliest, latest });
    heap.push(parts({ category: i, earliest, latest, vertices: 2, t0: earliest, t1: latest }));
  }
  heap.releaseAll();
  const expected = [...pushed].sort((a, b) => a.latest - b.latest || b.earliest - a.earliest || a.category - b.category).map((p) => p.category);
  assert.deepEqual(
    collector.take().map((p) => p.category),
    expected,
  );
});

test('used as the builder uses it (time advanced before each record, the returned parts record filled next), the reorder releases what the object heap releases', () => {
  // Mostly one drawable per record time (then it waits outside the heap), with runs of equal
  // times (a second one comes while one waits), records that complete nothing (a state's start),
  // times that go back (late arrivals), drawables that end after their record's time (a state
  // whose end comes before its start) and a run long enough to force early releases.
  const rng = new Prng(5);
  const fromObjects: Primitive[] = [];
  const objects = new ReorderBuffer(fromObjects, 64);
  const collector = new PrimitiveCollector();
  const columns = new PendingPrimitives(collector, 64);
  const fromColumns: Primitive[] = [];
  let record = new PrimitiveParts();
  let time = 0;
  let releasedBefore = -Infinity;
  for (let i = 0; i < 20_000; i++) {
    const r = rng.next();
    if (i >= 10_000 && i < 10_200)
      time += 0; // 200 records at one time: more than the bound
    else if (r < 0.7) time += 1 + Math.floor(rng.next() * 3);
    else if (r < 0.97) time += 0;
    else time -= 1 + Math.floor(rng.next() * 5);
    if (time > releasedBefore) {
      releasedBefore = time;
      objects.releaseBefore(time, fromObjects);
      columns.releaseBefore(time);
    }
    if (rng.next() < 0.3) continue;
    const two = rng.next() < 0.7;
    const t0 = !two ? time : rng.next() < 0.1 ? time + 1 + Math.floor(rng.next() * 3) : time - Math.floor(rng.next() * 4);
    const info = rng.next() < 0.3 ? Uint8Array.of(i & 255) : undefined;
    const vertices = two
      ? [
          { time: t0, lineID: i % 7 },
          { time, lineID: i % 7 },
        ]
      : [{ time, lineID: i % 7 }];
    objects.push({ kind: 'primitive', category: i, vertices, earliest: Math.min(t0, time), latest: Math.max(t0, time), info, source: undefined });
    Object.assign(record, {
      category: i,
      earliest: Math.min(t0, time),
      latest: Math.max(t0, time),
      vertices: two ? 2 : 1,
      t0,
      l0: i % 7,
      t1: time,
      l1: i % 7,
      info,
    });
    if (!two) Object.assign(record, { t0: time, t1: 0, l1: 0 });
    record = columns.push(record);
    fromColumns.push(...collector.take());
  }
  objects.releaseAll(fromObjects);
  columns.releaseAll();
  fromColumns.push(...collector.take());
  assert.equal(fromColumns.length, fromObjects.length);
  assert.ok(fromObjects.length > 10_000, 'most records complete a drawable');
  assert.ok(objects.lateArrivals > 0 && objects.forcedReleases > 0, 'the input has late arrivals and forces early releases');
  assert.equal(columns.lateArrivals, objects.lateArrivals);
  assert.equal(columns.forcedReleases, objects.forcedReleases);
  assert.deepEqual(fromColumns, fromObjects);
});

/** The same conversion with `releaseInto` hidden: the writer reads drawable objects. */
function objectsOnly(c: ClogConversion): ClogConversion {
  return {
    get drawables() {
      return c.drawables;
    },
    get batches() {
      return c.batches;
    },
    category: (i) => c.category(i),
    get finished() {
      return c.finished;
    },
    get summary() {
      return c.summary;
    },
    declaredLines: c.declaredLines && (() => c.declaredLines!()),
  };
}

function convert(format: 'clog2' | 'clog' | 'alog', name: string, bytes: Uint8Array): ClogConversion {
  return convertClogFormat(format, chunksOf(new MemorySource(name, bytes), 1 << 16), { name });
}

/** Every batch's counts, sites and columns (byte for byte: the encoder's batches start zeroed and are not reused here). */
async function batchesOf(conversion: ClogConversion): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const b of new ConversionBatches(conversion)) {
    const { count, primitives, vertices, infoUsed, firstNewSite, newSites } = b;
    out.push({ count, primitives, vertices, infoUsed, firstNewSite, newSites, columns: batchBuffers(b).map((a) => Buffer.from(a.slice(0))) });
  }
  return out;
}

async function slog2Of(format: 'clog2' | 'clog' | 'alog', name: string, bytes: Uint8Array, direct: boolean): Promise<{ bytes: Uint8Array; dropped: number }> {
  const conversion = convert(format, name, bytes);
  assert.equal(typeof conversion.releaseInto, 'function', `${name}: the ${format} converter releases into a sink`);
  const sink = new MemorySink();
  const summary = await writeConversion(direct ? conversion : objectsOnly(conversion), sink, { leafBytes: 8192, childrenPerNode: 4 });
  return { bytes: sink.bytes(), dropped: summary.droppedDrawables };
}

async function assertSameSlog2(format: 'clog2' | 'clog' | 'alog', name: string, bytes: Uint8Array): Promise<number> {
  // The columns first: some (the final line) decide the bytes only in rare ties.
  assert.deepEqual(await batchesOf(convert(format, name, bytes)), await batchesOf(objectsOnly(convert(format, name, bytes))), `${name}: batches differ`);
  const direct = await slog2Of(format, name, bytes, true);
  const objects = await slog2Of(format, name, bytes, false);
  assert.equal(direct.dropped, objects.dropped, `${name}: dropped drawables`);
  assert.ok(
    Buffer.from(direct.bytes).equals(Buffer.from(objects.bytes)),
    `${name}: the SLOG-2 bytes differ (${direct.bytes.length} against ${objects.bytes.length})`,
  );
  return direct.dropped;
}

test('released into the encoder, every fixture converts to the same SLOG-2 bytes as through drawable objects', async () => {
  const inputs: ['clog2' | 'clog' | 'alog', string][] = [
    ...fs
      .readdirSync(fixtures)
      .filter((f) => f.endsWith('.clog2'))
      .map((f): ['clog2', string] => ['clog2', f]),
    ['clog', 'legacy/cpilog.clog'],
    ['clog', 'legacy/fpilog.clog'],
    ['alog', 'legacy/cpilog.alog'],
    ['alog', 'legacy/pmandel.alog'],
  ];
  assert.ok(inputs.length >= 10);
  for (const [format, f] of inputs) await assertSameSlog2(format, f, new Uint8Array(fs.readFileSync(path.join(fixtures, f))));
});

test('released into the encoder: source locations, many ranks and dropped drawables as through objects', async () => {
  const { bytes } = await synthToMemory({ ranks: 24, bytes: 2e6, srcloc: true, seed: 7 });
  await assertSameSlog2('clog2', 'synth-srcloc.clog2', bytes);
  // More than the reorder heap holds (2^16): released early, then dropped by the writer as they come later.
  const descending = await hostileClog2Bytes({ events: 150_000, times: 'descending' });
  assert.ok((await assertSameSlog2('clog2', 'descending.clog2', descending)) > 0, 'the writer drops drawables of descending times');
  await assertSameSlog2('clog2', 'mixed.clog2', await hostileClog2Bytes({ events: 20_000, times: 'mixed' }));
});
