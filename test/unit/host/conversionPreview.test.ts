// Which inputs get a preview, and how it is made: local, uncompressed CLOG2 files above the size
// limit only; the job is asked for the prefix into the cache's preview folder; previews left by a
// killed host are removed after hours, a live one is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { convertPreview, LatestOnly } from '../../../src/host/conversionPreview';
import type { ConversionJob, ConversionJobOptions } from '../../../src/host/clogConversion';

const uri = (p: string, scheme = 'file'): vscode.Uri => ({ scheme, fsPath: p, path: p }) as unknown as vscode.Uri;
const sizes = { minBytes: 1000, prefixBytes: 400 };

test('a preview for a local CLOG2 above the limit: the prefix into the preview folder', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-preview-'));
  try {
    const asked: { input: string; output: string; options: ConversionJobOptions | undefined }[] = [];
    const job: ConversionJob = async (input, output, _p, _s, options) => {
      asked.push({ input, output, options });
      fs.writeFileSync(output, 'preview');
    };
    const storage = uri(path.join(dir, 'storage'));
    const write = (name: string, bytes: number): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, Buffer.alloc(bytes));
      return file;
    };
    const big = write('big.clog2', 5000);
    const made = await convertPreview(storage, uri(big), job, new AbortController().signal, sizes);
    assert.ok(made);
    assert.deepEqual({ shownBytes: made.shownBytes, totalBytes: made.totalBytes }, { shownBytes: 400, totalBytes: 5000 });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.input, big);
    assert.deepEqual(asked[0]!.options, { prefixBytes: 400 });
    assert.equal(path.dirname(made.path), path.join(dir, 'storage', 'slog2-cache', 'preview'));
    assert.equal(fs.readFileSync(made.path, 'utf8'), 'preview');

    // No preview: too small, compressed, another format, another file system.
    for (const input of [uri(write('small.clog2', 999)), uri(write('big.clog2.gz', 5000)), uri(write('big.clog', 5000)), uri(big, 'vscode-remote')]) {
      assert.equal(await convertPreview(storage, input, job, new AbortController().signal, sizes), undefined, input.path);
    }
    assert.equal(asked.length, 1);

    // A preview hours old (its host was killed) goes when the next one is made; a fresh one stays.
    const previews = path.dirname(made.path);
    const stale = path.join(previews, 'stale.slog2');
    const live = path.join(previews, 'live.slog2');
    fs.writeFileSync(stale, 'x');
    fs.writeFileSync(live, 'x');
    const old = new Date(Date.now() - 7 * 3600_000);
    fs.utimesSync(stale, old, old);
    await convertPreview(storage, uri(big), job, new AbortController().signal, sizes);
    assert.equal(fs.existsSync(stale), false);
    assert.equal(fs.existsSync(live), true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('snapshots are opened one at a time, the newest first: those offered meanwhile give way to the last; a failure stops nothing', async () => {
  const handled: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const queue = new LatestOnly<string>(async (s) => {
    handled.push(s);
    if (s === 'a') await gate;
    if (s === 'c') throw new Error('unreadable');
  });
  queue.offer('a');
  queue.offer('b');
  queue.offer('c');
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(handled, ['a'], 'one at a time');
  release();
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(handled, ['a', 'c'], 'then only the newest of those offered meanwhile');
  queue.offer('d');
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(handled, ['a', 'c', 'd'], 'a failed one does not stop the next');
});
