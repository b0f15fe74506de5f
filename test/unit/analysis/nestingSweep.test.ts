// NestingSweep (exclusive time per process and state name) against a brute force over elementary
// intervals: each moment belongs to the innermost open state, "(no state)" between states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NestingSweep, NO_SITE, NO_STATE, StateNames } from '../../../src/core/analysis/nestingSweep';

interface St {
  readonly loc: number;
  readonly name: string;
  readonly enter: number;
  readonly exit: number;
}

/** Well-nested states of one process: a random tree of calls, in increasing start time. */
function nestedStates(loc: number, next: () => number): St[] {
  const out: St[] = [];
  const call = (from: number, to: number, depth: number): void => {
    let t = from;
    while (t < to && depth < 5) {
      const a = t + Math.floor(next() * 3);
      const b = Math.min(to, a + Math.floor(next() * 8));
      if (a > b) break;
      out.push({ loc, name: `S${depth}${Math.floor(next() * 2)}`, enter: a, exit: b });
      if (next() < 0.6) call(a, b, depth + 1);
      t = b + Math.floor(next() * 2);
    }
  };
  call(0, 60, 0);
  return out;
}

function bruteForce(states: readonly St[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const loc of new Set(states.map((s) => s.loc))) {
    const mine = states.filter((s) => s.loc === loc);
    const points = [...new Set(mine.flatMap((s) => [s.enter, s.exit]))].sort((a, b) => a - b);
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i]!, points[i + 1]!];
      // Innermost: the last added of those covering [a, b] (a child starts no earlier than its parent).
      const open = mine.filter((s) => s.enter <= a && b <= s.exit);
      const name = open.length > 0 ? open.at(-1)!.name : NO_STATE;
      out.set(`${loc}/${name}`, (out.get(`${loc}/${name}`) ?? 0) + (b - a));
    }
  }
  return out;
}

test('exclusive time per process and name equals the brute force, nested states of several processes interleaved', () => {
  let seed = 3;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let run = 0; run < 40; run++) {
    const states = [0, 1, 2].flatMap((loc) => nestedStates(loc, next));
    // One stream in start order (stable: a parent before the children starting with it).
    const stream = states.map((s, i) => ({ s, i })).sort((x, y) => x.s.enter - y.s.enter || x.i - y.i);
    const got = new Map<string, number>();
    const names = new StateNames();
    const sweep = new NestingSweep((loc, id, _site, a, b) => {
      const key = `${loc}/${names.names[id]}`;
      got.set(key, (got.get(key) ?? 0) + (b - a));
    });
    for (const { s } of stream) sweep.addState(s.loc, names.id(s.name), NO_SITE, s.enter, s.exit);
    sweep.finish();
    const want = bruteForce(states);
    for (const k of new Set([...want.keys(), ...got.keys()])) assert.equal(got.get(k) ?? 0, want.get(k) ?? 0, `run ${run} ${k}`);
  }
});

test('a state outlasting its parent is reported and ends with it; the sites of the spans are kept', () => {
  const spans: string[] = [];
  const overlaps: number[][] = [];
  const names = new StateNames();
  const sites = ['a.c:1', 'b.c:2'];
  const sweep = new NestingSweep(
    (loc, name, site, a, b) => spans.push(`${loc} ${names.names[name]} ${site === NO_SITE ? '-' : sites[site]} ${a}-${b}`),
    (loc, enter, exit, parentExit) => overlaps.push([loc, enter, exit, parentExit]),
  );
  sweep.addState(0, names.id('A'), 0, 0, 10);
  sweep.addState(0, names.id('B'), 1, 4, 12);
  sweep.addState(0, names.id('C'), NO_SITE, 14, 15);
  sweep.finish();
  assert.deepEqual(overlaps, [[0, 4, 12, 10]]);
  assert.deepEqual(spans, ['0 A a.c:1 0-4', '0 B b.c:2 4-10', `0 ${NO_STATE} - 10-14`, '0 C - 14-15']);
});

test('open states deeper than the first stack columns keep their names and sites', () => {
  const names = new StateNames();
  const spans: string[] = [];
  const sweep = new NestingSweep((_loc, name, site, a, b) => spans.push(`${names.names[name]}@${site} ${a}-${b}`));
  // 40 states nested in each other, each 1 s shorter at both ends than its parent.
  for (let d = 0; d < 40; d++) sweep.addState(0, names.id(`S${d}`), d, d, 100 - d);
  sweep.finish();
  const want = [...Array.from({ length: 40 }, (_, d) => `S${d}@${d} ${d}-${d + 1}`)];
  want[39] = 'S39@39 39-61';
  for (let d = 38; d >= 0; d--) want.push(`S${d}@${d} ${99 - d}-${100 - d}`);
  assert.deepEqual(spans, want);
});
