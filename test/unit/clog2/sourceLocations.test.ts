/**
 * CLOG2.md §10: each SRCLOC record of user_states_4 lands on the drawable its source line logs
 * (checked by hand against corpus/programs/user_states.c), and `file %s line %d` info values give
 * the Region state a location too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { infoLocationSlots } from '../../../src/core/formats/convert/sourceLocations';
import { parseInfoFormat } from '../../../src/core/model/infoFormat';
import type { Primitive } from '../../../src/core/model/types';
import { fixture } from '../../helpers/paths';
import { fileChunks } from './clogTestUtil';

const loc = (p: Primitive, which: 'start' | 'end'): string | undefined => {
  const l = p.source?.[which];
  return l === undefined ? undefined : `${l.file}:${l.line}`;
};

test('user_states_4: SRCLOC sites attach to the drawables their call sites log', async () => {
  const { drawables, summary } = await collectConversion(convertClog2(fileChunks(fixture('user_states_4.clog2')), { name: 'user_states_4' }));
  const byName = new Map(summary.categories.map((c) => [c.name, c.index]));
  const of = (name: string): Primitive[] => drawables.filter((p) => p.category === byName.get(name));
  const startLocs = (name: string): Set<string | undefined> => new Set(of(name).map((p) => loc(p, 'start')));
  const endLocs = (name: string): Set<string | undefined> => new Set(of(name).map((p) => loc(p, 'end')));
  // line 80: SRCLOC(1); MPE_Log_event(phaseA) -> every Phase state starts there, 24 of them.
  assert.equal(of('Phase').length, 24);
  assert.deepEqual(startLocs('Phase'), new Set(['user_states.c:80']));
  assert.deepEqual(endLocs('Phase'), new Set([undefined]));
  // line 83: SRCLOC(2) before solveA; line 86: SRCLOC(3) before kernA (twice per iteration).
  assert.deepEqual(startLocs('Solve'), new Set(['user_states.c:83']));
  assert.equal(of('Kernel').length, 48);
  assert.deepEqual(startLocs('Kernel'), new Set(['user_states.c:86']));
  // The MPI_Allreduce inside the kernel is logged after kernA took the location: none.
  assert.deepEqual(startLocs('MPI_Allreduce'), new Set([undefined]));
  // line 113: SRCLOC(4) before the Region END event -> the Region state's end location; its start
  // location comes from the info value "file user_states.c line 108".
  assert.deepEqual(endLocs('Region'), new Set(['user_states.c:113']));
  assert.deepEqual(startLocs('Region'), new Set(['user_states.c:108']));
  // line 117: SRCLOC(5) before the Checkpoint event (rank it%size only, 6 events).
  assert.equal(of('Checkpoint').length, 6);
  assert.deepEqual(startLocs('Checkpoint'), new Set(['user_states.c:117']));
  // line 128: SRCLOC(6) before the Progress event; Marker (logged before it) has none.
  assert.deepEqual(startLocs('Progress'), new Set(['user_states.c:128']));
  assert.deepEqual(startLocs('Marker'), new Set([undefined]));
  // Every SRCLOC record was taken by exactly one drawable vertex.
  let taken = 0;
  for (const p of drawables) {
    if (p.source?.start && !(p.category === byName.get('Region'))) taken++;
    if (p.source?.end) taken++;
  }
  assert.equal(taken, summary.sourceLocations.records);
  assert.deepEqual(summary.sourceLocations, { records: 150, sites: 6 });
});

test('info formats with file/line keys are recognised', () => {
  const slots = (fmt: string): unknown => {
    const l = parseInfoFormat(fmt);
    return infoLocationSlots(l.keys, l.types);
  };
  assert.deepEqual(slots('file %s line %d'), { file: 0, line: 1 });
  assert.deepEqual(slots('line=%d, file=%s'), { file: 1, line: 0 });
  assert.equal(slots("source = %s()'s line %d."), undefined);
  assert.equal(slots('iter=%d residual=%E'), undefined);
  assert.equal(slots('profile %s inline %d'), undefined);
});
