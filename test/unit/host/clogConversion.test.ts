import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { cachedSlog2For, conversionWarnings, ConversionUnavailableError, trimCache, type ConversionJob } from '../../../src/host/clogConversion';

const uri = (p: string) => ({ scheme: 'file', fsPath: p, toString: () => `file://${p}` }) as unknown as vscode.Uri;
const progress = { report: () => undefined };

test('CLOG conversions are cached by path + size + mtime and reused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cache-'));
  try {
    const input = path.join(dir, 'a.clog2');
    fs.writeFileSync(input, 'clog');
    const calls: string[] = [];
    const job: ConversionJob = async (i, o) => {
      calls.push(i);
      fs.writeFileSync(o, `converted ${fs.readFileSync(i, 'utf8')}`);
    };
    const storage = uri(path.join(dir, 'storage'));
    const a = await cachedSlog2For(storage, uri(input), 1 << 20, job, progress, new AbortController().signal);
    const b = await cachedSlog2For(storage, uri(input), 1 << 20, job, progress, new AbortController().signal);
    assert.equal(a, b);
    assert.equal(calls.length, 1, 'second open reuses the cached SLOG-2');
    assert.equal(fs.readFileSync(a, 'utf8'), 'converted clog');
    fs.writeFileSync(input, 'clog changed');
    const c = await cachedSlog2For(storage, uri(input), 1 << 20, job, progress, new AbortController().signal);
    assert.notEqual(c, a, 'a changed file gets a new conversion');
    assert.equal(calls.length, 2);
    await assert.rejects(cachedSlog2For(storage, uri(path.join(dir, 'b.clog2')), 1 << 20, undefined, progress, new AbortController().signal), /ENOENT/);
    fs.writeFileSync(path.join(dir, 'b.clog2'), 'x');
    await assert.rejects(
      cachedSlog2For(storage, uri(path.join(dir, 'b.clog2')), 1 << 20, undefined, progress, new AbortController().signal),
      ConversionUnavailableError,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a cached conversion asks for its row index, and reusing it keeps its mtime (the index identity), marking use beside it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cache-'));
  try {
    const input = path.join(dir, 'a.clog2');
    fs.writeFileSync(input, 'clog');
    const asked: unknown[] = [];
    const job: ConversionJob = async (_i, o, _p, _s, options) => {
      const rowIndex = options?.rowIndex;
      asked.push(rowIndex);
      fs.writeFileSync(o, 'converted');
    };
    const storage = uri(path.join(dir, 'storage'));
    const a = await cachedSlog2For(storage, uri(input), 1 << 20, job, progress, new AbortController().signal);
    assert.equal(asked.length, 1);
    const req = asked[0] as { path: string; minLines: number };
    assert.equal(req.minLines, 256);
    assert.ok(req.path.startsWith(path.join(dir, 'storage', 'row-index')) && fs.existsSync(path.dirname(req.path)), req.path);
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(a, old, old);
    const before = fs.statSync(a);
    await cachedSlog2For(storage, uri(input), 1 << 20, job, progress, new AbortController().signal);
    const after = fs.statSync(a);
    assert.equal(after.mtimeMs, before.mtimeMs, 'mtime kept');
    assert.ok(fs.statSync(`${a}.used`).mtimeMs > before.mtimeMs + 1000, 'use marked');
    // The marker counts as use when trimming: a reopened old conversion outlives a newer unused one.
    const other = path.join(path.dirname(a), 'other.slog2');
    fs.writeFileSync(other, 'x'.repeat(20));
    fs.utimesSync(other, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await trimCache(path.dirname(a), 15, 'none');
    assert.equal(fs.existsSync(a), true, 'the reopened conversion stays');
    assert.equal(fs.existsSync(other), false, 'the least recently used goes');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the cache is trimmed to its size limit, least recently used first, never the new entry', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-trim-'));
  try {
    const files = ['old', 'mid', 'new'].map((n, i) => {
      const f = path.join(dir, `${n}.slog2`);
      fs.writeFileSync(f, Buffer.alloc(100));
      const t = new Date(Date.now() - (3 - i) * 60_000);
      fs.utimesSync(f, t, t);
      return f;
    });
    await trimCache(dir, 150, files[0]!);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['old.slog2']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a cached conversion's row index counts with it in the cache limit and is removed with it", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cache-idx-'));
  try {
    const cache = path.join(dir, 'slog2-cache');
    fs.mkdirSync(cache);
    fs.mkdirSync(path.join(dir, 'row-index'));
    const indexOf = (trace: string) => path.join(dir, 'row-index', `${path.basename(trace)}.mperowidx`);
    const old = path.join(cache, 'old.slog2');
    const kept = path.join(cache, 'new.slog2');
    fs.writeFileSync(old, Buffer.alloc(40));
    fs.writeFileSync(indexOf(old), Buffer.alloc(60));
    fs.writeFileSync(kept, Buffer.alloc(40));
    fs.utimesSync(old, new Date(1000), new Date(1000));
    // 80 bytes of traces fit 100; with old's 60-byte index they do not: old and its index go.
    await trimCache(cache, 100, kept);
    assert.ok(fs.existsSync(old), 'without the index counted, both traces fit');
    await trimCache(cache, 100, kept, indexOf);
    assert.equal(fs.existsSync(old), false);
    assert.equal(fs.existsSync(indexOf(old)), false, 'its row index went with it');
    assert.ok(fs.existsSync(kept));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('what a conversion reported (e.g. dropped NaN-time records) is kept with the cached SLOG-2, shown again on reopen, trimmed with it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cache-warn-'));
  try {
    const input = path.join(dir, 'a.clog2');
    fs.writeFileSync(input, 'clog');
    const job: ConversionJob = async (_i, o) => {
      fs.writeFileSync(o, 'converted');
      return { warnings: ['3 records with NaN or infinite times were dropped'] };
    };
    const storage = uri(path.join(dir, 'storage'));
    const target = await cachedSlog2For(storage, uri(input), 1 << 20, job, progress, new AbortController().signal);
    assert.deepEqual(await conversionWarnings(target), ['3 records with NaN or infinite times were dropped']);
    // Reopen from the cache: no new conversion, the same warnings.
    const again = await cachedSlog2For(storage, uri(input), 1 << 20, async () => assert.fail('converted twice'), progress, new AbortController().signal);
    assert.deepEqual(await conversionWarnings(again), ['3 records with NaN or infinite times were dropped']);
    // A conversion without warnings keeps no stale file; trimming an entry removes its warnings too.
    await trimCache(path.dirname(target), 0, path.join(dir, 'none.slog2'));
    assert.equal(fs.existsSync(target), false);
    assert.deepEqual(await conversionWarnings(target), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
