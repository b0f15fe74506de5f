import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LineIDMap } from '../../../src/core/model/types';
import { pathLayout, rowLayoutOf } from '../../../src/core/query/rows';
import { parseLineIDMapList } from '../../../src/core/formats/slog2/lineIDMaps';
import { encodeLineIDMaps } from '../../../src/core/formats/slog2/writer/encode';
import { BinaryReader } from '../../../src/core/bytes/binaryReader';
import { rng } from '../../helpers/rng';

function singleColumnMap(seed: number): LineIDMap {
  const r = rng(seed);
  const n = 1 + Math.floor(r() * 300);
  const spread = 1 + Math.floor(r() * 2 * n);
  const rows = Array.from({ length: n }, () => ({
    // repeated line IDs and repeated values (several line IDs on one row), negatives, 0
    lineID: Math.floor(r() * 1.2 * n),
    path: [Math.floor(r() * spread) - (r() < 0.2 ? spread : 0)],
  }));
  return { title: `map ${seed}`, columns: ['world_rank'], rows, methods: [] };
}

test('rows of a one-column map: the numeric layout equals the general one (labels, row of every line ID)', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const map = singleColumnMap(seed);
    const fast = rowLayoutOf(map);
    const general = pathLayout(map);
    assert.deepEqual(fast.labels, general.labels, `seed ${seed}`);
    assert.deepEqual([...fast.rowOfLine], [...general.rowOfLine], `seed ${seed}`);
    assert.equal(fast.title, general.title);
    assert.deepEqual(fast.columns, general.columns);
  }
  // rows sorted by rank, labels as the rank
  const layout = rowLayoutOf({ title: 'P', columns: ['world_rank'], rows: [10, 2, -1, 2].map((v, i) => ({ lineID: i, path: [v] })), methods: [] });
  assert.deepEqual(layout.labels, ['-1', '2', '10']);
  assert.deepEqual(
    [...layout.rowOfLine],
    [
      [0, 2],
      [1, 1],
      [2, 0],
      [3, 1],
    ],
  );
});

test('rows of maps with other paths take the general way (two columns, a non-integer value)', () => {
  const two: LineIDMap = {
    title: 'C',
    columns: ['commID', 'comm_rank'],
    rows: [
      { lineID: 0, path: [1, 0] },
      { lineID: 1, path: [0, 3] },
    ],
    methods: [],
  };
  assert.deepEqual(rowLayoutOf(two).labels, ['0 / 3', '1 / 0']);
  const odd: LineIDMap = {
    title: 'X',
    columns: ['x'],
    rows: [
      { lineID: 0, path: [1.5] },
      { lineID: 1, path: [1] },
    ],
    methods: [],
  };
  assert.deepEqual(rowLayoutOf(odd), pathLayout(odd));
});

test('LineIDMapList paths of one, two and three columns parse back as written', () => {
  const maps: LineIDMap[] = [1, 2, 3, 5].map((ncols) => ({
    title: `${ncols} columns`,
    columns: Array.from({ length: ncols }, (_, c) => `c${c}`),
    rows: Array.from({ length: 7 }, (_, k) => ({ lineID: k * 3, path: Array.from({ length: ncols }, (_, c) => k * 10 - c) })),
    methods: [],
  }));
  const bytes = encodeLineIDMaps(maps);
  const parsed = parseLineIDMapList(new BinaryReader(bytes, 0, 'maps.bin'));
  assert.deepEqual(parsed, maps);
  for (const m of parsed) for (const r of m.rows) assert.equal(r.path.length, m.columns.length);
});
