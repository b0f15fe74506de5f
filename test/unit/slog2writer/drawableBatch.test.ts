// Batches that come back from the writer thread (structured clones) are reused in the encoder's
// one shape: the same hidden class as a new batch, the same arrays, emptied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { adoptDrawableBatch, batchBuffers, newDrawableBatch, type DrawableBatch } from '../../../src/core/formats/slog2/writer/drawableBatch';
import type { Topology } from '../../../src/core/model/types';
import { PrimitiveParts } from '../../../src/core/formats/convert/pendingPrimitives';
import { DrawableBatchEncoder } from '../../../src/core/formats/slog2/writer/drawableBatchEncoder';

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
