// The fixture SLOG-2 traces as bytes and as opened files (plain, or gzip'd when big), in memory.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MemorySource } from '../../src/core/bytes/memorySource';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { fixture } from './paths';

/** The fixtures with reference facts, in test/fixtures (`bigrun_medium_4` gzip'd). */
export const FIXTURE_TRACES = ['ring_p2p_4', 'pi_bcast_4', 'collectives_8', 'grid_comms_16', 'threads_2x3', 'user_states_4', 'bigrun_medium_4'];

/** `name`.slog2, or `name`.slog2.gz unpacked. */
export function fixtureSlog2Bytes(name: string): Uint8Array {
  const plain = fixture(`${name}.slog2`);
  return new Uint8Array(fs.existsSync(plain) ? fs.readFileSync(plain) : gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
}

export function openFixtureSlog2(name: string, bytes = fixtureSlog2Bytes(name)): Promise<Slog2File> {
  return Slog2File.open(new MemorySource(`${name}.slog2`, bytes));
}

/** Two CLOG2 fixtures and the fuzzer's CLOG2/conversion regression inputs (damaged or crafted bytes). */
export function damagedClog2Inputs(): string[] {
  const regressions = path.join(path.dirname(fixture('pi_bcast_4.clog2')), 'regressions');
  return [
    fixture('pi_bcast_4.clog2'),
    fixture('grid_comms_16.clog2'),
    ...fs
      .readdirSync(regressions)
      .filter((f) => /^(clog2|convert|views|writer)-.*\.bin$/.test(f))
      .map((f) => path.join(regressions, f)),
  ];
}
