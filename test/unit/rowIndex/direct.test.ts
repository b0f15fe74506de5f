/**
 * The row index the converter writes while it writes the SLOG-2 (index/direct.ts, no second pass):
 * the same windows as the plain query, the same items as the index built afterwards from the
 * file, and no index (with the reason) when the trace's keys are not the ones declared up front.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink } from '../../../src/core/formats/slog2/writer/sink';
import { writeConversion } from '../../../src/core/formats/slog2/writer/writeConversion';
import { buildRowIndex } from '../../../src/core/index/build';
import { DirectRowIndexBuilder } from '../../../src/core/index/direct';
import { Prng } from '../../../src/core/synth/prng';
import { convertFile } from '../../../src/convert/convertJob';
import { FileSource } from '../../../src/io/fileSource';
import { openRowIndexFile } from '../../../src/io/rowIndexFile';
import { synthToMemory } from '../synth/synthUtil';
import { checkRandomWindows, IDENTITY, openIndex } from './rowIndexHelpers';

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Converts a synthetic trace in memory with the direct builder; `declare` overrides the declared line count. */
async function convertWithIndex(
  ranks: number,
  options: { declare?: (n: number | undefined) => number | undefined; chunkBytes?: number; subComms?: boolean } = {},
) {
  const { bytes: clog } = await synthToMemory({ ranks, bytes: 1 << 20, seed: 11, srcloc: true, subComms: options.subComms ?? false });
  const conversion = convertClog2(once(clog), { name: 'synth.clog2' });
  const indexSink = new MemorySink();
  const declare = options.declare ?? ((n) => n);
  const builder = new DirectRowIndexBuilder(indexSink, IDENTITY.path, 'synth.slog2', () => declare(conversion.declaredLines?.()), {
    blockKeys: 16,
    chunkBytes: options.chunkBytes ?? 32 << 10,
  });
  const sink = new MemorySink();
  await writeConversion(conversion, sink, { leafBytes: 8192, indexer: builder });
  const file = await Slog2File.open(new MemorySource('synth.slog2', sink.bytes()));
  const result = await builder.finish(file, IDENTITY);
  return { file, result, index: indexSink.bytes() };
}

test('direct row index: the same windows as the plain query, the same items as the index built afterwards', async () => {
  const { file, result, index } = await convertWithIndex(256);
  try {
    assert.ok('report' in result, `index written (${'skipped' in result ? result.skipped : ''})`);
    assert.equal(result.report.keys, 256);
    // Depths interleave in the writer's post-order: with small chunks every depth fills several.
    assert.ok(result.report.chunks > file.maxDepth + 1, `${result.report.chunks} chunks for depth ${file.maxDepth}`);
    const opened = await openIndex(file, index);
    await checkRandomWindows(file, opened, new Prng(5), 30, 'direct 256');
    const after = await buildRowIndex(file, new MemorySink(), IDENTITY, { blockKeys: 16 });
    assert.equal(result.report.items, after.items);
    assert.equal(result.report.nodes, after.nodes);
  } finally {
    await file.close();
  }
});

test('direct row index: not written, with the reason, when the trace does not have the declared keys or too few', async () => {
  const more = await convertWithIndex(64, { declare: (n) => (n === undefined ? n : n + 1) });
  assert.ok('skipped' in more.result && /not the 65 line IDs/.test(more.result.skipped), JSON.stringify(more.result));
  await more.file.close();
  const none = await convertWithIndex(64, { declare: () => undefined });
  assert.ok('skipped' in none.result && /does not declare/.test(none.result.skipped));
  await none.file.close();
});

test('convertFile with rowIndex: the index is in place, current for the SLOG-2, and refused below the row minimum', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'direct-index-'));
  try {
    const { bytes: clog } = await synthToMemory({ ranks: 300, bytes: 1 << 20, seed: 2, srcloc: true, subComms: false });
    const input = path.join(dir, 'in.clog2');
    fs.writeFileSync(input, clog);
    const output = path.join(dir, 'out.slog2');
    const indexPath = path.join(dir, 'out.idx');
    const r = await convertFile(input, output, { rowIndex: { path: indexPath, minLines: 256 }, leafBytes: 8192 });
    assert.ok(r.rowIndex !== undefined && 'report' in r.rowIndex, JSON.stringify(r.rowIndex));
    const file = await Slog2File.open(await FileSource.open(output));
    try {
      const opened = await openRowIndexFile(file, output, indexPath);
      assert.ok('index' in opened, 'problem' in opened ? opened.problem : '');
      await checkRandomWindows(file, opened.index, new Prng(9), 10, 'convertFile 300');
      await opened.index.close();
    } finally {
      await file.close();
    }
    const small = await convertFile(input, path.join(dir, 'b.slog2'), { rowIndex: { path: path.join(dir, 'b.idx'), minLines: 1000 } });
    assert.ok(small.rowIndex !== undefined && 'skipped' in small.rowIndex && /no index below 1000/.test(small.rowIndex.skipped));
    assert.equal(fs.existsSync(path.join(dir, 'b.idx')), false);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.includes('.tmp') || f.startsWith('.')),
      [],
      'no temporary files left',
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('direct row index: a declared line count beyond the cap (a hostile preamble) is refused before any allocation', async () => {
  const huge = await convertWithIndex(16, { declare: () => 2_000_000_000 });
  try {
    assert.ok('skipped' in huge.result && /declares 2000000000 timelines/.test(huge.result.skipped), JSON.stringify(huge.result));
  } finally {
    await huge.file.close();
  }
});

/**
 * An old CLOG file (CLOG.md: 64 KiB big-endian blocks, records never straddle them) of `ranks`
 * ranks: per iteration a user state and a message to the next rank on each. With `skipRank`, the
 * ranks from there on are numbered one higher (a rank number unused).
 */
function wideOldClog(ranks: number, iterations: number, skipRank = Infinity): Uint8Array {
  const records: [time: number, procid: number, etype: number, data: number][] = [];
  const id = (r: number): number => (r >= skipRank ? r + 1 : r);
  for (let i = 0; i < iterations; i++)
    for (let r = 0; r < ranks; r++) {
      const t = i + r * 1e-4;
      const next = (r + 1) % ranks;
      records.push([t, id(r), 500, 0], [t + 0.5, id(r), 501, 0], [t + 0.6, id(r), -101, id(next)], [t + 0.7, id(next), -102, id(r)]);
    }
  records.sort((a, b) => a[0] - b[0]);
  const BLOCK = 65536;
  const out = new Uint8Array((Math.ceil((records.length * 56) / (BLOCK - 160)) + 1) * BLOCK);
  const dv = new DataView(out.buffer);
  let pos = 0;
  const header = (time: number, rectype: number, length: number, procid: number): void => {
    dv.setFloat64(pos, time);
    dv.setInt32(pos + 8, rectype);
    dv.setInt32(pos + 12, length);
    dv.setInt32(pos + 16, procid);
  };
  for (const [time, procid, etype, data] of records) {
    if (BLOCK - (pos % BLOCK) < 160) {
      header(time, -1, 3, 0); // ENDBLOCK: the rest of the block is unused
      pos = Math.ceil(pos / BLOCK) * BLOCK;
    }
    header(time, 1, 7, procid);
    dv.setInt32(pos + 24, etype);
    dv.setInt32(pos + 28, data);
    if (etype < 0) for (const [k, c] of [...'7 64'].entries()) out[pos + 40 + k] = c.charCodeAt(0);
    pos += 56;
  }
  header(1e6, -2, 3, 0);
  return out.subarray(0, Math.ceil((pos + 24) / BLOCK) * BLOCK);
}

test('old CLOG: the converter writes the index when the ranks drawn are 0…n−1 when its first tree node is written, else says why', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'direct-index-clog-'));
  try {
    const input = path.join(dir, 'wide.clog');
    fs.writeFileSync(input, wideOldClog(300, 12));
    const output = path.join(dir, 'wide.slog2');
    const indexPath = path.join(dir, 'wide.idx');
    const r = await convertFile(input, output, { rowIndex: { path: indexPath, minLines: 256 }, leafBytes: 8192 });
    assert.ok(r.rowIndex !== undefined && 'report' in r.rowIndex, JSON.stringify(r.rowIndex));
    assert.equal(r.rowIndex.report.keys, 300);
    const file = await Slog2File.open(await FileSource.open(output));
    try {
      assert.equal(file.lineIDMaps[0]!.rows.length, 300);
      const opened = await openRowIndexFile(file, output, indexPath);
      assert.ok('index' in opened, 'problem' in opened ? opened.problem : '');
      await checkRandomWindows(file, opened.index, new Prng(4), 12, 'old CLOG 300');
      await opened.index.close();
    } finally {
      await file.close();
    }
    // Old CLOG declares nothing: with rank number 150 unused, the ranks drawn are never 0…n−1, and
    // whether the writer asked before or after the gap showed, no index is written, with why.
    fs.writeFileSync(input, wideOldClog(300, 12, 150));
    const late = await convertFile(input, path.join(dir, 'late.slog2'), { rowIndex: { path: path.join(dir, 'late.idx'), minLines: 256 }, leafBytes: 8192 });
    assert.ok(late.rowIndex !== undefined && 'skipped' in late.rowIndex, JSON.stringify(late.rowIndex));
    assert.match(late.rowIndex.skipped, /does not declare|not the \d+ line IDs/);
    assert.equal(fs.existsSync(path.join(dir, 'late.idx')), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
