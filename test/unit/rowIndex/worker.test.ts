// The row index built in the worker thread (as the editor does on first open): progress arrives,
// the file equals the in-process build, and it opens as the index of the trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { startRowIndexBuild } from '../../../src/worker/conversionClient';
import { FileSource } from '../../../src/io/fileSource';
import { openRowIndexFile, writeRowIndexFile } from '../../../src/io/rowIndexFile';
import { fixture } from '../../helpers/paths';
import { bundleNode } from '../../helpers/bundle';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-rowidx-worker-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

test('the worker builds the row index with progress; it equals the in-process build and opens', async () => {
  const workerJs = bundleNode('src/worker/conversionWorker.ts', path.join(dir, 'worker.js'));
  const trace = path.join(dir, 'grid.slog2');
  fs.copyFileSync(fixture('grid_comms_16.slog2'), trace);
  const out = path.join(dir, 'grid.mperowidx');
  const progress: number[] = [];
  await startRowIndexBuild(workerJs, trace, out, (done, total) => progress.push(done / total)).built;
  assert.ok(progress.length > 0 && progress[progress.length - 1] === 1, `progress ${progress}`);
  const file = await Slog2File.open(await FileSource.open(trace));
  try {
    const local = path.join(dir, 'local.mperowidx');
    await writeRowIndexFile(file, trace, local);
    assert.deepEqual(fs.readFileSync(out), fs.readFileSync(local));
    const opened = await openRowIndexFile(file, trace, out);
    assert.ok('index' in opened, JSON.stringify(opened));
    await opened.index.close();
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp files',
    );
  } finally {
    await file.close();
  }
  await assert.rejects(
    startRowIndexBuild(workerJs, path.join(dir, 'missing.slog2'), path.join(dir, 'm.mperowidx'), () => undefined).built,
    /no such file|ENOENT/,
  );
});
