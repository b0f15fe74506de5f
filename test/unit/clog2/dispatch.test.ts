/**
 * CLOG2.md §11.6 / §15 on a hand-built file (written with the synthesizer's block writer): the
 * "reference crashes" cells are dropped and counted, undefined etypes become UnknownType-e<etype>
 * solo events, etype −1 is skipped, unnamed categories get UnknownType-<index> and palette colours,
 * lines without COMMEVT fall back, and definitions after their events still rename the categories.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { formatPreamble, MPE_EVENT_ID_LAYOUT } from '../../../src/core/formats/clog2/preamble';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { paletteEntry } from '../../../src/core/formats/convert/palette';
import { Clog2BlockWriter } from '../../../src/core/synth/clog2Writer';
import { bytesChunks } from './clogTestUtil';

async function build(): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const sink = async (c: Uint8Array): Promise<void> => {
    parts.push(c.slice());
  };
  const w = new Clog2BlockWriter(sink, 4096);
  await w.raw(
    formatPreamble({
      isBigEndian: true,
      isFinalized: true,
      blockSize: 4096,
      numBufferedBlocks: 1,
      maxCommWorldSize: 2,
      maxThreadCount: 1,
      ...MPE_EVENT_ID_LAYOUT,
      userStateIDCount: 1,
      userSoloEventIDCount: 0,
      commtableFptr: 0,
    }),
  );
  const gid = new Uint8Array(32);
  await w.comm(0, 0, 0, 0, 0, 0, 0, 0, gid);
  await w.comm(0, 0, 1, 0, 0, 0, 1, 1, gid);
  await w.bare(1, 0, 0, 0, 600); // user state 0 (index 301) start
  await w.eventDef(1.5, 0, 600, 'red', 'Bad'); // EVENTDEF on a state etype: ignored
  await w.msg(2, 0, 0, 0, 600, 0, 1, 5, 8); // MSGEVT on a state etype: dropped
  await w.cargo(2.5, 0, 0, 0, -101, new Uint8Array(32)); // CARGOEVT on the send etype: dropped
  await w.bare(2.6, 0, 1, 0, -102); // BAREEVT on the receive etype: dropped
  await w.bare(3, 0, 0, 0, 601); // closes the state
  await w.bare(3.5, 0, 0, 0, -1); // etype -1: skipped
  await w.bare(4, 0, 1, 0, 4242); // no handler: solo event UnknownType-e4242
  await w.bare(4.5, 0, 1, 0, 4242);
  await w.bare(5, 3, 1, 0, -10); // icomm 3 has no COMMEVT: fallback row, warning
  await w.bare(6, 0, 0, 0, 20); // MPI slot 10 (index 11), never defined: UnknownType-11
  await w.bare(7, 0, 0, 0, 21);
  await w.stateDef(8, 0, 300, 600, 601, 'gold', 'Work'); // after its events: still renames 301
  await w.stateDef(8, 0, 1, 600, 0, 'red', 'Mixed'); // etypes of two categories: ignored
  await w.endLog();
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

test('dispatch of records to handlers, with our rules where the reference crashes', async () => {
  const { drawables, summary } = await collectConversion(convertClog2(bytesChunks(await build(), 333), { name: 'hand.clog2' }));
  assert.deepEqual(
    summary.categories.map((c) => [c.index, c.name, c.topology, [...c.rgba], summary.categoryCounts.get(c.index)]),
    // Palette colours go to the categories that need one, in index order.
    [
      [11, 'UnknownType-11', 'state', [...paletteEntry(1)], 1],
      [301, 'Work', 'state', [255, 215, 0, 255], 1],
      [302, 'UnknownType-302', 'event', [...paletteEntry(2)], 1],
      [304, 'UnknownType-e4242', 'event', [...paletteEntry(3)], 2],
    ],
  );
  assert.equal(summary.unmatched.droppedRecords, 3);
  assert.equal(summary.drawables.total, drawables.length);
  assert.equal(summary.drawables.arrow, 0);
  const w = summary.warnings.join('\n');
  assert.match(w, /EVENTDEF Bad \(600\) names a state category; ignored/);
  assert.match(w, /two different categories/);
  assert.match(w, /etype 4242 has no definition/);
  assert.match(w, /no COMMEVT/);
  // The fallback row of icomm 3: world rank unknown (-1), comm 3 rank 1.
  const line = (3 * 2 + 1) | 0;
  const rows = summary.lineIDMaps[1]!.rows.find((r) => r.lineID === line);
  assert.deepEqual(rows?.path, [3, 1]);
  assert.deepEqual(summary.lineIDMaps[0]!.rows.find((r) => r.lineID === line)?.path, [-1]);
});

test('local (unmerged, little-endian) file: times shifted by its TIMESHIFT, with a warning', async () => {
  const parts: Uint8Array[] = [];
  const w = new Clog2BlockWriter(
    async (c) => {
      parts.push(c.slice());
    },
    2048,
    true,
  );
  await w.raw(
    formatPreamble({
      isBigEndian: false,
      isFinalized: false,
      blockSize: 2048,
      numBufferedBlocks: 1,
      maxCommWorldSize: 1,
      maxThreadCount: 1,
      knownEventIDStart: 0,
      userEventIDStart: 600,
      knownSoloEventIDStart: -10,
      userSoloEventIDStart: 5000,
      knownStateIDCount: 300,
      userStateIDCount: 100,
      knownSoloEventIDCount: 10,
      userSoloEventIDCount: 100,
      commtableFptr: 0,
    }),
  );
  await w.timeshift(0, 0, 0.5);
  await w.comm(0, 0, 0, 0, 0, 0, 0, 0, new Uint8Array(32));
  await w.bare(1, 0, 0, 0, 600);
  await w.bare(2, 0, 0, 0, 601);
  await w.endLog();
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    bytes.set(p, off);
    off += p.length;
  }
  const { drawables, summary } = await collectConversion(convertClog2(bytesChunks(bytes, 100), { name: 'local.clog2' }));
  assert.deepEqual(
    drawables.map((p) => p.vertices.map((v) => v.time)),
    [[1.5, 2.5]],
  );
  assert.match(summary.warnings.join('\n'), /local \(unmerged\) file/);
  assert.equal(summary.clog2?.preamble.isBigEndian, false);
});
