import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LineIDMap } from '../../../src/core/model/types';
import { keySpaceOf } from '../../../src/core/index/keys';
import { rng } from '../../helpers/rng';

/** The keys' order as format.ts states it: the index map's line IDs by (path, line ID), then the others by line ID. */
function expectedOrder(maps: readonly LineIDMap[]): number[] {
  const index = maps.findIndex((m) => /^Process/i.test(m.title));
  const pathOf = new Map<number, readonly number[]>();
  for (const r of maps[index >= 0 ? index : 0]!.rows) pathOf.set(r.lineID, r.path);
  const ids = [...new Set(maps.flatMap((m) => m.rows.map((r) => r.lineID)))];
  const onMap = ids.filter((id) => pathOf.has(id));
  const cmp = (a: readonly number[], b: readonly number[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  };
  onMap.sort((x, y) => cmp(pathOf.get(x)!, pathOf.get(y)!) || x - y);
  return [...onMap, ...ids.filter((id) => !pathOf.has(id)).sort((x, y) => x - y)];
}

function randomMaps(seed: number): LineIDMap[] {
  const r = rng(seed);
  const n = 1 + Math.floor(r() * 200);
  const kind = seed % 4;
  // 0: rank = line ID (MPE); 1: ranks shuffled; 2: ranks repeat (threads share a rank); 3: two columns
  const rows = Array.from({ length: n }, (_, i) => {
    const lineID = kind === 1 ? Math.floor(r() * 3 * n) - n : i + (r() < 0.1 ? n : 0);
    const rank = kind === 0 ? lineID : kind === 2 ? Math.floor(lineID / 2) : Math.floor(r() * n);
    return { lineID, path: kind === 3 ? [rank % 3, rank] : [rank] };
  });
  const extra = Array.from({ length: Math.floor(r() * 20) }, () => ({ lineID: Math.floor(r() * 4 * n) - n, path: [0, 1] }));
  return [
    {
      title: 'Communicator View',
      columns: ['commID', 'comm_rank'],
      rows: [...rows.slice(0, n >> 1).map((x) => ({ lineID: x.lineID, path: [0, 0] })), ...extra],
      methods: [],
    },
    { title: 'Process View', columns: kind === 3 ? ['a', 'b'] : ['world_rank'], rows, methods: [] },
  ];
}

test('row index keys: the index map by (path, line ID), then the other line IDs (by line ID and by the general order alike)', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const maps = randomMaps(seed);
    const space = keySpaceOf(maps);
    const expected = expectedOrder(maps);
    assert.deepEqual([...space.lineIDs], expected, `seed ${seed}`);
    assert.deepEqual(
      [...space.keyOfLine],
      expected.map((id, k) => [id, k]),
      `seed ${seed}`,
    );
    assert.equal(space.mapIndex, 1);
  }
});
