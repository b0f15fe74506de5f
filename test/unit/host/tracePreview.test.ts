// The document's life around a preview, with the real conversion (in this thread): opening a CLOG2
// above the preview size shows its first bytes as a generation of their own, reports the whole
// conversion's progress beside it, then replaces it with the whole trace and removes its file.
// A preview that fails costs only itself; closing the document during the preview removes it.
import '../../helpers/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Uri } from '../../helpers/fakeVscode';
import type * as vscode from 'vscode';
import { TraceDocument, type DocumentState } from '../../../src/host/traceDocument';
import type { ConversionJob } from '../../../src/host/clogConversion';
import { convertFile } from '../../../src/convert/convertJob';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { bundleNode } from '../../helpers/bundle';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-doc-preview-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const input = path.join(dir, 'run.clog2');
const sizes = { minBytes: 1 << 20, prefixBytes: 1 << 20 };
const converterScript = bundleNode('src/worker/converter.ts', path.join(dir, 'converter.js'));

/**
 * A conversion job whose whole-file run waits for `release` (the test looks at the preview
 * meanwhile). With `snapshotEveryMs`, the whole conversion's snapshots come that often (the
 * document asks for one every 2 s: the test's file converts in less).
 */
function gatedJob(options: { failPreview?: boolean; snapshotEveryMs?: number } = {}) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const job: ConversionJob = async (inputPath, output, progress, signal, o) => {
    if (o?.prefixBytes !== undefined && options.failPreview) throw new Error('preview failed on purpose');
    if (o?.prefixBytes === undefined) await Promise.race([gate, new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);
    const r = await convertFile(inputPath, output, {
      force: true,
      signal,
      ...(o?.prefixBytes !== undefined ? { prefixBytes: o.prefixBytes } : {}),
      onProgress: (read, total) => progress.report(read / total),
      ...(progress.snapshots && options.snapshotEveryMs !== undefined
        ? { snapshots: { everyMs: options.snapshotEveryMs, onSnapshot: progress.snapshots.onSnapshot }, converterScript }
        : {}),
    });
    return { warnings: r.warnings, ...(r.runEnd !== undefined ? { runEnd: r.runEnd } : {}) };
  };
  return { job, release };
}

async function until(doc: TraceDocument, test: (s: DocumentState) => boolean, what: string): Promise<DocumentState> {
  for (let i = 0; i < 1000; i++) {
    if (test(doc.state)) return doc.state;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${what}: still ${doc.state.phase}`);
}

const previewShown = (s: DocumentState): boolean => s.phase === 'ready' && s.preview !== undefined;
const wholeShown = (s: DocumentState): boolean => s.phase === 'ready' && s.preview === undefined;

test('the preview first, with the progress of the whole; then the whole trace, and the preview file is gone', async () => {
  await synthesizeClog2File(input, { ranks: 8, bytes: 6e6, seed: 5 });
  const size = fs.statSync(input).size;
  const { job, release } = gatedJob();
  const storage = Uri.file(path.join(dir, 'storage-1')) as unknown as vscode.Uri;
  const doc = new TraceDocument(Uri.file(input) as unknown as vscode.Uri, storage, job, undefined, sizes);
  try {
    const progress: number[] = [];
    doc.onDidPreviewProgress((p) => progress.push(p));
    const shown = await until(doc, previewShown, 'the preview');
    assert.ok(shown.phase === 'ready' && shown.preview);
    const previewFile = shown.preview.path!;
    doc.notePainted(); // the whole conversion waits for the preview's first picture (or a second)
    assert.ok(fs.existsSync(previewFile));
    const previewGeneration = doc.generation;
    const previewEnd = shown.file.timeRange[1];
    const init = doc.initOrStatus();
    assert.ok(init.kind === 'init' && init.preview);
    const runEnd = init.preview.runEnd;
    assert.deepEqual(init.preview, { shownBytes: 1 << 20, totalBytes: size, progress: 0, runEnd });
    assert.ok(!init.categories.some((c) => c.name.startsWith('UnknownType')), 'the MPI states are named from the file end');

    release();
    const whole = await until(doc, wholeShown, 'the whole trace');
    assert.ok(whole.phase === 'ready');
    assert.equal(doc.generation, previewGeneration + 1);
    assert.ok(whole.file.timeRange[1] > previewEnd * 2, `${whole.file.timeRange[1]} after ${previewEnd}`);
    assert.equal(whole.file.timeRange[1], runEnd, 'the preview knew when the run ends');
    assert.ok(progress.length > 0 && progress.every((p, i) => p >= 0 && p <= 1 && (i === 0 || p >= progress[i - 1]!)), String(progress));
    const after = doc.initOrStatus();
    assert.ok(after.kind === 'init' && after.preview === undefined);
    for (let i = 0; i < 100 && fs.existsSync(previewFile); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(fs.existsSync(previewFile), false, 'the preview file is removed');
  } finally {
    doc.dispose();
  }
});

test('a preview that fails costs only itself: the whole conversion opens', async () => {
  const { job, release } = gatedJob({ failPreview: true });
  const storage = Uri.file(path.join(dir, 'storage-2')) as unknown as vscode.Uri;
  const seen: DocumentState[] = [];
  release();
  const doc = new TraceDocument(Uri.file(input) as unknown as vscode.Uri, storage, job, undefined, sizes);
  doc.onDidChange(() => seen.push(doc.state));
  try {
    await until(doc, (s) => s.phase === 'ready' || s.phase === 'error', 'open');
    assert.ok(wholeShown(doc.state), doc.state.phase);
    assert.ok(!seen.some(previewShown));
  } finally {
    doc.dispose();
  }
});

test('closing the document while the preview is shown removes the preview file', async () => {
  const { job } = gatedJob();
  const storage = Uri.file(path.join(dir, 'storage-3')) as unknown as vscode.Uri;
  const doc = new TraceDocument(Uri.file(input) as unknown as vscode.Uri, storage, job, undefined, sizes);
  const shown = await until(doc, previewShown, 'the preview');
  assert.ok(shown.phase === 'ready' && shown.preview);
  doc.dispose();
  const previewFile = shown.preview.path!;
  for (let i = 0; i < 100 && fs.existsSync(previewFile); i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(fs.existsSync(previewFile), false);
});

test('the rest fills in: snapshots of the whole conversion replace the preview, each showing more, then the whole trace', async () => {
  const { job, release } = gatedJob({ snapshotEveryMs: 0 });
  const storage = Uri.file(path.join(dir, 'storage-4')) as unknown as vscode.Uri;
  const doc = new TraceDocument(Uri.file(input) as unknown as vscode.Uri, storage, job, undefined, sizes);
  const shownBytes: number[] = [];
  const ends: number[] = [];
  const generations: number[] = [];
  doc.onDidChange(() => {
    const s = doc.state;
    if (s.phase !== 'ready') return;
    shownBytes.push(s.preview?.shownBytes ?? Infinity);
    ends.push(s.file.timeRange[1]);
    generations.push(doc.generation);
  });
  try {
    const shown = await until(doc, previewShown, 'the preview');
    assert.ok(shown.phase === 'ready' && shown.preview);
    const runEnd = shown.preview.runEnd;
    doc.notePainted();
    release();
    const whole = await until(doc, wholeShown, 'the whole trace');
    assert.ok(whole.phase === 'ready');
    const snapshots = shownBytes.filter((b) => b > 1 << 20 && b !== Infinity).length;
    assert.ok(snapshots >= 1, `snapshots shown: ${shownBytes.join(', ')}`);
    for (let i = 1; i < shownBytes.length; i++) {
      assert.ok(shownBytes[i]! > shownBytes[i - 1]!, `each generation shows more input: ${shownBytes.join(', ')}`);
      // A snapshot is shown only when it reaches further; the whole trace comes anyway (the last
      // snapshot, taken after the input's end, may already have all of it).
      const last = i === ends.length - 1;
      assert.ok(ends[i]! > ends[i - 1]! || (last && ends[i] === ends[i - 1]), `and reaches further: ${ends.join(', ')}`);
      assert.equal(generations[i], generations[i - 1]! + 1);
    }
    assert.equal(ends.at(-1), runEnd);
    const init = doc.initOrStatus();
    assert.ok(init.kind === 'init' && init.preview === undefined);
  } finally {
    doc.dispose();
  }
});
