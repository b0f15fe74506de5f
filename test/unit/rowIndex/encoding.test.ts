/**
 * The index bytes themselves, pinned: the SHA-256 of the index of every SLOG-2 fixture and of a
 * synthetic wide trace (with sources) equals that of the builder before the two-phase chunk
 * regrouper (per-run growing buffers, commit a093a0b). Small chunks, so that runs skip nodes and
 * buffers are reused from chunk to chunk. A deliberate change of the layout changes these values
 * and ROW_INDEX_VERSION together (version 3: the checksums' rotated lanes, rowIndex/format.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fixturesDir } from '../../helpers/paths';
import { indexBytes, openSlog2Fixture, synthSlog2 } from './rowIndexHelpers';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex').slice(0, 16);

const EXPECTED: Record<string, string> = {
  'bigrun_medium_4.slog2.gz': 'd48d85a62be4db0c',
  'collectives_8.slog2': 'f7a01ba6ba2baf9d',
  'grid_comms_16.slog2': '1cee0783c5585c16',
  'pi_bcast_4.slog2': 'a2e1fef2fc1cd360',
  'ring_p2p_4.slog2': '5670a96f92b456d5',
  'threads_2x3.slog2': 'a84fc01a30568406',
  'user_states_4.slog2': '7f25cb20f6664ffc',
  // The index copies shadow bytes: this SLOG-2 is written here, and since 9c5a65a its NaN ratios
  // are Java's 0x7fc00000 (were 0xffc00000 where x86 made them); the index layout is unchanged.
  'synth 256': '4d723b9262229c9f',
};

test('row index bytes: the same as the per-run-buffer builder wrote, on every fixture and a wide trace', async () => {
  const got: Record<string, string> = {};
  for (const name of fs
    .readdirSync(fixturesDir)
    .filter((f) => /\.slog2(\.gz)?$/.test(f))
    .sort()) {
    const file = await openSlog2Fixture(name);
    try {
      got[name] = sha(await indexBytes(file, { blockKeys: 2, chunkBytes: 4096 }));
    } finally {
      await file.close();
    }
  }
  const wide = await synthSlog2(256, 1 << 20);
  try {
    got['synth 256'] = sha(await indexBytes(wide, { blockKeys: 16, chunkBytes: 64 << 10 }));
  } finally {
    await wide.close();
  }
  if (process.env.MPE_PRINT_INDEX_HASHES) console.log(JSON.stringify(got, null, 2));
  assert.deepEqual(got, EXPECTED);
});
