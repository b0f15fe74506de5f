// A conversion shown as it goes (convertJob.ts `snapshots`): each snapshot of the SLOG-2 being
// written reads as a whole file of the drawables written so far, named by the definitions at the
// CLOG2's end, in one thread and in two; and the output is the same bytes as without snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { convertFile, type ConversionSnapshot } from '../../../src/convert/convertJob';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { snapshotSource } from '../../../src/core/formats/slog2/writer/snapshot';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { bundleNode } from '../../helpers/bundle';
import { damagedClog2Inputs } from '../../helpers/fixtureTraces';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-snapshots-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const converterScript = bundleNode('src/worker/converter.ts', path.join(dir, 'converter.js'));
const input = path.join(dir, 'run.clog2');

/** A snapshot with the bytes of its file as they were when it was taken (the file is renamed at the end). */
interface Taken {
  readonly snapshot: ConversionSnapshot;
  readonly written: Uint8Array;
}

async function check(taken: readonly Taken[], finalOutput: string): Promise<void> {
  assert.ok(taken.length >= 3, `${taken.length} snapshots`);
  const final = await Slog2File.open(new MemorySource('final', fs.readFileSync(finalOutput)));
  const finalNames = new Set([...final.categories.values()].map((c) => c.name));
  let finalCount = 0;
  for await (const _ of final.allDrawables()) finalCount++;
  let previous = 0;
  for (const { snapshot, written } of taken) {
    assert.ok(written.length >= snapshot.base, 'the written part was on disk when the snapshot came');
    const file = await Slog2File.open(snapshotSource(new MemorySource(snapshot.path, written), snapshot));
    assert.deepEqual(file.warnings, []);
    let count = 0;
    for await (const d of file.allDrawables()) {
      count++;
      const name = file.categories.get(d.category)?.name;
      assert.ok(name !== undefined && finalNames.has(name), `category ${name} of a snapshot is one of the final file's`);
    }
    assert.equal(count, snapshot.drawables);
    assert.ok(snapshot.drawables >= previous, 'snapshots grow');
    previous = snapshot.drawables;
    assert.ok(![...file.categories.values()].some((c) => c.name.startsWith('UnknownType')), 'the MPI states are named before their definitions are reached');
    assert.ok(snapshot.bytesRead > 0 && snapshot.bytesRead <= snapshot.totalBytes);
    assert.ok(file.timeRange[1] <= final.timeRange[1]);
    await file.close();
  }
  assert.ok(previous <= finalCount);
  assert.ok(taken.filter((t) => t.snapshot.drawables < finalCount).length >= 2, 'snapshots came before the end');
}

for (const threads of [1, 2] as const) {
  test(`snapshots of a conversion in ${threads} thread(s): valid, named, growing; the output unchanged`, async () => {
    if (!fs.existsSync(input)) await synthesizeClog2File(input, { ranks: 8, bytes: 6e6, srcloc: true, seed: 5 });
    const plain = path.join(dir, `plain-${threads}.slog2`);
    const shown = path.join(dir, `shown-${threads}.slog2`);
    const script = threads === 2 ? converterScript : undefined;
    await convertFile(input, plain, { force: true, converterScript: script });
    const taken: Taken[] = [];
    await convertFile(input, shown, {
      force: true,
      converterScript: script,
      snapshots: { everyMs: 0, onSnapshot: (snapshot) => taken.push({ snapshot, written: fs.readFileSync(snapshot.path) }) },
    });
    assert.ok(fs.readFileSync(shown).equals(fs.readFileSync(plain)), 'byte-identical output');
    await check(taken, shown);
  });
}

test('a gzip’d CLOG2 gets no snapshots (its definitions cannot be read ahead), and converts as before', async () => {
  if (!fs.existsSync(input)) await synthesizeClog2File(input, { ranks: 8, bytes: 6e6, srcloc: true, seed: 5 });
  const { gzipSync } = await import('node:zlib');
  const gz = path.join(dir, 'run.clog2.gz');
  fs.writeFileSync(gz, gzipSync(fs.readFileSync(input), { level: 1 }));
  let snapshots = 0;
  const r = await convertFile(gz, path.join(dir, 'gz.slog2'), { force: true, snapshots: { everyMs: 0, onSnapshot: () => snapshots++ } });
  assert.equal(snapshots, 0);
  assert.ok(r.written.drawables > 0);
});

test('damaged or crafted input: every snapshot taken opens and reads whole, and the output (or the error) is as without snapshots', async () => {
  const inputs = damagedClog2Inputs();
  let snapshots = 0;
  for (const file of inputs) {
    const plain = await convertFile(file, path.join(dir, 'plain.slog2'), { force: true }).then(
      () => fs.readFileSync(path.join(dir, 'plain.slog2')),
      (e: unknown) => String(e),
    );
    const taken: Taken[] = [];
    const shown = await convertFile(file, path.join(dir, 'shown.slog2'), {
      force: true,
      snapshots: { everyMs: 0, onSnapshot: (snapshot) => taken.push({ snapshot, written: fs.readFileSync(snapshot.path) }) },
    }).then(
      () => fs.readFileSync(path.join(dir, 'shown.slog2')),
      (e: unknown) => String(e),
    );
    if (typeof plain === 'string') assert.equal(shown, plain, `${path.basename(file)}: the same error`);
    else assert.ok(shown instanceof Buffer && shown.equals(plain), `${path.basename(file)}: the same bytes`);
    for (const { snapshot, written } of taken) {
      const file = await Slog2File.open(snapshotSource(new MemorySource(snapshot.path, written), snapshot));
      let count = 0;
      for await (const _ of file.allDrawables()) count++;
      assert.equal(count, snapshot.drawables);
      await file.close();
      snapshots++;
    }
  }
  assert.ok(snapshots >= 3, `${snapshots} snapshots of ${inputs.length} inputs`);
});
