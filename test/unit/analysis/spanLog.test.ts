// The first pass's span log (spanLog.ts) and its file spill (spanSpillFile.ts): a replay gives the
// spans added, in order, from memory, from a spill, across tiny chunks; a log that cannot keep its
// spans says so and the analysis reads its input again. On real traces the replayed composition is
// the sweep of every state's, to the bit, and equals it through a file spill too.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { analyzeTrace } from '../../../src/core/analysis';
import { NestingSweep, NO_SITE } from '../../../src/core/analysis/nestingSweep';
import { SpanLog, type SpanSpill } from '../../../src/core/analysis/spanLog';
import { slog2AnalysisInput } from '../../../src/core/analysis/slog2Input';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { SpanSpillFile } from '../../../src/io/spanSpillFile';
import { fixture } from '../../helpers/paths';
import { rng } from '../../helpers/rng';

type Span = [number, number, number, number, number];

/** Spans of a sweep over random nested and overlapping states of a few processes, added to `log` too. */
function sweepInto(log: SpanLog | undefined, seed: number): Span[] {
  const next = rng(seed);
  const spans: Span[] = [];
  const sweep = new NestingSweep((loc, name, site, a, b) => {
    spans.push([loc, name, site, a, b]);
    log?.add(loc, name, site, a, b);
  });
  let t = 0;
  for (let i = 0; i < 3000; i++) {
    t += next() * 0.01;
    const loc = Math.floor(next() * 5) * 7; // sparse locations
    const site = next() < 0.3 ? NO_SITE : Math.floor(next() * 40);
    sweep.addState(loc, 1 + Math.floor(next() * 9), site, t, t + next() * 0.05);
  }
  sweep.finish();
  return spans;
}

async function replayed(log: SpanLog): Promise<Span[] | undefined> {
  const out: Span[] = [];
  return (await log.replay((loc, name, site, a, b) => out.push([loc, name, site, a, b]))) ? out : undefined;
}

/** A spill in memory (copies: the log reuses its chunks once a write resolves). */
function memorySpill(): SpanSpill & { chunks: Uint8Array[] } {
  const chunks: Uint8Array[] = [];
  return {
    chunks,
    write: async (b) => void chunks.push(b.slice()),
    read: async function* () {
      yield* chunks;
    },
    close: async () => void (chunks.length = 0),
  };
}

test('a replay gives the spans added, in order: in memory, through a spill, in chunks of any size', async () => {
  const want = sweepInto(undefined, 5);
  assert.ok(want.length > 3000, `${want.length} spans`);
  for (const [what, options] of [
    ['memory', {}],
    ['chunks of 7 spans in memory', { chunkSpans: 7 }],
    ['everything spilled', { chunkSpans: 7, memoryBytes: 0, spill: memorySpill() }],
    ['some kept, the rest spilled', { chunkSpans: 100, memoryBytes: 16 * 300, spill: memorySpill() }],
  ] as const) {
    const log = new SpanLog(options);
    sweepInto(log, 5);
    assert.equal(log.givenUp, undefined, what);
    assert.deepEqual(await replayed(log), want, what);
    if ('spill' in options) assert.ok(options.spill.chunks.length > 0, `${what}: chunks were spilled`);
    await log.close();
  }
});

test('a start that is not the last end is kept (a jump), the first span of a process too', async () => {
  const log = new SpanLog({ chunkSpans: 2 });
  const spans: Span[] = [
    [3, 1, NO_SITE, 10, 11],
    [3, 2, 0, 11, 12],
    [0, 1, 5, -4, -3],
    [3, 1, NO_SITE, 20, 21], // a gap: not from the last end
    [0, 2047, (1 << 20) - 2, -3, 1e300],
  ];
  for (const s of spans) log.add(...s);
  assert.deepEqual(await replayed(log), spans);
});

test('a log that cannot keep its spans gives up: no spill past memory, a failing spill, too many names', async () => {
  const noSpill = new SpanLog({ chunkSpans: 16, memoryBytes: 16 * 32 });
  sweepInto(noSpill, 1);
  assert.match(noSpill.givenUp ?? '', /nowhere to spill/);
  assert.equal(await replayed(noSpill), undefined);

  const failing = new SpanLog({ chunkSpans: 16, memoryBytes: 0, spill: { ...memorySpill(), write: () => Promise.reject(new Error('disk full')) } });
  sweepInto(failing, 1);
  assert.equal(await replayed(failing), undefined);
  assert.match(failing.givenUp ?? '', /disk full/);

  const names = new SpanLog();
  names.add(0, 2048, NO_SITE, 0, 1);
  assert.match(names.givenUp ?? '', /state names/);
  assert.equal(await replayed(names), undefined);
});

test('the file spill: chunks back in order, the file gone from its directory at once, a cap, close twice', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-spans-test-'));
  try {
    const spill = new SpanSpillFile({ dir, maxBytes: 1 << 20, reserveBytes: 0 });
    const log = new SpanLog({ chunkSpans: 64, memoryBytes: 0, spill });
    const want = sweepInto(log, 9);
    await log.settle();
    assert.ok(spill.bytes > 0, 'spans were written');
    if (process.platform !== 'win32') assert.deepEqual(fs.readdirSync(dir), [], 'unlinked while open');
    assert.deepEqual(await replayed(log), want);
    await log.close();
    await spill.close();
    assert.deepEqual(fs.readdirSync(dir), []);

    const small = new SpanSpillFile({ dir, maxBytes: 1000, reserveBytes: 0 });
    await small.write(new Uint8Array(992));
    await assert.rejects(small.write(new Uint8Array(16)), /more than 1000 bytes/);
    await small.close();

    const full = new SpanSpillFile({ dir, maxBytes: 1 << 20, reserveBytes: Number.MAX_SAFE_INTEGER });
    await assert.rejects(full.write(new Uint8Array(16)), /too few/);
    await full.close();
    assert.deepEqual(fs.readdirSync(dir), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function fixtureBytes(name: string): Uint8Array {
  const plain = fixture(`${name}.slog2`);
  if (fs.existsSync(plain)) return new Uint8Array(fs.readFileSync(plain));
  return new Uint8Array(gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
}

for (const name of ['collectives_8', 'bigrun_medium_4', 'grid_comms_16']) {
  test(`${name}: the composition replayed from the first pass is the sweep of every state's, from memory and from a file`, async () => {
    const f = await Slog2File.open(new MemorySource(name, fixtureBytes(name)));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-spans-test-'));
    try {
      const input = slog2AnalysisInput(f);
      const every = await analyzeTrace(input, { maxInstances: 100, sweepEveryState: true });
      assert.ok(every.criticalPath.segments.length > 1);
      assert.deepEqual(await analyzeTrace(input, { maxInstances: 100 }), every, `${name}: replayed from memory`);
      let spill: SpanSpillFile | undefined;
      const spilled = await analyzeTrace(
        { ...input, spanSpill: () => (spill = new SpanSpillFile({ dir, maxBytes: 1 << 30, reserveBytes: 0 })) },
        { maxInstances: 100, spanLog: { memoryBytes: 0, chunkSpans: 50 } },
      );
      assert.ok(spill !== undefined && spill.bytes > 0, 'spans went to the file');
      assert.deepEqual(spilled, every, `${name}: replayed from a file`);
      // A spill that fails: the second pass reads the trace again, the same sums within rounding.
      const reread = await analyzeTrace(
        { ...input, spanSpill: () => ({ ...memorySpill(), write: () => Promise.reject(new Error('no space')) }) },
        { maxInstances: 100, spanLog: { memoryBytes: 0, chunkSpans: 50 } },
      );
      assert.deepEqual(Object.keys(reread.criticalPath.byCategory).sort(), Object.keys(every.criticalPath.byCategory).sort());
      for (const [k, v] of Object.entries(every.criticalPath.byCategory))
        assert.ok(Math.abs(reread.criticalPath.byCategory[k]! - v) <= 1e-9 * Math.max(1, v), `${name}: reread ${k}`);
      assert.deepEqual(fs.readdirSync(dir), [], 'no file left behind');
    } finally {
      await f.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
