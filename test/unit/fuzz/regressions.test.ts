/**
 * Replays every fuzzer crasher saved in test/fixtures/regressions/ through its target (named by the
 * file: `<target>-<seed>-<index>[-label].bin` or `<target>-<label>.bin`): only FormatErrors, within
 * 2 s of CPU time (the fuzzer's limit; no wall-clock bounds: a hang meets test/run.mjs's per-test timeout).
 * Then the specific outcome each fix promises (docs/ROBUSTNESS.md lists the findings).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { isFormatError } from '../../../src/core/bytes/formatError';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { convertClog } from '../../../src/core/formats/clog/convertClog';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import type { Drawable } from '../../../src/core/model/types';
import { computeRangeStats, nodeBatches } from '../../../src/core/stats';
import { MemorySink, writeConversion } from '../../../src/core/formats/slog2/writer';
import { idFromFileName, targetRng } from '../../fuzz/cases';
import { classify, runTarget } from '../../fuzz/targets';
import { fixture } from '../../helpers/paths';
import { threadCpuMs } from '../../helpers/threadCpu';
import { gunzipSync } from 'fflate';

const dir = fixture('regressions');
const files = fs.existsSync(dir)
  ? fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.bin'))
      .sort()
  : [];

function bytesOf(name: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(dir, name)));
}

async function* once(b: Uint8Array): AsyncGenerator<Uint8Array> {
  yield b;
}

test('the regression inputs exist', () => {
  for (const f of [
    'clog2-1-266.bin',
    'clog2-1-12.bin',
    'clog2-preamble-counts-at-cap.bin',
    'writer-1-133.bin',
    'slog2-1-356.bin',
    'views-10-429.bin',
    'views-10-455.bin',
    'clog-24-103.bin',
    'convert-commevt-threads.bin',
  ]) {
    assert.ok(files.includes(f), f);
  }
});

for (const name of files) {
  test(`replay ${name}: only FormatErrors, within 2 s of CPU time`, async () => {
    const id = idFromFileName(name);
    assert.ok(id !== undefined, `${name}: the file name does not start with a target`);
    // This thread's CPU time, as the fuzzer measures it (its "slow case" criterion): unlike wall time,
    // a loaded shared machine does not stretch it. A hang meets test/run.mjs's per-test timeout.
    const cpu0 = threadCpuMs();
    try {
      await runTarget(id.target, bytesOf(name), targetRng(id));
    } catch (e) {
      const c = classify(e);
      assert.ok(c === 'rejected' || c === 'known', `${name}: ${c}: ${e instanceof Error ? e.stack : String(e)}`);
    }
    const cpuMs = threadCpuMs() - cpu0;
    assert.ok(cpuMs < 2000, `${name} took ${cpuMs.toFixed(0)} ms of CPU`);
  });
}

test('an etype outside the flat handler range becomes an UnknownType-e solo category (was: stack overflow)', async () => {
  const { summary } = await collectConversion(convertClog2(once(bytesOf('clog2-1-266.bin')), { name: 'r' }));
  assert.ok(
    summary.categories.some((c) => c.name === 'UnknownType-e2147483647'),
    summary.categories.map((c) => c.name).join(', '),
  );
  assert.equal(summary.truncated, true);
  assert.ok(summary.drawables.total > 0);
});

test('a preamble id-range count of 2^20 is refused at once (was: > 256 MB and > 10 s of placeholders)', async () => {
  await assert.rejects(
    collectConversion(convertClog2(once(bytesOf('clog2-1-12.bin')), { name: 'r' })),
    (e: unknown) => isFormatError(e) && /user_solo_eventID_count = 1048576 is outside \[0, 16384\]/.test(e.message),
  );
});

test('every id-range count at the 2^14 cap still converts', async () => {
  const { summary } = await collectConversion(convertClog2(once(bytesOf('clog2-preamble-counts-at-cap.bin')), { name: 'r' }));
  assert.ok(summary.drawables.total > 0);
});

test('a drawable ending before one already written is dropped and counted, the file stays readable (was: RangeError)', async () => {
  const sink = new MemorySink();
  const written = await writeConversion(convertClog2(once(bytesOf('writer-1-133.bin')), { name: 'r' }), sink);
  assert.equal(written.droppedDrawables, 1);
  const file = await Slog2File.open(new MemorySource('w.slog2', sink.bytes()));
  let n = 0;
  for await (const _ of file.allDrawables()) n++;
  assert.equal(n, written.drawables);
  assert.deepEqual(file.warnings, []);
});

test('drawablesInTimeOrder yields each drawable once, in start order, when TreeDir leaf bounds overlap (was: duplicates)', async () => {
  const file = await Slog2File.open(new MemorySource('r.slog2', bytesOf('slog2-1-356.bin')));
  // by content: allDrawables does not keep its nodes (readNodeOnce), so the objects differ
  const key = (d: Drawable): string =>
    JSON.stringify([d.category, d.earliest, d.latest, d.kind === 'primitive' ? d.vertices : d.primitives.map((p) => p.vertices)]);
  const left = new Map<string, number>();
  for await (const d of file.allDrawables()) left.set(key(d), (left.get(key(d)) ?? 0) + 1);
  let seen = 0;
  let last = -Infinity;
  for await (const d of file.drawablesInTimeOrder()) {
    const n = left.get(key(d)) ?? 0;
    assert.ok(n > 0, 'a drawable was yielded twice, or is not in the file');
    left.set(key(d), n - 1);
    assert.ok(d.earliest >= last, `${d.earliest} after ${last}`);
    seen++;
    last = d.earliest;
  }
  assert.ok(seen > 0);
});

test('infinite root time bounds are refused at open (was: NaN spans in every view)', async () => {
  await assert.rejects(
    Slog2File.open(new MemorySource('r.slog2', bytesOf('views-10-429.bin'))),
    (e: unknown) => isFormatError(e) && /root node's time bounds \[-Infinity, [^\]]+\] are invalid/.test(e.message),
  );
});

test('statistics over drawables outside their leaf bounds: the listed refusal, not a crash', async () => {
  const file = await Slog2File.open(new MemorySource('r.slog2', bytesOf('views-10-455.bin')));
  const [t0, t1] = file.timeRange;
  await assert.rejects(computeRangeStats(file, nodeBatches(file.query(t0, t1, { lowestDepth: 0 })), [t0, t1]), (e: unknown) => classify(e) === 'known');
});

test('old CLOG: an unknown record split across input chunks is warned about once, as with one chunk (was: twice)', async () => {
  const bytes = bytesOf('clog-24-103.bin');
  async function* chunked(n: number): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < bytes.length; i += n) yield bytes.subarray(i, i + n);
  }
  const whole = await collectConversion(convertClog(chunked(bytes.length), { name: 'r' }));
  const pieces = await collectConversion(convertClog(chunked(59), { name: 'r' }));
  assert.equal(whole.summary.warnings.filter((w) => /unknown record type 0 at byte 7176; skipped using its length 12/.test(w)).length, 1);
  assert.deepEqual(pieces.summary.warnings, whole.summary.warnings);
  assert.equal(pieces.drawables.length, whole.drawables.length);
});

test('COMMEVTs × max_thread_count 4096: the line table is capped with a warning (was: 15 M entries, a fatal OOM)', async () => {
  const bytes = gunzipSync(bytesOf('convert-commevt-threads.bin'));
  const { summary } = await collectConversion(convertClog2(once(bytes), { name: 'r' }));
  assert.equal(summary.records.COMMEVT, 3640);
  assert.ok(
    summary.warnings.some((w) => /more than 1048576 communicator lines: COMMEVT \(comm 258, rank 0\) and later new ones are ignored/.test(w)),
    summary.warnings.join(' | '),
  );
});
