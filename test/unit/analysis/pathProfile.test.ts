// The critical path's composition in two windows (pathProfile.ts) against one sweep of every state:
// any split time gives the same time per state name and call site (a window that lost or doubled
// the states open at the split would not); a window profiled "elsewhere" gives the same sums as here,
// and its failure stops the pass. Also the pieces: windows clip segments without losing any, the
// segment clipper against brute force, the chunked hop columns across chunks, the protocol guard.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { analyzeTrace, type AnalysisInput } from '../../../src/core/analysis';
import { HopColumns } from '../../../src/core/analysis/hops';
import { pathNames, pathWindows, profilePathWindow, type PathWindow } from '../../../src/core/analysis/pathProfile';
import { SegmentClipper } from '../../../src/core/analysis/segmentClipper';
import { slog2AnalysisInput } from '../../../src/core/analysis/slog2Input';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { primitiveBatchesInTimeOrder } from '../../../src/core/formats/slog2/columnStream';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { convertFile } from '../../../src/convert/convertJob';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { isPassToDecoder } from '../../../src/protocol/decoder';
import { fixture } from '../../helpers/paths';

function fixtureBytes(name: string): Uint8Array {
  const plain = fixture(`${name}.slog2`);
  if (fs.existsSync(plain)) return new Uint8Array(fs.readFileSync(plain));
  return new Uint8Array(gunzipSync(fs.readFileSync(fixture(`${name}.slog2.gz`))));
}

function assertClose(got: Readonly<Record<string, number>>, want: Readonly<Record<string, number>>, what: string): void {
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), what);
  for (const [k, v] of Object.entries(want)) assert.ok(Math.abs(got[k]! - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${what} ${k}: ${got[k]} vs ${v}`);
}

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let synthetic: Uint8Array | undefined;

/** A SRCLOC trace with threads, communicators and several tree levels (made once). */
async function syntheticBytes(): Promise<Uint8Array> {
  if (synthetic !== undefined) return synthetic;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-profile-'));
  try {
    await synthesizeClog2File(path.join(dir, 's.clog2'), { ranks: 6, threads: 2, iterations: 60, srcloc: true, subComms: true, seed: 11 });
    await convertFile(path.join(dir, 's.clog2'), path.join(dir, 's.slog2'));
    return (synthetic = new Uint8Array(fs.readFileSync(path.join(dir, 's.slog2'))));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function withSlog2<T>(name: string, bytes: Uint8Array, use: (f: Slog2File) => Promise<T>): Promise<T> {
  const f = await Slog2File.open(new MemorySource(name, bytes));
  try {
    return await use(f);
  } finally {
    await f.close();
  }
}

for (const name of ['collectives_8', 'bigrun_medium_4', 'grid_comms_16', 'synthetic SRCLOC']) {
  test(`${name}: the path's composition is the same at any split time, and with a window profiled elsewhere`, async () => {
    const bytes = name === 'synthetic SRCLOC' ? await syntheticBytes() : fixtureBytes(name);
    await withSlog2(name, bytes, async (f) => {
      const [a, b] = f.timeRange;
      const input = slog2AnalysisInput(f);
      const every = (await analyzeTrace(input, { sweepEveryState: true })).criticalPath;
      assert.ok(every.segments.length > 1 && Object.keys(every.byCategory).length > 1, `${name}: a path through several states`);
      if (name === 'synthetic SRCLOC') assert.ok(Object.keys(every.bySite).length > 1, 'call sites on the path');
      for (const at of [-1, 0, 0.001, 0.13, 0.5, 0.77, 0.999, 1, 2]) {
        const split = a + (b - a) * at;
        const got = (await analyzeTrace({ ...input, splitTime: () => split }, { rereadInput: true })).criticalPath;
        for (const key of ['byCategory', 'bySite', 'imbalance'] as const) assertClose(got[key], every[key], `${name} split at ${at}: ${key}`);
      }
      // A split at a segment's boundary: the segments of one window end where the next one's start.
      const boundary = every.segments[Math.floor(every.segments.length / 2)]!.from;
      assertClose(
        (await analyzeTrace({ ...input, splitTime: () => boundary }, { rereadInput: true })).criticalPath.byCategory,
        every.byCategory,
        `${name}: split at a segment start`,
      );

      // Elsewhere: the first window, computed by the same function but asynchronously, gives the same result as here.
      const windows: PathWindow[] = [];
      const elsewhere: AnalysisInput['profileElsewhere'] = async (w, signal) => {
        windows.push(w);
        await new Promise((resolve) => setImmediate(resolve));
        return profilePathWindow(w, (t0, t1, keep) => primitiveBatchesInTimeOrder(f, t0, t1, { keep, signal }), pathNames(f.categories));
      };
      const here = await analyzeTrace(input, { maxInstances: 100, rereadInput: true });
      assert.deepEqual(await analyzeTrace({ ...input, profileElsewhere: elsewhere }, { maxInstances: 100, rereadInput: true }), here, `${name}: elsewhere`);
      assert.equal(windows.length, 1);
      assert.equal(windows[0]!.from, a);
      assert.equal(windows[0]!.to, input.splitTime!(a, b));
    });
  });
}

test('a window that fails elsewhere fails the analysis, and the other window stops when the pass is aborted', async () => {
  await withSlog2('bigrun_medium_4', fixtureBytes('bigrun_medium_4'), async (f) => {
    const input = slog2AnalysisInput(f);
    await assert.rejects(
      analyzeTrace({ ...input, profileElsewhere: () => Promise.reject(new Error('the thread died')) }, { rereadInput: true }),
      /the thread died/,
    );
    const controller = new AbortController();
    let stopped: unknown;
    const never: AnalysisInput['profileElsewhere'] = (_w, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => {
          stopped = signal.reason;
          reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        }),
      );
    const run = analyzeTrace(
      { ...input, profileElsewhere: never },
      { signal: controller.signal, rereadInput: true, onProgress: (x) => x > 0.5 && controller.abort(new Error('cancelled by the test')) },
    );
    await assert.rejects(run, /cancelled by the test/);
    assert.ok(stopped instanceof Error, 'the window elsewhere was told to stop');
  });
});

test('path windows clip the segments to each window and lose none', () => {
  const next = random(3);
  const segments: { loc: number; from: number; to: number }[] = [];
  let t = 0;
  for (let i = 0; i < 200; i++) {
    const d = next() * 2;
    segments.push({ loc: Math.floor(next() * 5), from: t, to: t + d });
    t += d;
  }
  const lines = { lineIDs: Int32Array.from([0, 1, 2, 3, 4]), locations: Int32Array.from([0, 1, 2, 3, 4]) };
  for (const bounds of [
    [0, t],
    [0, t / 3, t],
    [-5, segments[50]!.from, segments[120]!.to, t + 5],
  ]) {
    const windows = pathWindows(segments, bounds, { first: [0, 0, 0, 0, 0], last: [t, t, t, t, t] }, lines);
    assert.equal(windows.length, bounds.length - 1);
    for (let loc = 0; loc < 5; loc++) {
      const want = segments.filter((s) => s.loc === loc).reduce((a, s) => a + (s.to - s.from), 0);
      let got = 0;
      for (const w of windows)
        w.segmentLoc.forEach((l, i) => {
          assert.ok(w.segmentFrom[i]! >= w.from && w.segmentTo[i]! <= w.to && w.segmentTo[i]! > w.segmentFrom[i]!);
          if (l === loc) got += w.segmentTo[i]! - w.segmentFrom[i]!;
        });
      assert.ok(Math.abs(got - want) < 1e-9, `location ${loc}: ${got} vs ${want}`);
    }
  }
});

test('the segment clipper: overlap and touches as brute force says, segments in any order', () => {
  const next = random(7);
  for (let run = 0; run < 30; run++) {
    const n = 1 + Math.floor(next() * 40);
    const segs: { loc: number; from: number; to: number }[] = [];
    let t = 0;
    for (let i = 0; i < n; i++) {
      const d = 0.1 + next();
      segs.push({ loc: Math.floor(next() * 3), from: t, to: t + d });
      t += d + (next() < 0.3 ? next() : 0);
    }
    const shuffled = [...segs].sort(() => next() - 0.5);
    const clip = new SegmentClipper({
      loc: Int32Array.from(shuffled, (s) => s.loc),
      from: Float64Array.from(shuffled, (s) => s.from),
      to: Float64Array.from(shuffled, (s) => s.to),
    });
    const spans = Array.from({ length: 60 }, () => {
      const a = next() * t;
      return { loc: Math.floor(next() * 4), a, b: a + next() * 3 };
    });
    for (const s of spans) {
      const mine = segs.filter((g) => g.loc === s.loc);
      assert.equal(
        clip.touches(s.loc, s.a, s.b),
        mine.some((g) => g.from < s.b && g.to > s.a),
      );
    }
    // overlap: calls in increasing start per location.
    for (const s of [...spans].sort((x, y) => x.a - y.a)) {
      const want = segs.filter((g) => g.loc === s.loc).reduce((acc, g) => acc + Math.max(0, Math.min(s.b, g.to) - Math.max(s.a, g.from)), 0);
      assert.ok(Math.abs(clip.overlap(s.loc, s.a, s.b) - want) < 1e-9);
    }
  }
});

test('the segment clipper: touches as brute force says for calls nearly in time order (jumps back, ends hit exactly), thousands of segments', () => {
  const next = random(19);
  for (let run = 0; run < 20; run++) {
    const n = 1 + Math.floor(next() * 3000);
    const segs: { loc: number; from: number; to: number }[] = [];
    let t = 0;
    for (let i = 0; i < n; i++) {
      const d = next() < 0.1 ? 0 : next();
      segs.push({ loc: Math.floor(next() * 3), from: t, to: t + d });
      t += d + (next() < 0.5 ? next() : 0);
    }
    const clip = new SegmentClipper({
      loc: Int32Array.from(segs, (s) => s.loc),
      from: Float64Array.from(segs, (s) => s.from),
      to: Float64Array.from(segs, (s) => s.to),
    });
    let a = -1;
    for (let q = 0; q < 4000; q++) {
      const r = next();
      // Mostly forward by a little; sometimes far back or far ahead; sometimes exactly at a segment's end or start.
      if (r < 0.05) a = next() * t;
      else if (r < 0.15) {
        const g = segs[Math.floor(next() * n)]!;
        a = next() < 0.5 ? g.to : g.from;
      } else a += next() * (t / n) * 3;
      const b = a + (next() < 0.2 ? 0 : next() * (t / n) * 4);
      const loc = Math.floor(next() * 4) - (next() < 0.02 ? 2 : 0);
      const want = segs.some((g) => g.loc === loc && g.from < b && g.to > a);
      assert.equal(clip.touches(loc, a, b), want, `run ${run}, query ${q}: loc ${loc} [${a}, ${b}]`);
    }
  }
});

test('hop columns keep every slot across chunks; clear drops them', () => {
  const h = new HopColumns();
  const n = 150_000;
  for (let i = 0; i < n; i++) {
    const slot = h.push();
    assert.equal(slot, i);
    h.set(slot, i % 7, i % 11, i * 0.5, i * 0.25);
  }
  assert.equal(h.length, n);
  for (const i of [0, 1, 65_535, 65_536, 131_071, 131_072, n - 1]) {
    assert.equal(h.waiter(i), i % 7);
    assert.equal(h.causer(i), i % 11);
    assert.equal(h.resume(i), i * 0.5);
    assert.equal(h.causerTime(i), i * 0.25);
  }
  h.set(70_000, 3, 4, 1.5, 2.5);
  assert.deepEqual([h.waiter(70_000), h.causer(70_000), h.resume(70_000), h.causerTime(70_000)], [3, 4, 1.5, 2.5]);
  h.clear();
  assert.equal(h.length, 0);
  assert.equal(h.push(), 0);
});

test('the decoder protocol takes a start with a well-formed path window only', () => {
  const window: PathWindow = {
    from: 0,
    to: 1,
    segmentLoc: new Int32Array(2),
    segmentFrom: new Float64Array(2),
    segmentTo: new Float64Array(2),
    stateFirst: new Float64Array(1),
    stateLast: new Float64Array(1),
    lineIDs: new Int32Array(1),
    locations: new Int32Array(1),
  };
  const start = { kind: 'start', path: '/x.slog2', t0: 0, t1: 1, withLastAndInfo: false, withinNodes: false };
  assert.ok(isPassToDecoder(start));
  assert.ok(isPassToDecoder({ ...start, profile: window }));
  assert.ok(!isPassToDecoder({ ...start, profile: { ...window, segmentTo: new Float64Array(1) } }), 'columns of different lengths');
  assert.ok(!isPassToDecoder({ ...start, profile: { ...window, lineIDs: [0] } }), 'a plain array');
  assert.ok(!isPassToDecoder({ ...start, profile: { ...window, from: '0' } }));
});
