// The conversion worker: progress arrives, the result equals the in-process conversion, and cancel leaves
// no file behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ConversionFailed, startConversion } from '../../../src/worker/conversionClient';
import { convertFile } from '../../../src/convert/convertJob';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { fixture } from '../../helpers/paths';
import { bundleNode } from '../../helpers/bundle';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-worker-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

/** dist/worker.js and, next to it as in dist/, the converter thread it starts (dist/converter.js). */
function buildWorker(): string {
  bundleNode('src/worker/converter.ts', path.join(dir, 'converter.js'));
  return bundleNode('src/worker/conversionWorker.ts', path.join(dir, 'worker.js'));
}

const workerJs = buildWorker();
const input = path.join(dir, 'bigrun.clog2');
fs.writeFileSync(input, gunzipSync(fs.readFileSync(fixture('bigrun_medium_4.clog2.gz'))));

// How busy the host's event loop is meanwhile is a figure of `npm run bench` (lag.bench.ts), not a test.
test('a worker conversion reports progress and equals the in-process result', async () => {
  const output = path.join(dir, 'w.slog2');
  const progress: number[] = [];
  const run = startConversion(workerJs, { input, output, force: false }, (read, total) => progress.push(read / total));
  const result = await run.done;
  assert.ok(progress.length >= 1 && progress.at(-1) === 1, `progress ${progress.join(',')}`);
  assert.equal(result.drawables, 60160);
  assert.equal(result.nodes, 63);
  const local = path.join(dir, 'local.slog2');
  await convertFile(input, local);
  assert.deepEqual(fs.readFileSync(output), fs.readFileSync(local));
});

test('cancelling a worker conversion rejects with "cancelled" and leaves no file', async () => {
  const out = path.join(dir, 'cancel');
  fs.mkdirSync(out);
  // Large enough (~40 MB, ~0.5 s of conversion) that the cancel sent at the first progress
  // report arrives mid-stream: bigrun converts faster than a progress round trip.
  const big = path.join(dir, 'cancel-input.clog2');
  await synthesizeClog2File(big, { ranks: 8, bytes: 40e6, srcloc: true, seed: 7 });
  const output = path.join(out, 'c.slog2');
  let run: ReturnType<typeof startConversion> | undefined;
  // eslint-disable-next-line prefer-const -- the progress callback refers to `run`, which may be called before it is assigned
  run = startConversion(workerJs, { input: big, output, force: false }, () => run?.cancel());
  await assert.rejects(run.done, (e: unknown) => e instanceof ConversionFailed && e.reason === 'cancelled');
  assert.deepEqual(fs.readdirSync(out), []);
  // Cancelled before it has read anything (the cancel follows the start message at once).
  const early = startConversion(workerJs, { input: big, output, force: false }, () => undefined);
  early.cancel();
  await assert.rejects(early.done, (e: unknown) => e instanceof ConversionFailed && e.reason === 'cancelled');
  assert.deepEqual(fs.readdirSync(out), []);
});

test('worker errors name the reason: existing output, bad input', async () => {
  const existing = path.join(dir, 'exists.slog2');
  fs.writeFileSync(existing, 'x');
  await assert.rejects(
    startConversion(workerJs, { input, output: existing, force: false }, () => {}).done,
    (e: unknown) => e instanceof ConversionFailed && e.reason === 'exists',
  );
  assert.equal(fs.readFileSync(existing, 'utf8'), 'x');
  await assert.rejects(
    startConversion(workerJs, { input: path.join(dir, 'missing.clog2'), output: path.join(dir, 'm.slog2'), force: false }, () => {}).done,
    (e: unknown) => e instanceof ConversionFailed && e.reason === 'input',
  );
});

function buildMisbehavingWorker(): string {
  return bundleNode('test/unit/convert-cli/misbehavingWorker.ts', path.join(dir, 'misbehaving-worker.js'));
}

for (const mode of ['crash', 'oom'] as const) {
  test(`a conversion worker that dies (${mode}) leaves no temporary file and no target; the message says why`, async () => {
    const output = path.join(dir, `dies-${mode}.slog2`);
    const run = startConversion(buildMisbehavingWorker(), { input: mode, output, force: false }, () => undefined, { maxHeapMB: 32 });
    await assert.rejects(run.done, (e: unknown) => {
      assert.ok(e instanceof ConversionFailed);
      assert.equal(e.reason, 'failed');
      assert.match(e.message, mode === 'oom' ? /memory cap of 32 MB/ : /crashed: simulated crash/);
      return true;
    });
    assert.equal(fs.existsSync(output), false, 'no target');
    assert.deepEqual(
      fs.readdirSync(dir).filter((n) => n.startsWith(`.dies-${mode}.slog2.`)),
      [],
      'no temporary file',
    );
  });
}

const threadCount = (): number => fs.readdirSync('/proc/self/task').length;

/** Waits (a while at most) until the process has `n` threads again. */
async function threadsBackTo(n: number): Promise<number> {
  for (let i = 0; i < 100 && threadCount() > n; i++) await new Promise((r) => setTimeout(r, 20));
  return threadCount();
}

test(
  'a conversion worth two threads: the host starts the converter thread beside the worker and hands it over; same bytes as in process',
  { skip: process.platform !== 'linux' && 'threads counted in /proc/self/task' },
  async () => {
    // dist/'s two scripts, each wrapped to note its thread id (ids count up in the order threads start)
    const own = fs.mkdtempSync(path.join(dir, 'handoff-'));
    bundleNode('src/worker/converter.ts', path.join(own, 'converter-impl.js'));
    bundleNode('src/worker/conversionWorker.ts', path.join(own, 'worker-impl.js'));
    const note = path.join(own, 'threads');
    for (const name of ['converter', 'worker'])
      fs.writeFileSync(
        path.join(own, `${name}.js`),
        `require('node:fs').appendFileSync(${JSON.stringify(note)}, '${name} ' + require('node:worker_threads').threadId + '\\n');\nrequire('./${name}-impl.js');\n`,
      );
    const big = path.join(own, 'big.clog2');
    await synthesizeClog2File(big, { ranks: 8, bytes: 26e6, srcloc: true, seed: 5 });
    const before = threadCount();
    for (const snapshotEveryMs of [undefined, 50]) {
      fs.rmSync(note, { force: true });
      const output = path.join(own, `big-${snapshotEveryMs}.slog2`);
      const run = startConversion(
        path.join(own, 'worker.js'),
        { input: big, output, force: false, ...(snapshotEveryMs !== undefined ? { snapshotEveryMs } : {}) },
        () => undefined,
        {},
        () => undefined,
      );
      await run.done;
      const started = fs
        .readFileSync(note, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' '));
      const converters = started.filter(([n]) => n === 'converter').map(([, id]) => Number(id));
      const worker = Number(started.find(([n]) => n === 'worker')![1]);
      assert.equal(converters.length, 1, `one converter thread (snapshots every ${snapshotEveryMs} ms): ${JSON.stringify(started)}`);
      assert.ok(converters[0]! < worker, `the converter thread started before the worker, from the host: ${JSON.stringify(started)}`);
      assert.equal(await threadsBackTo(before), before, 'no thread outlives the conversion');
      const local = path.join(own, `local-${snapshotEveryMs}.slog2`);
      await convertFile(big, local);
      assert.ok(fs.readFileSync(output).equals(fs.readFileSync(local)), 'the same bytes as in process');
    }
    // A preview converts in the worker alone: no converter thread.
    fs.rmSync(note, { force: true });
    await startConversion(
      path.join(own, 'worker.js'),
      { input: big, output: path.join(own, 'preview.slog2'), force: false, prefixBytes: 4 << 20 },
      () => undefined,
    ).done;
    assert.deepEqual(
      fs
        .readFileSync(note, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[0]),
      ['worker'],
    );
  },
);

test(
  'a converter thread handed to a worker that dies does not outlive it',
  { skip: process.platform !== 'linux' && 'threads counted in /proc/self/task' },
  async () => {
    const big = path.join(dir, 'big.crash.clog2');
    await synthesizeClog2File(big, { ranks: 8, bytes: 26e6, seed: 6 });
    const before = threadCount();
    // misbehaving-worker.js sits next to converter.js (buildWorker): the host starts the thread, the worker never takes it
    const run = startConversion(buildMisbehavingWorker(), { input: big, output: path.join(dir, 'crash-big.slog2'), force: false }, () => undefined);
    await assert.rejects(run.done, /crashed: simulated crash/);
    assert.equal(await threadsBackTo(before), before, 'the converter thread stopped');
  },
);

test('removeStrayTempFiles removes only this process temporary files of the target', async () => {
  const { removeStrayTempFiles } = await import('../../../src/io/atomicWrite');
  const { hostTag } = await import('../../../src/io/tempFiles');
  const target = path.join(dir, 'stray.slog2');
  const mine = path.join(dir, `.stray.slog2.mpe-tmp.${hostTag()}.${process.pid}.0123abcd.tmp`);
  // Another live process (the test runner that started this one) on this host: never touched.
  const other = path.join(dir, `.stray.slog2.mpe-tmp.${hostTag()}.${process.ppid}.0123abcd.tmp`);
  const unrelated = path.join(dir, `.stray.slog2.${process.pid}.notes.txt`);
  for (const f of [mine, other, unrelated]) fs.writeFileSync(f, 'x');
  assert.deepEqual(await removeStrayTempFiles(target), [mine]);
  assert.equal(fs.existsSync(other), true);
  assert.equal(fs.existsSync(unrelated), true);
});
