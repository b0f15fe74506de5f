// The two-thread conversion (converter thread dist/converter.js + writer thread) against the
// one-thread one: the same output bytes and the same summary for every fixture trace, the same
// error (a FormatError keeps its file and byte offset across the thread boundary) for every input
// that fails, and cancellation or a dead converter thread leave no file behind. The same with the
// converter thread started beforehand and handed over (converterHandoff.ts, as the CLI's main thread does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FormatError } from '../../../src/core/bytes/formatError';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { convertFile, type ConvertJobResult } from '../../../src/convert/convertJob';
import { ConverterThread, converterStart } from '../../../src/convert/converterThread';
import { ConverterHandoff } from '../../../src/convert/converterHandoff';
import { bundleNode } from '../../helpers/bundle';
import { fixture, fixturesDir, sharedTracesDir } from '../../helpers/paths';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-threads-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

const converterScript = bundleNode('src/worker/converter.ts', path.join(dir, 'converter.js'));

/** Every fixture trace, the fuzzer's regression inputs (some of which fail), and the upstream CLOG files when present. */
function inputs(): string[] {
  const traces = fs
    .readdirSync(fixturesDir)
    .filter((f) => /\.clog2(\.gz)?$/.test(f))
    .map((f) => fixture(f));
  const regressions = fs
    .readdirSync(path.join(fixturesDir, 'regressions'))
    .filter((f) => f.endsWith('.bin'))
    .map((f) => path.join(fixturesDir, 'regressions', f));
  const upstream = sharedTracesDir ? path.join(sharedTracesDir, 'upstream') : undefined;
  const clogs =
    upstream && fs.existsSync(upstream)
      ? fs
          .readdirSync(upstream)
          .filter((f) => /\.clog2?$/.test(f))
          .map((f) => path.join(upstream, f))
      : [];
  return [...traces, ...regressions, ...clogs];
}

type Outcome = { ok: true; bytes: Buffer; result: Omit<ConvertJobResult, 'output'> } | { ok: false; error: unknown };

type Threads = 'one' | 'two' | 'handed over';

async function outcome(input: string, output: string, threads: Threads, script = converterScript): Promise<Outcome> {
  // handed over: the converter thread is started before the conversion asks for it, and stopped after
  const handoff = threads === 'handed over' ? new ConverterHandoff(script, converterStart(input)) : undefined;
  try {
    const r = await convertFile(input, output, {
      force: true,
      converterScript: threads !== 'one' ? script : undefined,
      ...(handoff !== undefined ? { converterHandoff: handoff.handedOver } : {}),
    });
    const { output: _, ...result } = r;
    return { ok: true, bytes: fs.readFileSync(output), result };
  } catch (error) {
    return { ok: false, error };
  } finally {
    await handoff?.close();
  }
}

function assertSameOutcome(one: Outcome, other: Outcome, what: string): void {
  if (one.ok && other.ok) {
    assert.ok(one.bytes.equals(other.bytes), `${what}: same output bytes`);
    assert.deepEqual(other.result, one.result);
  } else if (!one.ok && !other.ok) {
    const [a, b] = [one.error as Error, other.error as Error];
    assert.equal(b.message, a.message);
    assert.equal(b.constructor, a.constructor);
    if (a instanceof FormatError) assert.equal((b as FormatError).offset, a.offset);
  } else
    assert.fail(
      `one thread ${one.ok ? 'succeeded' : `failed: ${String((one as { error: unknown }).error)}`}, ${what} ${other.ok ? 'succeeded' : `failed: ${String((other as { error: unknown }).error)}`}`,
    );
}

for (const input of inputs()) {
  test(`two threads = one thread, handed over too: ${path.basename(input)}`, async () => {
    const one = await outcome(input, path.join(dir, 'one.slog2'), 'one');
    assertSameOutcome(one, await outcome(input, path.join(dir, 'two.slog2'), 'two'), 'two threads');
    assertSameOutcome(one, await outcome(input, path.join(dir, 'handed.slog2'), 'handed over'), 'handed over');
  });
}

test('a missing input fails with ENOENT, not a hang', async () => {
  await assert.rejects(
    convertFile(path.join(dir, 'missing.clog2'), path.join(dir, 'm.slog2'), { converterScript }),
    (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT',
  );
  assert.equal(fs.existsSync(path.join(dir, 'm.slog2')), false);
});

test('aborting mid-stream rejects and leaves no file', async () => {
  const big = path.join(dir, 'big.clog2');
  await synthesizeClog2File(big, { ranks: 8, bytes: 25e6, srcloc: true, seed: 3 });
  const out = path.join(dir, 'abort');
  fs.mkdirSync(out);
  const controller = new AbortController();
  let reports = 0;
  await assert.rejects(
    convertFile(big, path.join(out, 'a.slog2'), {
      converterScript,
      signal: controller.signal,
      onProgress: (read, total) => {
        if (++reports === 2) {
          assert.ok(read < total, 'aborted before the end');
          controller.abort(new Error('stop'));
        }
      },
    }),
    /stop/,
  );
  assert.deepEqual(fs.readdirSync(out), []);
});

test('a converter thread that dies leaves no file and says so', async () => {
  const crashing = path.join(dir, 'crashing.js');
  fs.writeFileSync(crashing, "require('node:worker_threads').parentPort.once('message', () => { throw new Error('simulated converter crash'); });\n");
  const out = path.join(dir, 'crash');
  fs.mkdirSync(out);
  await assert.rejects(convertFile(fixture('ring_p2p_4.clog2'), path.join(out, 'c.slog2'), { converterScript: crashing }), /simulated converter crash/);
  const silent = path.join(dir, 'silent.js');
  fs.writeFileSync(silent, "require('node:worker_threads').parentPort.once('message', () => process.exit(3));\n");
  await assert.rejects(
    convertFile(fixture('ring_p2p_4.clog2'), path.join(out, 'c.slog2'), { converterScript: silent }),
    /converter thread stopped before the end of .*ring_p2p_4\.clog2 \(exit code 3\)/,
  );
  assert.deepEqual(fs.readdirSync(out), []);
});

test('a converter thread handed over that dies: the same error, no file', async () => {
  const crashing = path.join(dir, 'crashing-handed.js');
  fs.writeFileSync(crashing, "require('node:worker_threads').parentPort.once('message', () => { throw new Error('simulated converter crash'); });\n");
  const silent = path.join(dir, 'silent-handed.js');
  fs.writeFileSync(silent, "require('node:worker_threads').parentPort.once('message', () => process.exit(3));\n");
  const out = path.join(dir, 'crash-handed');
  fs.mkdirSync(out);
  const input = fixture('ring_p2p_4.clog2');
  for (const script of [crashing, silent]) {
    const two = await outcome(input, path.join(out, 'c.slog2'), 'two', script);
    const handed = await outcome(input, path.join(out, 'c.slog2'), 'handed over', script);
    assert.ok(!two.ok && !handed.ok, 'both fail');
    assert.match((handed as { error: Error }).error.message, script === crashing ? /simulated converter crash/ : /stopped before the end of .*\(exit code 3\)/);
    assert.equal((handed as { error: Error }).error.message, (two as { error: Error }).error.message);
  }
  assert.deepEqual(fs.readdirSync(out), []);
});

const threadCount = (): number => fs.readdirSync('/proc/self/task').length;
async function threadsBackTo(count: number): Promise<void> {
  const until = Date.now() + 5000;
  while (threadCount() > count && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  assert.ok(threadCount() <= count, `${threadCount()} threads left, ${count} before`);
}

test(
  'a converter thread handed over for another start is stopped, and the conversion converts what it asked for',
  { skip: process.platform !== 'linux' && 'threads counted in /proc/self/task' },
  async () => {
    const input = fixture('ring_p2p_4.clog2');
    const quirks = async (handoff?: ConverterHandoff): Promise<Buffer> => {
      const output = path.join(dir, `quirks-${handoff ? 'handed' : 'one'}.slog2`);
      await convertFile(input, output, {
        force: true,
        referenceQuirks: true,
        ...(handoff ? { converterScript, converterHandoff: handoff.handedOver } : {}),
      });
      return fs.readFileSync(output);
    };
    const expected = await quirks();
    const before = threadCount();
    // started without the reference's quirks, asked with them: that thread stops, another converts
    const handoff = new ConverterHandoff(converterScript, converterStart(input));
    try {
      assert.ok((await quirks(handoff)).equals(expected), 'as converted in one thread with the quirks');
      // both converter threads gone before close(): the one it was not asked for stopped by itself
      await threadsBackTo(before);
    } finally {
      await handoff.close();
    }
  },
);

test(
  'a converter thread handed over that nobody takes, or whose writer lets go, stops',
  { skip: process.platform !== 'linux' && 'threads counted in /proc/self/task' },
  async () => {
    const before = threadCount();
    const input = fixture('ring_p2p_4.clog2');
    // never taken: close() stops it
    const unused = new ConverterHandoff(converterScript, converterStart(input));
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(threadCount() > before, 'the converter thread started at once');
    await unused.close();
    await threadsBackTo(before);
    // the writer's end closed without a word (its thread ended or failed): the thread stops by itself
    const dropped = new ConverterHandoff(converterScript, converterStart(input));
    await new Promise((r) => setTimeout(r, 200));
    dropped.handedOver.data.close();
    await threadsBackTo(before);
    await dropped.close();
  },
);

test(
  'the converter thread is stopped once its last batch has come, before close()',
  { skip: process.platform !== 'linux' && 'threads counted in /proc/self/task' },
  async () => {
    const threads = (): number => fs.readdirSync('/proc/self/task').length;
    const before = threads();
    const converter = new ConverterThread(converterScript, fixture('ring_p2p_4.clog2'));
    let batches = 0;
    let during = 0;
    for await (const b of converter) {
      batches++;
      during = Math.max(during, threads());
      converter.recycle(b);
    }
    assert.ok(batches > 0 && during > before, `the thread ran (${during} threads, ${before} before)`);
    // its teardown overlaps the writer's last work: gone without close() (the grace period is 3 s)
    const until = Date.now() + 5000;
    while (threads() >= during && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.ok(threads() < during, `${threads()} threads left, ${during} while converting`);
    await converter.close();
  },
);
