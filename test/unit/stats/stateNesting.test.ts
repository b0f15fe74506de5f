// StateNesting (exclusive time by Jumpshot's stack) against a reference: every state of a row sorted
// in drawing order, then one stack sweep. States arrive in batches with watermarks, in order (the
// sorted fast path), out of order (the heap), and mixed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CellTable } from '../../../src/core/stats/cellTable';
import { StateNesting, compareDrawingOrder } from '../../../src/core/stats/nesting';

interface S {
  readonly line: number;
  readonly earliest: number;
  readonly latest: number;
  readonly category: number;
  readonly finalLineID: number;
  readonly own: number;
}

function reference(states: readonly S[]): Map<string, number> {
  const out = new Map<string, number>();
  const credit = (s: S, x: number) => out.set(`${s.line}/${s.category}`, (out.get(`${s.line}/${s.category}`) ?? 0) + x);
  for (const line of new Set(states.map((s) => s.line))) {
    const stack: S[] = [];
    for (const s of states.filter((x) => x.line === line).sort(compareDrawingOrder)) {
      while (stack.length > 0 && !(stack.at(-1)!.earliest <= s.earliest && s.latest <= stack.at(-1)!.latest)) stack.pop();
      credit(s, s.own);
      if (stack.length > 0) credit(stack.at(-1)!, -s.own);
      stack.push(s);
    }
  }
  return out;
}

/**
 * The nesting's sums over `batches`, a watermark after each: by default the next batch's earliest
 * start. `promise`: which states are added with StateNesting.add's inOrder promise.
 */
function viaNesting<T extends S>(
  batches: readonly T[][],
  options: { readonly promise?: (s: T) => boolean; readonly watermark?: (next: readonly T[]) => number } = {},
): Map<string, number> {
  const cells = new CellTable();
  const nesting = new StateNesting(cells);
  const keys: string[] = [];
  const watermark = options.watermark ?? ((next) => Math.min(...next.map((s) => s.earliest)));
  for (let b = 0; b < batches.length; b++) {
    for (const s of batches[b]!) {
      const cell = cells.index(s.line, s.category);
      keys[cell] = `${s.line}/${s.category}`;
      nesting.incoming.set([s.earliest, s.latest, s.own]);
      nesting.add(s.line, s.category, s.finalLineID, cell, options.promise?.(s) ?? false);
    }
    // The stream's promise: no later state starts before the watermark.
    const next = batches[b + 1];
    nesting.flush(next === undefined ? undefined : watermark(next));
  }
  nesting.flush();
  const out = new Map<string, number>();
  keys.forEach((k, cell) => out.set(k, (out.get(k) ?? 0) + cells.exclusive[cell]!));
  return out;
}

test('exclusive time equals the reference sweep, states in order, shuffled within batches, or mixed', () => {
  let seed = 5;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let run = 0; run < 60; run++) {
    const states: S[] = [];
    let t = 0;
    for (let i = 0; i < 400; i++) {
      t += Math.floor(next() * 3); // integer times: equal starts and ends happen
      const length = Math.floor(next() * 12);
      // own is a function of the bounds, as the clipped duration is: equal states are interchangeable.
      states.push({ line: Math.floor(next() * 3), earliest: t, latest: t + length, category: Math.floor(next() * 3), finalLineID: 0, own: length + 0.25 });
    }
    states.sort(compareDrawingOrder);
    const batches: S[][] = [];
    for (let i = 0; i < states.length;) {
      const n = 1 + Math.floor(next() * 40);
      const batch = states.slice(i, i + n);
      // Out of order within some batches (a stream's window merges nodes), in order in others.
      if (run % 3 === 1 || (run % 3 === 2 && next() < 0.3)) batch.sort(() => next() - 0.5);
      batches.push(batch);
      i += n;
    }
    const want = reference(states);
    const got = viaNesting(batches);
    for (const [k, v] of want) assert.ok(Math.abs((got.get(k) ?? 0) - v) < 1e-9, `run ${run} cell ${k}: ${got.get(k)} vs ${v}`);
  }
});

/*
 * A stream in drawing order by its own keys, where some states' nesting bounds are not those keys
 * (a state that ends before it starts is ordered by its vertices' span and nests as 0 long at its
 * start; a composite member by the composite's bounds): the rest are added with the promise that
 * nothing later comes before them (StateNesting.add's inOrder), and swept at once.
 */
test('states promised in order are swept at once: the same sums, to the bit, as waiting for watermarks; states out of their order wait', () => {
  let seed = 17;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let differed = 0;
  for (let run = 0; run < 80; run++) {
    const states: (S & { displaced: boolean; key: number })[] = [];
    let t = 0;
    for (let i = 0; i < 300; i++) {
      t += Math.floor(next() * 3);
      const length = Math.floor(next() * 12);
      const displaced = next() < 0.15;
      // Displaced: ordered in the stream by `t`, nesting as 0 long some time later.
      const at = displaced ? t + 1 + Math.floor(next() * 6) : t;
      const latest = displaced ? at : t + length;
      states.push({
        line: Math.floor(next() * 3),
        earliest: at,
        latest,
        category: Math.floor(next() * 3),
        finalLineID: 0,
        own: latest - at + 0.25,
        displaced,
        key: t,
      });
    }
    // The stream's order: by its keys (the drawing order of the bounds it was ordered by).
    states.sort((a, b) => a.key - b.key || compareDrawingOrder(a, b));
    const batches: (typeof states)[] = [];
    for (let i = 0; i < states.length;) {
      const n = 1 + Math.floor(next() * 30);
      batches.push(states.slice(i, i + n));
      i += n;
    }
    const byKey = (next: readonly { readonly key: number }[]) => next[0]!.key;
    const waiting = viaNesting(batches, { watermark: byKey });
    const promised = viaNesting(batches, { watermark: byKey, promise: (s) => !s.displaced });
    assert.deepEqual([...promised].sort(), [...waiting].sort(), `run ${run}`);
    const want = reference(states);
    for (const [k, v] of want) assert.ok(Math.abs((promised.get(k) ?? 0) - v) < 1e-9, `run ${run} cell ${k}: ${promised.get(k)} vs ${v}`);
    // Promising the displaced ones too breaks the sums somewhere: the promise is what keeps them right.
    const broken = viaNesting(batches, { watermark: byKey, promise: () => true });
    if ([...want].some(([k, v]) => Math.abs((broken.get(k) ?? 0) - v) >= 1e-9)) differed++;
  }
  assert.ok(differed > 10, `a wrong promise changed the sums in ${differed} of 80 runs`);
});
