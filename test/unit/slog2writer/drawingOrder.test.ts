// drawingOrderOf equals a stable built-in sort on the five keys, whichever way it takes: entries
// nearly in order as they arrive (by end time, few ranks: insertion from arrival order), far out
// of order (many ranks: the pilot gives up, buckets), out of order only after the pilot, ties.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { drawingOrderOf, type OrderKeys } from '../../../src/core/formats/slog2/writer/drawingOrder';

interface Entry {
  e: number;
  l: number;
  c: number;
  s: number;
  f: number;
}

function keysOf(entries: readonly Entry[]): OrderKeys {
  return {
    earliest: Float64Array.from(entries, (x) => x.e),
    latest: Float64Array.from(entries, (x) => x.l),
    category: Int32Array.from(entries, (x) => x.c),
    startLine: Int32Array.from(entries, (x) => x.s),
    finalLine: Int32Array.from(entries, (x) => x.f),
  };
}

/** The oracle: a stable sort of the subset by (earliest ↑, latest ↓, category ↑, start line ↑, final line ↑). */
function expected(entries: readonly Entry[], subset: readonly number[]): number[] {
  return [...subset].sort((a, b) => {
    const x = entries[a]!;
    const y = entries[b]!;
    return x.e - y.e || y.l - x.l || x.c - y.c || x.s - y.s || x.f - y.f;
  });
}

/** States of `ranks` ranks, nested up to 3 deep, in arrival order (by end time), with events and ties. */
function arrivals(n: number, ranks: number, prng: Prng): Entry[] {
  const out: Entry[] = [];
  let t = 0;
  while (out.length < n) {
    const rank = Math.floor(prng.next() * ranks);
    const e = t + Math.floor(prng.next() * 4);
    const inner = Math.floor(prng.next() * 3);
    // children end before their parent: they arrive first
    for (let k = 0; k < inner; k++) out.push({ e: e + 1 + k, l: e + 1 + k + (prng.next() < 0.3 ? 0 : 1), c: 2 + k, s: rank, f: rank });
    out.push({ e, l: e + inner + 2, c: 1, s: rank, f: rank });
    if (prng.next() < 0.2) out.push({ e: e + inner + 2, l: e + inner + 2, c: 9, s: rank, f: rank }); // an event at the end
    t += 1 + Math.floor(prng.next() * (4 / ranks + 1));
  }
  out.length = n;
  // arrival order is by end time (stable)
  return out
    .map((x, i) => ({ x, i }))
    .sort((a, b) => a.x.l - b.x.l || a.i - b.i)
    .map((a) => a.x);
}

test('drawing order: nearly in order, far out of order, late disorder and ties all equal a stable sort', () => {
  const prng = new Prng(11);
  const cases: [string, Entry[]][] = [];
  for (const n of [0, 1, 2, 7, 255, 256, 257, 3000])
    for (const ranks of [1, 2, 16, 300]) cases.push([`${n} entries, ${ranks} ranks`, arrivals(n, ranks, prng)]);
  // in order for the pilot, reversed after it (the full budget runs out late)
  const late = arrivals(2000, 1, prng);
  late.splice(400, 1600, ...late.slice(400).reverse());
  cases.push(['disorder after the pilot', late]);
  cases.push(['all ties', Array.from({ length: 600 }, () => ({ e: 5, l: 6, c: 1, s: 0, f: 0 }))]);
  cases.push([
    'random',
    Array.from({ length: 1000 }, () => ({ e: Math.floor(prng.next() * 50), l: 60, c: Math.floor(prng.next() * 3), s: Math.floor(prng.next() * 2), f: 0 })),
  ]);
  for (const [name, entries] of cases) {
    const keys = keysOf(entries);
    const all = entries.map((_, i) => i);
    // the whole node, and every other entry (a list of one kind: nestless or nestable)
    for (const subset of [all, all.filter((i) => i % 2 === 1)]) {
      const got = Array.from(drawingOrderOf(keys, Uint32Array.from(subset), subset.length));
      assert.deepEqual(got, expected(entries, subset), `${name}, ${subset.length} of them`);
    }
  }
});

test('times a subnormal span apart (a crafted file) are each placed once, in order', () => {
  // buckets / span overflows to ∞ there; the earliest entry's bucket was 0 · ∞ = NaN, so it was
  // never placed and another entry was written twice (the fuzzer's writer:209:2567)
  const prng = new Prng(7);
  for (const span of [1e-314, 5e-324 * 40, 2.2e-308, 1e-305]) {
    const entries: Entry[] = [];
    // far out of order (reversed), so that the pilot insertion sort gives up and buckets sort
    for (let i = 0; i < 400; i++) {
      const e = (span * (399 - i)) / 399;
      entries.push({ e, l: e + span * prng.next(), c: prng.int(0, 3), s: prng.int(0, 4), f: prng.int(0, 4) });
    }
    const subset = entries.map((_, i) => i);
    const got = [...drawingOrderOf(keysOf(entries), Uint32Array.from(subset), subset.length)];
    assert.deepEqual(got, expected(entries, subset), `span ${span}`);
  }
});

test('times whose span overflows (max − min = ∞, a crafted file) are each placed once, in order', () => {
  // buckets / ∞ is 0, and the entry at the far end got (∞ · 0 =) NaN for its bucket: it was never
  // placed and another one was written twice. Its bucket is now stored in a Uint32Array (NaN → 0):
  // every entry in the one bucket, sorted on the full key.
  const prng = new Prng(11);
  const entries: Entry[] = [];
  for (let i = 0; i < 600; i++) {
    const e = (i % 7) * 1e300 * (i % 2 === 1 ? 1 : -1);
    entries.push({ e, l: 1.7e308, c: prng.int(0, 3), s: prng.int(0, 4), f: prng.int(0, 4) });
  }
  entries[5] = { ...entries[5]!, e: -1.7e308 };
  entries[9] = { ...entries[9]!, e: 1.7e308 };
  // in arrival order, as the writer asks (the times alternate in sign: far out of order)
  const subset = entries.map((_, i) => i);
  const got = [...drawingOrderOf(keysOf(entries), Uint32Array.from(subset), subset.length)];
  assert.equal(new Set(got).size, entries.length, 'each entry once');
  assert.deepEqual(got, expected(entries, subset));
});

test('a run of nodes whose pilots give up (then skipped), then nodes nearly in order: each equals a stable sort', () => {
  // After a few pilots in a row give up, calls go straight to the buckets (a pilot is retried now
  // and then); the order must not depend on which way a call took.
  const prng = new Prng(23);
  const shapes = [...Array<number>(40).fill(300), ...Array<number>(40).fill(1), ...Array<number>(20).fill(16), ...Array<number>(20).fill(2)];
  shapes.forEach((ranks, call) => {
    const entries = arrivals(256 + prng.int(0, 600), ranks, prng);
    const subset = entries.map((_, i) => i);
    const got = Array.from(drawingOrderOf(keysOf(entries), Uint32Array.from(subset), subset.length));
    assert.deepEqual(got, expected(entries, subset), `call ${call}: ${entries.length} entries, ${ranks} ranks`);
  });
});
