// The line table's world ranks (COMMEVT registrations; dense lineIDs in arrays, the rest in a Map)
// and the source-site table's interning (the last file remembered) answer as a plain Map would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { LineTable } from '../../../src/core/formats/convert/lineIDs';
import { SourceSiteTable } from '../../../src/core/formats/convert/sourceLocations';

test('line table: world ranks of registered, re-registered, wide and unknown lines as a Map gives them', () => {
  const prng = new Prng(7);
  for (const [worldSize, threads] of [
    [16, 1],
    [3000, 4],
    [70000, 1],
  ] as const) {
    const table = new LineTable(worldSize, threads);
    const oracle = new Map<number, number>();
    const comms = [0, 1, 2, 5, 40];
    // before any COMMEVT: rank on world, -1 elsewhere
    assert.equal(table.worldRankOf(0, 3, 0), 3);
    assert.equal(table.worldRankOf(2, 3, 0), -1);
    for (let k = 0; k < 3000; k++) {
      const lid = comms[Math.floor(prng.next() * comms.length)]!;
      const commRank = Math.floor(prng.next() * Math.min(worldSize, 500));
      const worldRank = Math.floor(prng.next() * worldSize);
      table.register(lid, commRank, worldRank); // later wins
      for (let t = 0; t < threads; t++) oracle.set(table.lineID(lid, commRank, t), worldRank);
    }
    let wide = 0;
    for (let k = 0; k < 5000; k++) {
      const icomm = comms[Math.floor(prng.next() * comms.length)]!;
      const rank = Math.floor(prng.next() * Math.min(worldSize, 600));
      const thread = Math.floor(prng.next() * threads);
      const id = table.lineID(icomm, rank, thread);
      if (id >= 1 << 16) wide++;
      const expected = oracle.get(id) ?? (icomm === 0 ? rank : -1);
      assert.equal(table.worldRankOf(icomm, rank, thread), expected, `W=${worldSize} T=${threads}: (${icomm}, ${rank}, ${thread})`);
    }
    if (worldSize * threads * 40 > 1 << 16) assert.ok(wide > 0, 'lineIDs past the dense range were asked');
  }
});

test('source sites: one object per (file, line), whichever file was looked up last', () => {
  const sites = new SourceSiteTable();
  const a1 = sites.record('a.c', 1);
  const b1 = sites.record('b.c', 1);
  assert.notEqual(a1, b1);
  assert.equal(sites.record('a.c', 1), a1);
  assert.equal(sites.intern('b.c', 1), b1);
  assert.deepEqual(sites.intern('b.c', 2), { file: 'b.c', line: 2 });
  assert.equal(sites.record('a.c', 2).file, 'a.c');
  assert.equal(sites.distinctSites, 3);
  assert.equal(sites.records, 4);
});
