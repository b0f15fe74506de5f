/**
 * The index file next to its trace: built atomically, reused when current, rebuilt with a message
 * when stale or damaged; a damaged segment is refused with a FormatError at query time (never a
 * wrong window); `mpe-trace index --check` reports it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { buildWindow } from '../../../src/core/query/buildWindow';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { IndexedWindowSource, RowKeyMapper } from '../../../src/core/query/indexedSource';
import { FileSource } from '../../../src/io/fileSource';
import { defaultRowIndexPath, ensureRowIndexFile, openRowIndexFile } from '../../../src/io/rowIndexFile';
import { fixture } from '../../helpers/paths';

function tempCopy(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rowidx-'));
  const p = path.join(dir, name);
  fs.copyFileSync(fixture(name), p);
  return p;
}

test('index file: built once, reused, rebuilt when stale or damaged (with a message)', async () => {
  const trace = tempCopy('grid_comms_16.slog2');
  const indexPath = defaultRowIndexPath(trace);
  const file = await Slog2File.open(await FileSource.open(trace));
  try {
    const notes: string[] = [];
    const first = await ensureRowIndexFile(file, trace, indexPath, { note: (m) => notes.push(m) });
    await first.close();
    assert.equal(notes.length, 0, 'a missing index is built without complaint');
    assert.deepEqual(fs.readdirSync(path.dirname(trace)).sort(), [path.basename(trace), path.basename(indexPath)].sort(), 'no temp file left');
    const built = fs.statSync(indexPath).mtimeMs;

    const again = await ensureRowIndexFile(file, trace, indexPath, { note: (m) => notes.push(m) });
    await again.close();
    assert.equal(fs.statSync(indexPath).mtimeMs, built, 'a current index is reused');

    // Stale: the trace's mtime changed.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(trace, later, later);
    const stale = await openRowIndexFile(file, trace, indexPath);
    assert.ok('problem' in stale && /stale/.test(stale.problem), JSON.stringify(stale));
    await (await ensureRowIndexFile(file, trace, indexPath, { note: (m) => notes.push(m) })).close();
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /stale.*rebuilding/);

    // Damaged header.
    const bytes = fs.readFileSync(indexPath);
    bytes[20] = bytes[20]! ^ 0xff;
    fs.writeFileSync(indexPath, bytes);
    const damaged = await openRowIndexFile(file, trace, indexPath);
    assert.ok('problem' in damaged && /checksum/.test(damaged.problem), JSON.stringify(damaged));
    await (await ensureRowIndexFile(file, trace, indexPath, { note: (m) => notes.push(m) })).close();
    assert.match(notes[1]!, /row index ignored: .*checksum.*rebuilding/);
  } finally {
    await file.close();
  }
});

test('index file: a damaged segment is refused at query time, not drawn', async () => {
  const trace = tempCopy('grid_comms_16.slog2');
  const indexPath = defaultRowIndexPath(trace);
  const file = await Slog2File.open(await FileSource.open(trace));
  try {
    await (await ensureRowIndexFile(file, trace, indexPath)).close();
    const bytes = fs.readFileSync(indexPath);
    // Flip a byte in the data area (after the header, before the directory at the end).
    const at = Math.floor(bytes.length / 3);
    bytes[at] = bytes[at]! ^ 0x10;
    fs.writeFileSync(indexPath, bytes);
    const opened = await openRowIndexFile(file, trace, indexPath);
    assert.ok('index' in opened, 'header and directory are intact');
    const index = opened.index;
    const layout = rowLayoutOf(file.lineIDMaps[index.keys.mapIndex]!);
    const [t0, t1] = file.timeRange;
    const ranges = new RowKeyMapper(index).keyRanges(layout, index.keys.mapIndex, 0, layout.labels.length)!;
    await assert.rejects(
      buildWindow(new IndexedWindowSource(index, ranges), {
        t0,
        t1,
        rowStart: 0,
        rowEnd: layout.labels.length,
        mapIndex: index.keys.mapIndex,
        lowestDepth: 0,
        rowOfLine: layout.rowOfLine,
      }),
      (e: unknown) => isFormatError(e) && /checksum|segment|expected/.test(e.message),
    );
    await index.close();
  } finally {
    await file.close();
  }
});
