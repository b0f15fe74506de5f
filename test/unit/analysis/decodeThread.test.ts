// The decoder thread (dist/decoder.js, src/convert/decodeThread.ts) against the columnar stream of
// this thread: the same rows with the same start sites on the fixtures and a synthetic trace with
// SRCLOC (whole file and a window), the same analysis and the same exact statistics (info bytes
// and last vertices cross too); a damaged file fails with a FormatError that keeps its file and
// byte offset across the thread boundary, a leaf breaking its bounds falls back to the object
// query as in this thread; stopping early ends the thread.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { analyzeTrace } from '../../../src/core/analysis';
import { slog2AnalysisInput } from '../../../src/core/analysis/slog2Input';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { primitiveBatchesInTimeOrder, type PrimitiveBatch } from '../../../src/core/formats/slog2/columnStream';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { convertFile } from '../../../src/convert/convertJob';
import { FileSource } from '../../../src/io/fileSource';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { computeRangeStats, exactStatsOfFile, nodeBatches } from '../../../src/core/stats';
import {
  batchesFromDecoderThread,
  profileInDecoderThread,
  statsDecoded,
  statsPartInDecoderThread,
  threadDecoded,
  threadProfile,
} from '../../../src/convert/decodeThread';
import { slog2SplitTime } from '../../../src/core/analysis/slog2Input';
import { assertSame } from '../../helpers/sameStats';
import type { PathWindow } from '../../../src/core/analysis/pathProfile';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { bundleNode } from '../../helpers/bundle';
import { fixture } from '../../helpers/paths';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-decoder-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

const decoderScript = bundleNode('src/worker/decoder.ts', path.join(dir, 'decoder.js'));

/** A fixture as a plain file on disk (the thread opens files by path). */
function fixtureFile(name: string): string {
  const out = path.join(dir, `${name}.slog2`);
  if (fs.existsSync(out)) return out;
  const plain = fixture(`${name}.slog2`);
  if (fs.existsSync(plain)) fs.copyFileSync(plain, out);
  else fs.writeFileSync(out, gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
  return out;
}

/** The columns the analysis reads, one string per row. */
async function rows(batches: AsyncIterable<PrimitiveBatch>): Promise<string[]> {
  const out: string[] = [];
  for await (const b of batches)
    for (let i = 0; i < b.rows; i++) {
      const s = b.site[i];
      const fields = [b.category[i], b.vertexCount[i], b.time0[i], b.line0[i], b.time1[i], b.line1[i], b.earliest[i], b.latest[i], b.drawableEarliest[i]];
      out.push([...fields, s ? `${s.file}:${s.line}` : '-'].join(' '));
    }
  return out;
}

async function withFile<T>(file: string, use: (f: Slog2File) => Promise<T>): Promise<T> {
  const f = await Slog2File.open(await FileSource.open(file));
  try {
    return await use(f);
  } finally {
    await f.close();
  }
}

async function compare(file: string): Promise<number> {
  return withFile(file, async (f) => {
    const sites = f.sourceLocationTable?.sites ?? [];
    const [a, b] = f.timeRange;
    let total = 0;
    for (const [t0, t1] of [
      [-Infinity, Infinity],
      [a + (b - a) * 0.3, a + (b - a) * 0.6],
    ] as const) {
      const want = await rows(primitiveBatchesInTimeOrder(f, t0, t1));
      assert.deepEqual(await rows(batchesFromDecoderThread(decoderScript, file, t0, t1, { sites })), want, `${file} [${t0}, ${t1}]`);
      total += want.length;
    }
    const stats = (t0: number, t1: number) => batchesFromDecoderThread(decoderScript, file, t0, t1, { sites, withLastAndInfo: true, withinNodes: true });
    for (const range of [f.timeRange, [a + (b - a) * 0.2, a + (b - a) * 0.45]] as const) {
      const here = await exactStatsOfFile(f, range);
      assert.deepEqual(await exactStatsOfFile(f, range, { decoded: stats }), here, `${file}: statistics of [${range}]`);
      // The later half counted in the thread, the earlier here: the same but for the sums' rounding.
      const elsewhere = (r: readonly [number, number]) => statsPartInDecoderThread(decoderScript, file, r, slog2SplitTime(f, r[0], r[1]));
      assertSame(await exactStatsOfFile(f, range, { elsewhere }), here, `${file}: statistics of [${range}] in two halves`);
    }
    // Pass 2 reads the file again (not the first pass's spans), as its windows do in the thread.
    const here = await analyzeTrace(slog2AnalysisInput(f), { maxInstances: 1e6, rereadInput: true });
    const decoded = (t0: number, t1: number) => batchesFromDecoderThread(decoderScript, file, t0, t1, { sites });
    assert.deepEqual(await analyzeTrace(slog2AnalysisInput(f, { decoded }), { maxInstances: 1e6, rereadInput: true }), here, `${file}: analysis`);
    // The critical path's first window profiled in the thread: the same sums as here.
    let profiled = 0;
    const profileElsewhere = (w: PathWindow, signal: AbortSignal) => (profiled++, profileInDecoderThread(decoderScript, file, w, signal));
    assert.deepEqual(
      await analyzeTrace(slog2AnalysisInput(f, { decoded, profileElsewhere }), { maxInstances: 1e6, rereadInput: true }),
      here,
      `${file}: path profile`,
    );
    assert.equal(profiled, here.criticalPath.segments.length > 0 ? 1 : 0);
    return total;
  });
}

for (const name of ['ring_p2p_4', 'collectives_8', 'bigrun_medium_4']) {
  test(`${name}: the decoder thread's batches equal this thread's; the analysis over them is the same`, async () => {
    assert.ok((await compare(fixtureFile(name))) > 0);
  });
}

test('synthetic trace with SRCLOC (sites cross the thread as table indices): same rows, same analysis', async () => {
  const clog2 = path.join(dir, 's.clog2');
  const slog2 = path.join(dir, 's.slog2');
  await synthesizeClog2File(clog2, { ranks: 6, threads: 2, iterations: 60, srcloc: true, subComms: true, seed: 5 });
  await convertFile(clog2, slog2);
  let sited = 0;
  for await (const b of batchesFromDecoderThread(decoderScript, slog2, -Infinity, Infinity, {
    sites: await withFile(slog2, async (f) => f.sourceLocationTable?.sites ?? []),
  }))
    for (let i = 0; i < b.rows; i++) if (b.site[i] !== undefined) sited++;
  assert.ok(sited > 0, 'no start site through the thread');
  assert.ok((await compare(slog2)) > 0);
});

test('a damaged leaf fails with a FormatError naming the file and byte offset; a missing file names the file', async () => {
  const file = fixtureFile('bigrun_medium_4');
  const bad = path.join(dir, 'bad.slog2');
  const bytes = new Uint8Array(fs.readFileSync(file));
  const leaf = await withFile(file, async (f) => f.level(0)[2]!);
  bytes[leaf.fptr + 38] = 7; // the first drawable's kind byte (after the 34-byte header and the count)
  fs.writeFileSync(bad, bytes);
  await assert.rejects(
    rows(batchesFromDecoderThread(decoderScript, bad, -Infinity, Infinity, { sites: [] })),
    (e: unknown) => isFormatError(e) && (e as Error).message.startsWith(`${bad}:`) && /unknown drawable kind byte 7/.test((e as Error).message),
  );
  await assert.rejects(rows(batchesFromDecoderThread(decoderScript, path.join(dir, 'missing.slog2'), 0, 1, { sites: [] })), /missing\.slog2/);
});

test('statistics of a leaf whose directory bounds leave out some of its drawables: the thread refuses it, the object query counts it', async () => {
  const file = fixtureFile('bigrun_medium_4');
  const bytes = new Uint8Array(fs.readFileSync(file));
  const leaf = await withFile(file, async (f) => {
    const leaves = f.treeDir.filter((n) => n.depth === 0).sort((x, y) => x.xpos - y.xpos);
    return leaves.slice(0, -1).sort((x, y) => y.size - x.size)[0]!; // not the last (open to the right)
  });
  // Its TreeDir `latest` (depth i16, xpos i32, earliest f64, latest f64) moved to its middle.
  new DataView(bytes.buffer).setFloat64(leaf.entryOffset + 14, (leaf.earliest + leaf.latest) / 2);
  const patched = path.join(dir, 'patched.slog2');
  fs.writeFileSync(patched, bytes);
  await withFile(patched, async (f) => {
    const range = f.timeRange;
    const decoded = (t0: number, t1: number) =>
      batchesFromDecoderThread(decoderScript, patched, t0, t1, { sites: [], withLastAndInfo: true, withinNodes: true });
    const expected = await computeRangeStats(f, nodeBatches(f.query(range[0], range[1], { lowestDepth: 0 })), range);
    assert.deepEqual(await exactStatsOfFile(f, range, { decoded }), expected);
    // Split in two, the thread's half refuses it too (or this one's does): the object query again.
    const elsewhere = (r: readonly [number, number]) => statsPartInDecoderThread(decoderScript, patched, r, (r[0] + r[1]) / 2);
    assert.deepEqual(await exactStatsOfFile(f, range, { elsewhere }), expected);
  });
});

test('threadDecoded: a range under 32 MiB of leaves is decoded in this thread (no thread started); a file not on disk gets none', async () => {
  const file = fixtureFile('bigrun_medium_4');
  await withFile(file, async (f) => {
    // A script that cannot start: any use of a thread would fail.
    const decoded = threadDecoded(f, { withLastAndInfo: true, withinNodes: true }, path.join(dir, 'no-such-decoder.js'));
    assert.ok(decoded !== undefined);
    assert.deepEqual(await exactStatsOfFile(f, f.timeRange, { decoded }), await exactStatsOfFile(f, f.timeRange));
    // Nor is a range under 64 MiB split into halves; statistics read one under 32 MiB here.
    const options = statsDecoded(f, undefined, path.join(dir, 'no-such-decoder.js'));
    assert.ok(options.elsewhere !== undefined && options.elsewhere(f.timeRange) === undefined);
    assert.ok(options.decoded !== undefined && options.decoded(...f.timeRange) === undefined);
    assert.deepEqual(await exactStatsOfFile(f, f.timeRange, options), await exactStatsOfFile(f, f.timeRange));
  });
  const memory = await Slog2File.open(new MemorySource('m.slog2', new Uint8Array(fs.readFileSync(file))));
  assert.equal(threadDecoded(memory, {}, decoderScript), undefined);
  await memory.close();
});

test('threadProfile: a window under 32 MiB of leaves is profiled in this thread; a file not on disk gets none', async () => {
  const file = fixtureFile('bigrun_medium_4');
  await withFile(file, async (f) => {
    const profileElsewhere = threadProfile(f, path.join(dir, 'no-such-decoder.js'));
    assert.ok(profileElsewhere !== undefined);
    const here = await analyzeTrace(slog2AnalysisInput(f), { rereadInput: true });
    assert.deepEqual(await analyzeTrace(slog2AnalysisInput(f, { profileElsewhere }), { rereadInput: true }), here);
  });
  const memory = await Slog2File.open(new MemorySource('m.slog2', new Uint8Array(fs.readFileSync(file))));
  assert.equal(threadProfile(memory, decoderScript), undefined);
  await memory.close();
});

test('a profile in the thread fails with the FormatError of a damaged leaf, and stops on abort', async () => {
  const file = fixtureFile('bigrun_medium_4');
  const window = await withFile(file, async (f) => {
    const [a, b] = f.timeRange;
    return {
      from: a,
      to: b,
      segmentLoc: Int32Array.from([0, 1]),
      segmentFrom: Float64Array.from([a, (a + b) / 2]),
      segmentTo: Float64Array.from([(a + b) / 2, b]),
      stateFirst: Float64Array.from([a, a]),
      stateLast: Float64Array.from([b, b]),
      lineIDs: Int32Array.from([0, 1]),
      locations: Int32Array.from([0, 1]),
    } satisfies PathWindow;
  });
  const profile = await profileInDecoderThread(decoderScript, file, window);
  assert.ok(profile.byCategory.length > 0);
  const sum = profile.byCategory.reduce((x, [, v]) => x + v, 0);
  assert.ok(Math.abs(sum - (window.to - window.from)) < 1e-9 * (window.to - window.from), `every moment of the path is in some state or (no state): ${sum}`);
  const controller = new AbortController();
  controller.abort(new Error('stopped by the test'));
  await assert.rejects(profileInDecoderThread(decoderScript, file, window, controller.signal), /stopped by the test/);
  // A damaged leaf, as in the test above.
  const bytes = new Uint8Array(fs.readFileSync(file));
  const leaf = await withFile(file, async (f) => f.level(0)[2]!);
  bytes[leaf.fptr + 38] = 7;
  const bad = path.join(dir, 'damaged-profile.slog2');
  fs.writeFileSync(bad, bytes);
  await assert.rejects(profileInDecoderThread(decoderScript, bad, window), (e: unknown) => isFormatError(e) && (e as Error).message.startsWith(`${bad}:`));
});

test('stopping after the first batch, or by an abort signal, ends the iteration and the thread', async () => {
  const file = fixtureFile('bigrun_medium_4');
  for await (const b of batchesFromDecoderThread(decoderScript, file, -Infinity, Infinity, { sites: [] })) {
    assert.ok(b.rows > 0);
    break;
  }
  const controller = new AbortController();
  let seen = 0;
  await assert.rejects(async () => {
    for await (const _ of batchesFromDecoderThread(decoderScript, file, -Infinity, Infinity, { sites: [], signal: controller.signal })) {
      if (++seen === 2) controller.abort(new Error('stopped by the test'));
    }
  }, /stopped by the test/);
  assert.equal(seen, 2);
});
