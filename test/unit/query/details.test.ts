// The click popup's host side: a drawable named by (kind, category, rows, times) is found again in
// the file, its info text equals the reference dump and its source locations come from the
// SRCLOC records of the CLOG2 input (carried through our converter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { describeDrawable, findDrawable, type DrawableRef } from '../../../src/core/query/details';
import { convertFile } from '../../../src/convert/convertJob';
import { fixture } from '../../helpers/paths';

async function converted(): Promise<Slog2File> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'details-')), 'user_states_4.slog2');
  await convertFile(fixture('user_states_4.clog2'), out);
  return Slog2File.open(new MemorySource('user_states_4.slog2', new Uint8Array(fs.readFileSync(out))));
}

const ref = (r: Partial<DrawableRef> & Pick<DrawableRef, 'category' | 'row' | 'start' | 'end'>): DrawableRef => ({
  drawable: 'state',
  mapIndex: 0,
  toRow: r.row,
  lowestDepth: 0,
  tolerance: 1e-6,
  ...r,
});

test('a Compute state: info text as the reference prints it, vertices with their rank', async () => {
  const file = await converted();
  const layout = rowLayoutOf(file.lineIDMaps[0]!);
  // reference dump line 37: Compute on rank 1, "iter=0 residual=1.6448340718480652"
  const p = await findDrawable(file, layout, ref({ category: 304, row: layout.rowOfLine.get(1)!, start: 0.02406312200002958, end: 0.024079576000076486 }));
  assert.ok(p, 'found');
  const d = describeDrawable(file, p);
  assert.equal(d.categoryName, 'Compute');
  assert.equal(d.info, 'iter=0 residual=1.6448340718480652');
  assert.equal(d.vertices.length, 2);
  assert.match(d.vertices[0]!, /^\[0\]: time = 0\.0240631220000\d*, \w+ = 1$/);
  await file.close();
});

test('a Phase state on rank 0 carries the SRCLOC of user_states.c line 80', async () => {
  const file = await converted();
  const layout = rowLayoutOf(file.lineIDMaps[0]!);
  assert.ok(file.sourceLocationTable, 'the converted file has a source-location table (read once, at open)');
  const p = await findDrawable(
    file,
    layout,
    ref({ category: 301, row: layout.rowOfLine.get(0)!, start: 5.977900002562819e-5, end: 0.032010199999945144, lowestDepth: 1 }),
  );
  assert.ok(p, 'found');
  const d = describeDrawable(file, p);
  assert.equal(d.categoryName, 'Phase');
  assert.equal(d.info, '');
  assert.equal(d.source?.start?.line, 80);
  assert.match(d.source?.start?.file ?? '', /user_states\.c$/);
  await file.close();
});

test('nothing is found off by more than the tolerance, or on another row or category', async () => {
  const file = await converted();
  const layout = rowLayoutOf(file.lineIDMaps[0]!);
  const base = { category: 304, row: layout.rowOfLine.get(1)!, start: 0.02406312200002958, end: 0.024079576000076486 };
  assert.equal(await findDrawable(file, layout, ref({ ...base, start: base.start + 1e-4 })), undefined);
  assert.equal(await findDrawable(file, layout, ref({ ...base, row: layout.rowOfLine.get(2)! })), undefined);
  assert.equal(await findDrawable(file, layout, ref({ ...base, category: 301 })), undefined);
  assert.equal(await findDrawable(file, layout, ref({ ...base, drawable: 'event' })), undefined);
  await file.close();
});
