// Batches that come back from the writer thread (structured clones) are reused in the encoder's
// one shape: the same hidden class as a new batch, the same arrays, emptied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import {
  adoptDrawableBatch,
  appendEntry,
  appendRange,
  batchBuffers,
  makeRoom,
  newDrawableBatch,
  type DrawableBatch,
} from '../../../src/core/formats/slog2/writer/drawableBatch';
import { encodeEntry } from '../../../src/core/formats/slog2/writer/drawableBatchBytes';
import type { Primitive, Topology } from '../../../src/core/model/types';
import { PrimitiveParts } from '../../../src/core/formats/convert/pendingPrimitives';
import { DrawableBatchEncoder } from '../../../src/core/formats/slog2/writer/drawableBatchEncoder';
import { topologyNumber } from '../../../src/core/formats/slog2/writer/shadowKey';

/** As a batch comes back from the other thread: a structured clone with its buffers transferred. */
function crossed(b: DrawableBatch): DrawableBatch {
  return structuredClone(b, { transfer: batchBuffers(b) });
}

/** V8's own answer to "same hidden class?" (the flag is read when the function is parsed). */
function sameMap(): (a: object, b: object) => boolean {
  setFlagsFromString('--allow-natives-syntax');
  return new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
}

test('a batch back from another thread is adopted in the shape of a new one, its arrays kept', () => {
  const fresh = newDrawableBatch(16, 64);
  const clone = crossed(newDrawableBatch(16, 64));
  const same = sameMap();
  assert.equal(same(fresh, clone), false, 'a structured clone has another hidden class (why adoption exists)');
  const adopted = adoptDrawableBatch(clone);
  assert.equal(same(fresh, adopted), true, 'adopted: the hidden class of a new batch');
  assert.deepEqual(Object.keys(adopted), Object.keys(fresh));
  assert.equal(adopted.earliest, clone.earliest, 'the arrays are reused, not copied');
  assert.equal(adopted.info, clone.info);
  assert.equal(adopted.count + adopted.primitives + adopted.vertices + adopted.infoUsed, 0, 'emptied');
});

/** The part of a batch in use (a reused batch keeps old values past its counts). */
function used(b: DrawableBatch): Record<string, unknown> {
  const { count: n, primitives: p, vertices: v, infoUsed: i } = b;
  return {
    counts: [n, p, v, i, b.firstNewSite, b.newSites],
    entries: [
      b.earliest,
      b.latest,
      b.category,
      b.startLine,
      b.finalLine,
      b.nestable,
      b.kind,
      b.entryBytes,
      b.siteStart,
      b.siteEnd,
      b.entryInfoStart,
      b.entryInfoEnd,
    ].map((a) => Array.from(a.subarray(0, n))),
    primitiveStart: Array.from(b.primitiveStart.subarray(0, n + 1)),
    primitives: [b.primTopology, b.primCategory, b.primEarliest, b.primLatest, b.primInfoStart, b.primInfoEnd].map((a) => Array.from(a.subarray(0, p))),
    vertexStart: Array.from(b.vertexStart.subarray(0, p + 1)),
    vertices: [b.vertexTime, b.vertexLine].map((a) => Array.from(a.subarray(0, v))),
    info: Array.from(b.info.subarray(0, i)),
  };
}

test('the encoder fills recycled batches as it fills new ones', () => {
  const topology = (c: number): Topology => (c === 0 ? 'state' : 'event');
  const same = sameMap();
  const shape = newDrawableBatch(16, 64);
  const run = (recycle: boolean): Record<string, unknown>[] => {
    const enc = new DrawableBatchEncoder(topology);
    const out: Record<string, unknown>[] = [];
    const info = new Uint8Array([1, 2, 3]);
    const parts = new PrimitiveParts();
    for (let i = 0; i < 40_000; i++) {
      const t = i * 1e-3;
      Object.assign(parts, { category: i % 2, earliest: t, latest: t + (i % 2 === 0 ? 5e-4 : 0), vertices: i % 2 === 0 ? 2 : 1 });
      Object.assign(parts, { l0: i % 7, l1: i % 7, t0: t, t1: t + 5e-4, info: i % 3 === 0 ? info : undefined });
      enc.addParts(parts);
      let b: DrawableBatch | undefined;
      while ((b = enc.takeReady())) {
        out.push(used(b));
        assert.ok(same(b, shape), 'every batch the encoder fills has the one shape, recycled or not');
        if (recycle) enc.recycle(crossed(b));
      }
    }
    enc.flush();
    let b: DrawableBatch | undefined;
    while ((b = enc.takeReady())) out.push(used(b));
    return out;
  };
  const plain = run(false);
  assert.ok(plain.length >= 4, 'several batches');
  assert.deepEqual(run(true), plain);
});

test('a run of entries copied column by column is what copying them one by one gives', () => {
  const topology = (c: number): Topology => (c === 0 ? 'state' : c === 1 ? 'arrow' : 'event');
  const enc = new DrawableBatchEncoder(topology);
  const bytes = (n: number, seed: number): Uint8Array | undefined => (n === 0 ? undefined : Uint8Array.from({ length: n }, (_, k) => (seed + k) & 255));
  // more than the encoder's small first batch takes: the last batch holds 3000 or more
  for (let i = 0; i < 4000; i++) {
    const t = i * 1e-3;
    const line = i % 5;
    const prim = (c: number, at: number, info: number): Primitive => ({
      kind: 'primitive',
      category: c,
      vertices:
        c === 2
          ? [{ time: at, lineID: line }]
          : [
              { time: at - 4e-4, lineID: line },
              { time: at, lineID: (line + c) % 5 },
            ],
      info: bytes(info, i),
      earliest: c === 2 ? at : at - 4e-4,
      latest: at,
    });
    if (i % 11 === 0) {
      // a composite: its own info and members with theirs (info bytes of 0 to 30, over the one-by-one copy's 24)
      const members = [prim(2, t - 2e-4, i % 30), prim(0, t, 3)];
      enc.add({ kind: 'composite', category: 3, info: bytes(i % 7, i + 1), primitives: members, earliest: t - 4e-4, latest: t });
    } else enc.add(prim(i % 3, t, (i * 7) % 31));
  }
  enc.flush();
  let src = enc.takeReady()!;
  for (let b = enc.takeReady(); b !== undefined; b = enc.takeReady()) src = b;
  assert.ok(src.count >= 3000, 'one batch of 3000 or more');
  // the same runs (lengths 1 to 400, some skipped as if they went to another node) into both
  const byRange = newDrawableBatch(16, 64);
  const byEntry = newDrawableBatch(16, 64);
  let runs = 0;
  for (let from = 0, len = 1; from < src.count; from += len, len = (len * 7 + 3) % 400 || 1) {
    const to = Math.min(src.count, from + len);
    if (runs++ % 4 === 3) continue;
    appendRange(byRange, src, from, to);
    for (let j = from; j < to; j++) appendEntry(byEntry, src, j);
  }
  assert.ok(byEntry.count > 1000 && byEntry.count < src.count, `${byEntry.count} of ${src.count} entries copied`);
  const encoded = (b: DrawableBatch): Uint8Array => {
    const out = new Uint8Array(1 << 20);
    const view = new DataView(out.buffer);
    const infoView = new DataView(b.info.buffer, b.info.byteOffset, b.info.byteLength);
    let at = 0;
    for (let i = 0; i < b.count; i++) at = encodeEntry(b, i, view, out, at, infoView);
    return out.subarray(0, at);
  };
  assert.deepEqual(encoded(byRange), encoded(byEntry), 'the same entries, byte for byte');
  const { entries: e1, primitives: p1, vertices: v1, vertexStart: s1, primitiveStart: q1 } = used(byRange);
  const { entries: e2, primitives: p2, vertices: v2, vertexStart: s2, primitiveStart: q2 } = used(byEntry);
  // entry info offsets are only meaningful for composites
  const keys = (e: unknown): unknown => (e as number[][]).slice(0, 10);
  assert.deepEqual([keys(e1), p1, v1, s1, q1], [keys(e2), p2, v2, s2, q2], 'keys, primitives and vertices the same');
});

test('makeRoom: the start columns keep one slot more than their entries and primitives, whatever the growth', () => {
  // Grown apart, 257 → 2056 could stop where 256 → 4096 did not: entry 2056's end was lost and
  // the node was encoded with NaN bytes (fuzzer case writer:373:2719).
  for (const initial of [0, 1, 16, 256, 1000]) {
    for (let need = 1; need <= 5000; need += need < 300 ? 1 : 7) {
      const b = newDrawableBatch(initial, 64);
      makeRoom(b, need, 0, 0, need);
      assert.ok(b.earliest.length >= need && b.primTopology.length >= need, `room for ${need}`);
      assert.ok(
        b.primitiveStart.length >= b.earliest.length + 1,
        `${initial} → ${need}: primitiveStart ${b.primitiveStart.length}, entries ${b.earliest.length}`,
      );
      assert.ok(
        b.vertexStart.length >= b.primTopology.length + 1,
        `${initial} → ${need}: vertexStart ${b.vertexStart.length}, primitives ${b.primTopology.length}`,
      );
      // and again, from there
      b.count = b.earliest.length;
      b.primitives = b.primTopology.length;
      makeRoom(b, need, 0, 0, need);
      assert.ok(b.primitiveStart.length >= b.earliest.length + 1 && b.vertexStart.length >= b.primTopology.length + 1, `${initial} → ${need}, twice`);
    }
  }
});

/** The lists of each batch against its columns, entries added as objects or (composites aside) as the converters' parts. */
function listsWhatEachBatchUses(mode: 'objects' | 'parts'): void {
  const topology = (c: number): Topology => (c % 3 === 0 ? 'state' : c % 3 === 1 ? 'arrow' : 'event');
  const enc = new DrawableBatchEncoder(topology);
  const rng = { s: 7, next: (n: number): number => (rng.s = (rng.s * 1103515245 + 12345) >>> 0) % n };
  const batches: DrawableBatch[] = [];
  const take = (): void => {
    for (let b = enc.takeReady(); b !== undefined; b = enc.takeReady()) batches.push(b);
  };
  const prim = (c: number, t: number, l0: number, l1: number): Primitive => ({
    kind: 'primitive',
    category: c,
    vertices:
      c % 3 === 2
        ? [{ time: t, lineID: l0 }]
        : [
            { time: t - 1e-4, lineID: l0 },
            { time: t, lineID: l1 },
          ],
    earliest: c % 3 === 2 ? t : t - 1e-4,
    latest: t,
  });
  // categories and lineIDs in the bitmaps and beyond them (negative, past the category bitmap)
  const categories = [0, 1, 2, 5, 7, 70_000, -3];
  const lines = [0, 1, 9, 4095, 1 << 25, -2];
  const wantCategories = new Set<number>();
  const wantLines = new Set<number>();
  let wantTopologies = 0;
  for (let i = 0; i < 30_000; i++) {
    const t = i * 1e-3;
    // new values keep coming late in the stream, not only in the first batch
    const c = i < 20_000 ? categories[rng.next(4)]! : categories[rng.next(categories.length)]!;
    const l0 = i < 25_000 ? lines[rng.next(3)]! : lines[rng.next(lines.length)]!;
    // a lineID that only ever is a second vertex's (of entries that are not composites), late in the stream
    const l1 = i > 27_000 && i % 5 === 0 && i % 97 !== 0 ? 77 : lines[rng.next(3)]!;
    if (i % 97 === 0) {
      const own = i > 28_000 ? 11 : 8;
      enc.add({ kind: 'composite', category: own, primitives: [prim(c, t, l0, l1)], earliest: t - 1e-4, latest: t });
      wantCategories.add(own);
    } else if (mode === 'objects') enc.add(prim(c, t, l0, l1));
    else enc.addParts(partsOf(prim(c, t, l0, l1)));
    wantCategories.add(c);
    wantLines.add(l0);
    if (c % 3 !== 2) wantLines.add(l1);
    wantTopologies |= 1 << topologyNumber(topology(c));
    take();
  }
  enc.flush();
  take();
  assert.ok(batches.length >= 3, `${batches.length} batches`);
  const seenCategories = new Set<number>();
  const seenLines = new Set<number>();
  let topologies = 0;
  for (const b of batches) {
    // what the batch itself uses, from its columns
    let own = 0;
    for (let p = 0; p < b.primitives; p++) own |= 1 << b.primTopology[p]!;
    assert.equal(b.topologies, own, 'a batch carries the topologies of its own primitives');
    const used = new Set<number>([...b.primCategory.subarray(0, b.primitives)]);
    for (let j = 0; j < b.count; j++) if (b.kind[j] === 1) used.add(b.category[j]!);
    for (const c of b.newCategories) {
      assert.ok(used.has(c) && !seenCategories.has(c), `category ${c} is new in its batch`);
      seenCategories.add(c);
    }
    for (const c of used) assert.ok(seenCategories.has(c), `category ${c} was listed by its batch or one before`);
    for (const l of b.newLineIDs) {
      assert.ok(!seenLines.has(l), `lineID ${l} is listed once`);
      seenLines.add(l);
    }
    for (const l of b.vertexLine.subarray(0, b.vertices)) assert.ok(seenLines.has(l), `lineID ${l} was listed by its batch or one before`);
    topologies |= b.topologies;
  }
  assert.deepEqual(
    [...seenCategories].sort((a, b) => a - b),
    [...wantCategories].sort((a, b) => a - b),
  );
  assert.deepEqual(
    [...seenLines].sort((a, b) => a - b),
    [...wantLines].sort((a, b) => a - b),
  );
  assert.equal(topologies, wantTopologies);
  assert.ok(
    batches.slice(1).some((b) => b.newCategories.length > 0) && batches.slice(1).some((b) => b.newLineIDs.length > 0),
    'later batches list new values too',
  );
}

function partsOf(d: Primitive): PrimitiveParts {
  const p = new PrimitiveParts();
  p.category = d.category;
  p.earliest = d.earliest;
  p.latest = d.latest;
  p.vertices = d.vertices.length === 2 ? 2 : 1;
  p.t0 = d.vertices[0]!.time;
  p.l0 = d.vertices[0]!.lineID;
  p.t1 = d.vertices[1]?.time ?? 0;
  p.l1 = d.vertices[1]?.lineID ?? 0;
  return p;
}

test('each batch lists the topologies it uses and the categories and lineIDs no batch before it used', () => {
  listsWhatEachBatchUses('objects');
});

test("so does a batch of the converters' parts (composites among them as objects)", () => {
  listsWhatEachBatchUses('parts');
});

test('a batch grown for a wide composite keeps taking parts up to its grown capacity', () => {
  const enc = new DrawableBatchEncoder((c) => (c === 9 ? 'state' : 'event'));
  // wider than the small first batch (512 primitives): the batch is grown to take it
  const members: Primitive[] = [];
  for (let k = 0; k < 600; k++) members.push({ kind: 'primitive', category: 1, vertices: [{ time: 1, lineID: 0 }], earliest: 1, latest: 1 });
  enc.add({ kind: 'composite', category: 9, primitives: members, earliest: 1, latest: 1 });
  assert.equal(enc.readyCount, 0);
  const parts = new PrimitiveParts();
  let added = 1;
  while (enc.readyCount === 0) {
    Object.assign(parts, { category: 1, earliest: 2, latest: 2, vertices: 1, t0: 2, l0: 0 });
    enc.addParts(parts);
    added++;
  }
  const b = enc.takeReady()!;
  assert.equal(b.primitives, b.primTopology.length, 'filled up to its grown primitive capacity, not sealed before');
  assert.ok(b.primitives > 600 + 400, `${b.primitives} primitives`);
  assert.equal(b.count + enc.pending, added, 'the entry that did not fit went into the next batch');
});
