// Hand-computed statistics on small synthetic drawable sets (SLOG2.md §16 recommendation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Drawable } from '../../../src/core/model/types';
import { computeRangeStats, batchesOf, RangeStatsAccumulator, type RangeStats } from '../../../src/core/stats';
import { A, B, EV, MSG, event, message, meta, state } from './synthetic';

const EPS = 1e-12;

function close(actual: number | undefined, expected: number, what: string): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= EPS * Math.max(1, Math.abs(expected)), `${what}: ${actual} != ${expected}`);
}

function cat(s: RangeStats, index: number) {
  const c = s.categories.find((x) => x.index === index);
  assert.ok(c, `category ${index} present`);
  return c;
}

async function stats(drawables: Drawable[], range: [number, number]): Promise<RangeStats> {
  return computeRangeStats(meta, [{ drawables }], range);
}

// Row 0: A[0,10] ⊃ B[2,4], B[5,6] ⊃ A[5.2,5.5]; event at 3.
const nested: Drawable[] = [state(A, 0, 10), state(B, 2, 4), state(B, 5, 6), state(A, 5.2, 5.5), event(EV, 3)];

test('nesting: exclusive = inclusive minus directly nested states', async () => {
  const s = await stats(nested, [0, 10]);
  assert.equal(s.kind, 'exact');
  const a = cat(s, A);
  assert.equal(a.count, 2);
  close(a.inclusive, 10.3, 'A incl');
  close(a.exclusive, 10 - 2 - 1 + 0.3, 'A excl');
  close(a.min, 0.3, 'A min');
  close(a.max, 10, 'A max');
  close(a.mean, 5.15, 'A mean');
  // share = exclusive ÷ (range × timelines): 2 timelines in the map.
  assert.equal(s.timelines, 2);
  close(a.share, 7.3 / 20, 'A share');
  close(cat(s, B).share, 2.7 / 20, 'B share');
  assert.equal(cat(s, EV).share, undefined, 'events have no time share');
  assert.deepEqual(a.longest, { earliest: 0, latest: 10, lineID: 0 });
  const b = cat(s, B);
  assert.equal(b.count, 2);
  close(b.inclusive, 3, 'B incl');
  close(b.exclusive, 2 + (1 - 0.3), 'B excl');
  const e = cat(s, EV);
  assert.equal(e.count, 1);
  assert.equal(e.inclusive, 0);
  assert.equal(e.exclusive, 0);
  assert.equal(s.drawables, 5);
  assert.equal(s.rows.length, 1);
  assert.equal(s.rows[0]!.label, '0');
  assert.equal(s.categories[0]!.index, A, 'sorted by inclusive');
});

test('clipping at both range ends; min/max stay full durations', async () => {
  const s = await stats(nested, [1, 5.3]);
  const a = cat(s, A);
  assert.equal(a.count, 2);
  close(a.inclusive, 4.3 + 0.1, 'A incl');
  close(a.exclusive, 4.3 - 2 - 0.3 + 0.1, 'A excl');
  close(a.max, 10, 'A max');
  close(a.min, 0.3, 'A min');
  const b = cat(s, B);
  close(b.inclusive, 2.3, 'B incl');
  close(b.exclusive, 2 + 0.3 - 0.1, 'B excl');
  close(a.share, (4.3 - 2 - 0.3 + 0.1) / (4.3 * 2), 'A share');
  assert.equal(cat(s, EV).count, 1);

  const late = await stats(nested, [6.5, 9]);
  assert.deepEqual(
    late.categories.map((c) => [c.index, c.count]),
    [[A, 1]],
  );
  close(late.categories[0]!.exclusive, 2.5, 'only the enclosing state');
});

test('closed intervals: a state ending exactly at the range start is counted with zero time', async () => {
  const s = await stats(nested, [6, 7]);
  const b = cat(s, B);
  assert.equal(b.count, 1);
  assert.equal(b.inclusive, 0);
  close(cat(s, A).exclusive, 1, 'A excl');
  assert.equal(
    s.categories.find((c) => c.index === EV),
    undefined,
  );
});

test('zero-duration states are counted when inside (closed range) and land in the zero bucket', async () => {
  const ds = [state(A, 0, 10), state(B, 4, 4), state(B, 8, 8)];
  const s = await stats(ds, [0, 4]);
  const b = cat(s, B);
  assert.equal(b.count, 1);
  assert.equal(b.inclusive, 0);
  assert.equal(b.min, 0);
  assert.equal(s.durations.find((h) => h.index === B)?.zero, 1);
  assert.equal(
    (await stats(ds, [4.5, 7])).categories.find((c) => c.index === B),
    undefined,
  );
});

test('ties in bounds are nested by drawing order (lower category index encloses)', async () => {
  const s = await stats([state(B, 1, 2), state(A, 1, 2)], [0, 3]);
  close(cat(s, A).exclusive, 0, 'A excl');
  close(cat(s, B).exclusive, 1, 'B excl');
});

test('FIFO re-entry: overlapping states of one category that do not nest keep their own time', async () => {
  const s = await stats([state(A, 0, 4), state(A, 2, 6), state(B, 3, 3.5)], [0, 6]);
  const a = cat(s, A);
  close(a.inclusive, 8, 'A incl');
  // B[3,3.5] is inside A[0,4] and A[2,6]; Jumpshot's stack gives it to the later one, A[2,6].
  close(a.exclusive, 8 - 0.5, 'A excl');
  close(cat(s, B).exclusive, 0.5, 'B excl');
});

test('nesting is per timeline', async () => {
  const s = await stats([state(A, 0, 10, 0), state(B, 2, 4, 1)], [0, 10]);
  close(cat(s, A).exclusive, 10, 'A excl');
  assert.deepEqual(
    s.rows.map((r) => [r.lineID, r.label, r.comm, r.categories.map((c) => c.index)]),
    [
      [0, '0', 0, [A]],
      [1, '1', 5, [B]],
    ],
  );
});

test('messages crossing the range: pairs, tags, communicators, sizes, clipped arrow time', async () => {
  const ds = [message(1, 0, 3, 1, 7, 100), message(4, 1, 2, 0, 9, 0), message(8, 0, 9, 1, 7, 5000)];
  const s = await stats(ds, [2.5, 3.5]);
  const m = s.messages;
  assert.equal(m.count, 2);
  assert.equal(m.bytes, 100);
  assert.deepEqual(m.pairs, [
    { from: 0, to: 1, count: 1, bytes: 100 },
    { from: 1, to: 0, count: 1, bytes: 0 },
  ]);
  assert.deepEqual(m.tags, [
    { key: 7, count: 1, bytes: 100 },
    { key: 9, count: 1, bytes: 0 },
  ]);
  assert.deepEqual(m.comms, [
    { key: 0, count: 1, bytes: 100 },
    { key: 5, count: 1, bytes: 0 },
  ]);
  assert.deepEqual(m.sizes, [
    { lower: 0, upper: 1, count: 1 },
    { lower: 64, upper: 128, count: 1 },
  ]);
  const msg = cat(s, MSG);
  assert.equal(msg.count, 2);
  close(msg.inclusive, 0.5 + 1, 'arrow time clipped');
  assert.equal(msg.exclusive, 0);
  close(msg.max, 2, 'full arrow duration');
  const all = await stats(ds, [0, 10]);
  assert.equal(all.messages.count, 3);
  assert.equal(all.messages.bytes, 5100);
  assert.deepEqual(all.messages.sizes.at(-1), { lower: 4096, upper: 8192, count: 1 });
});

test('message categories: count and bytes, no time share', async () => {
  const s = await stats([message(1, 0, 3, 1, 7, 100), message(4, 1, 5, 0, 9, 20)], [0, 10]);
  const msg = cat(s, MSG);
  assert.equal(msg.count, 2);
  assert.equal(msg.bytes, 120);
  assert.equal(msg.share, undefined);
});

test('a state ending before it starts lasts 0 s at its start time, and is counted as clamped (CLOG2.md)', async () => {
  // Row 0: A[0, 10] encloses a B recorded from 6 back to 2 (|Δt| = 4 must not count).
  const s = await stats([state(A, 0, 10), state(B, 6, 2)], [0, 10]);
  assert.equal(s.clampedStates, 1);
  const b = cat(s, B);
  assert.equal(b.count, 1);
  assert.equal(b.inclusive, 0);
  assert.equal(b.exclusive, 0);
  assert.equal(b.max, 0);
  assert.deepEqual(b.longest, { earliest: 6, latest: 6, lineID: 0 });
  close(cat(s, A).exclusive, 10, 'the enclosing state keeps all its time');
  // Outside the range by its start time, it is not counted at all.
  const late = await stats([state(A, 0, 10), state(B, 6, 2)], [0, 4]);
  assert.equal(late.clampedStates, 0);
  assert.equal(
    late.categories.find((c) => c.index === B),
    undefined,
  );
  // The sum of the shares stays ≤ 1.
  const total = s.categories.reduce((t, c) => t + (c.share ?? 0), 0);
  assert.ok(total <= 1 + 1e-12, `Σ share = ${total}`);
});

test('watermarked batches give the same result as one batch, and keep little pending', async () => {
  const ds: Drawable[] = [];
  for (let i = 0; i < 200; i++) {
    ds.push(state(A, i, i + 0.9, i % 2), state(B, i + 0.1, i + 0.5, i % 2), event(EV, i + 0.2, i % 2));
    ds.push(message(i + 0.3, i % 2, i + 1.2, (i + 1) % 2, i % 3, i * 10));
  }
  ds.push(state(A, -1, 300, 0));
  ds.sort((x, y) => x.earliest - y.earliest);
  const whole = await stats(ds, [3.3, 150.7]);
  const streamed = await computeRangeStats(meta, batchesOf(ds, { size: 7, ordered: true }), [3.3, 150.7]);
  assert.deepEqual(streamed, whole);
  // Big A (row 0): 147.4 minus the even-i small A's (73 × 0.9 + 0.7); small A's: 132.7 minus the B's (0.2 + 147 × 0.4).
  close(cat(whole, A).exclusive, 147.4 - (73 * 0.9 + 0.7) + (132.7 - (0.2 + 147 * 0.4)), 'exclusive sums');
});

test('a drawable before the watermark is a broken promise, not a silent wrong answer', () => {
  const acc = new RangeStatsAccumulator(meta, [0, 10]);
  acc.addDrawable(state(A, 2, 3));
  acc.advance(5);
  assert.throws(() => acc.addDrawable(state(B, 4, 6)), /watermark/);
});

test('cancellation and progress', async () => {
  const ctl = new AbortController();
  const seen: number[] = [];
  const batches = [
    { drawables: [state(A, 0, 1)], latest: 1 },
    { drawables: [state(A, 2, 3)], latest: 3 },
    { drawables: [state(A, 4, 5)], latest: 5 },
  ];
  await assert.rejects(
    computeRangeStats(meta, batches, [0, 10], {
      signal: ctl.signal,
      onProgress: (p) => {
        seen.push(p.fraction ?? -1);
        if (p.batches === 2) ctl.abort();
      },
    }),
    { name: 'AbortError' },
  );
  assert.deepEqual(seen, [0.1, 0.3]);
});

test('approximate: shadows count with their time share (Jumpshot §16), flagged approximate', async () => {
  const acc = new RangeStatsAccumulator(meta, [5, 10], 'approximate');
  acc.addShadow({
    category: -3,
    vertices: [
      { time: 0, lineID: 0 },
      { time: 10, lineID: 0 },
    ],
    earliest: 0,
    latest: 10,
    numRealObjs: 3,
    weights: [{ category: A, incl: 0.5, excl: 0.4, count: 3 }],
  });
  acc.addShadow({
    category: -2,
    vertices: [
      { time: 0, lineID: 0 },
      { time: 10, lineID: 1 },
    ],
    earliest: 0,
    latest: 10,
    numRealObjs: 4,
    weights: [{ category: MSG, incl: 1, excl: 0, count: 4 }],
  });
  acc.addDrawable(state(B, 6, 7));
  acc.addDrawable(state(B, 9, 12, 1));
  const s = acc.result();
  assert.equal(s.kind, 'approximate');
  const a = cat(s, A);
  close(a.inclusive, 2.5, 'shadow incl');
  close(a.exclusive, 2, 'shadow excl');
  close(a.count, 1.5, 'fractional count');
  assert.equal(a.min, undefined);
  assert.equal(cat(s, B).max, undefined, 'no durations in approximate results');
  const b = cat(s, B);
  close(b.inclusive, 2, 'real incl');
  close(b.count, 1 + 1 / 3, 'real fractional count');
  close(b.exclusive, 0 + 1, 'own time minus shadow-covered time on row 0 only');
  close(s.messages.count, 2, 'arrow shadow share');
});

test("composites count through their member primitives, under the members' categories", async () => {
  const members = [state(A, 1, 3), state(B, 1.5, 2)];
  const composite: Drawable = { kind: 'composite', category: EV, primitives: members, earliest: 1, latest: 3 };
  const s = await stats([composite], [0, 10]);
  assert.deepEqual(
    s.categories.map((c) => [c.index, c.count]),
    [
      [A, 1],
      [B, 1],
    ],
  );
  close(cat(s, A).exclusive, 1.5, 'nesting applies to members');
  assert.equal(s.drawables, 2);
});

test('categories outside the dense tables (huge or negative ids) and extreme durations count like small ones', async () => {
  // The accumulator finds cells and histograms by index for small categories, by map for others.
  const far = new Map(meta.categories);
  for (const [from, to] of [
    [A, 70001],
    [B, -7],
  ] as const)
    far.set(to, { ...meta.categories.get(from)!, index: to });
  const farMeta = { ...meta, categories: far };
  const durations = [1e-300, 3e-7, 0, 2, 1e300];
  const make = (a: number, b: number): Drawable[] => [state(a, 0, 10), state(b, 2, 4), ...durations.map((d) => state(b, 0, d, 1)), state(a, 5.2, 5.5)];
  const near = await computeRangeStats(meta, [{ drawables: make(A, B) }], [-1, 1e301]);
  const wide = await computeRangeStats(farMeta, [{ drawables: make(70001, -7) }], [-1, 1e301]);
  const strip = <T extends { index: number }>(xs: readonly T[]) => xs.map(({ index: _index, ...rest }) => rest);
  assert.deepEqual(
    strip(wide.categories.map(({ name: _name, rgba: _rgba, ...c }) => c)),
    strip(near.categories.map(({ name: _name, rgba: _rgba, ...c }) => c)),
  );
  for (const [x, y] of [
    [A, 70001],
    [B, -7],
  ] as const)
    assert.deepEqual(strip(wide.durations.filter((h) => h.index === y)), strip(near.durations.filter((h) => h.index === x)), `durations of ${y}`);
  assert.deepEqual(
    wide.rows.map((r) => strip(r.categories.map(({ name: _name, ...c }) => c))),
    near.rows.map((r) => strip(r.categories.map(({ name: _name, ...c }) => c))),
  );
  // Every positive duration lands in the bucket that holds it, from 1e-300 s to 1e300 s.
  const h = near.durations.find((x) => x.index === B)!;
  assert.equal(h.zero, 1);
  for (const d of [...durations.filter((d) => d > 0)]) {
    // Bounds are powers of 10 computed in floating point: a duration on a bound may sit either side.
    const holding = h.buckets.filter((k) => k.lower * (1 - 1e-12) <= d && d < k.upper * (1 + 1e-12));
    assert.ok(
      holding.some((k) => k.count >= 1),
      `a bucket holds ${d}`,
    );
  }
});
