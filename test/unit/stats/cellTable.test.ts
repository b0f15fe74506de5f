import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CellTable } from '../../../src/core/stats/cellTable';
import { rng } from '../../helpers/rng';

const ODD = [Number.NaN, 1.5, 2 ** 40, -(2 ** 33), -0];

test('cells: one per (line ID, category), found again; rows grouped in creation order (thousands of rows, odd keys)', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const r = rng(seed);
    const table = new CellTable();
    const expected = new Map<string, number>();
    const order = new Map<number, number[]>();
    const rows = 1 + Math.floor(r() * 5000);
    for (let i = 0; i < 20_000; i++) {
      const odd = r() < 0.02;
      const line = odd ? ODD[Math.floor(r() * ODD.length)]! : Math.floor(r() * rows) - (r() < 0.05 ? rows : 0);
      const category = r() < 0.02 ? ODD[Math.floor(r() * 4)]! : Math.floor(r() * 40) - 3;
      const k = table.index(line, category);
      // Map keys as Map sees them (−0 is 0, NaN is NaN)
      const key = `${Object.is(line, -0) ? 0 : line},${category}`;
      const seen = expected.get(key);
      if (seen === undefined) {
        assert.equal(k, expected.size, `seed ${seed}: a new cell takes the next number`);
        expected.set(key, k);
        const l = Object.is(line, -0) ? 0 : line;
        const list = [...order.entries()].find(([x]) => Object.is(x, l))?.[1];
        if (list) list.push(k);
        else order.set(l, [k]);
      } else assert.equal(k, seen, `seed ${seed}: (${key}) found again`);
      table.count[k]++;
    }
    const lines = [...order.keys()].sort((a, b) => a - b);
    assert.deepEqual(table.lineIDs(), lines, `seed ${seed}`);
    for (const l of lines) assert.deepEqual([...table.cellsOf(l)], order.get(l), `seed ${seed}: cells of ${l}`);
    assert.deepEqual([...table.cellsOf(123_456_789)], []);
  }
});

test('cells: shortest and longest instances with their tie rules, through part() and absorb()', () => {
  const a = new CellTable();
  const k = a.index(3, 7);
  assert.equal(a.shortestOf(k), undefined);
  a.min[k] = Infinity;
  a.extremes(k, 2, 10, 12, 3);
  a.extremes(k, 2, 9, 11, 3); // a tie: the earlier instance
  a.extremes(k, 5, 20, 25, 3);
  a.extremes(k, 5, 20, 25, 3);
  assert.deepEqual(a.shortestOf(k), { earliest: 9, latest: 11, lineID: 3 });
  assert.deepEqual(a.longestOf(k), { earliest: 20, latest: 25, lineID: 3 });
  const b = new CellTable();
  b.index(1, 1); // a cell with no instances
  const kb = b.index(3, 7);
  b.extremes(kb, 2, 8, 10, 3); // same duration, earlier: takes the shortest
  b.extremes(kb, 1, 30, 31, 3);
  b.extremes(kb, 5, 21, 26, 3); // same longest duration, later: does not
  a.absorb(b.part());
  assert.deepEqual(a.shortestOf(k), { earliest: 30, latest: 31, lineID: 3 });
  assert.deepEqual(a.longestOf(k), { earliest: 20, latest: 25, lineID: 3 });
  assert.equal(a.min[k], 1);
  assert.equal(a.max[k], 5);
  // a tie between line IDs goes by the earlier time first, the lower line ID only at equal times
  const c = new CellTable();
  const kc = c.index(0, 0);
  c.extremes(kc, 4, 1, 5, 50);
  c.extremes(kc, 4, 2, 6, 0);
  c.extremes(kc, 4, 1, 5, 40);
  assert.deepEqual(c.shortestOf(kc), { earliest: 1, latest: 5, lineID: 40 });
  assert.deepEqual(c.longestOf(kc), { earliest: 1, latest: 5, lineID: 40 });
  const empty = a.index(1, 1);
  assert.equal(a.shortestOf(empty), undefined);
  assert.equal(a.longestOf(empty), undefined);
  assert.deepEqual(a.lineIDs(), [1, 3]);
});
