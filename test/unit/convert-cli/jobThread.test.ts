// The CLI's job thread (src/cli/jobThread.ts): its exit code is the process's, and a thread that
// dies without finishing (here: an error thrown at its start) is exit code 2 with one line saying
// so, not a silent success. Interruptions through it: interrupt.test.ts and dataLoss.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInJobThread, runsInJobThread } from '../../../src/cli/jobThread';
import { convertNeedsJobThread } from '../../../src/cli/convertLaunch';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-job-thread-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return file;
}

/** Runs `file` as a job thread, with what it (and the relay) wrote to stderr. */
async function run(file: string, argv: string[]): Promise<{ code: number; stderr: string }> {
  const write = process.stderr.write.bind(process.stderr);
  let stderr = '';
  process.stderr.write = ((chunk: string | Uint8Array): boolean => {
    stderr += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await runInJobThread(file, argv), stderr };
  } finally {
    process.stderr.write = write;
  }
}

test('the job thread gets the arguments, and its exit code is passed on', async () => {
  const echo = script('echo.js', "process.exitCode = process.argv.slice(2).join(' ') === 'convert in.clog2 -o out.slog2' ? 7 : 1;\n");
  assert.deepEqual(await run(echo, ['convert', 'in.clog2', '-o', 'out.slog2']), { code: 7, stderr: '' });
});

test('a job thread that dies is exit code 2 with one line saying so', async () => {
  const crash = script('crash.js', "throw new Error('boom at start');\n");
  const { code, stderr } = await run(crash, ['convert', 'in.clog2']);
  assert.equal(code, 2);
  assert.equal(stderr, 'mpe-trace: the convert thread failed: boom at start\n');
});

test('only convert runs in a job thread, and not for its help', () => {
  assert.equal(runsInJobThread(['convert', 'in.clog2']), true);
  assert.equal(runsInJobThread(['convert', '--help']), false);
  assert.equal(runsInJobThread(['convert', '-h']), false);
  assert.equal(runsInJobThread(['dump', 'in.slog2']), false);
  assert.equal(runsInJobThread([]), false);
});

test('a conversion small enough for one thread stays on the main thread; a big one, a bad input or a gzip that counts big gets the job thread', () => {
  // sizes on disk: sparse files (TWO_THREADS_MIN_BYTES is 24 MiB, a gzip'd input counts 4×)
  const sized = (name: string, bytes: number): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, '');
    fs.truncateSync(file, bytes);
    return file;
  };
  const small = sized('small.clog2', (24 << 20) - 1);
  const big = sized('big.clog2', 24 << 20);
  const gz = sized('packed.clog2.gz', 6 << 20);
  const smallGz = sized('small.clog2.gz', (6 << 20) - 1);
  assert.equal(convertNeedsJobThread([small]), false);
  assert.equal(convertNeedsJobThread([small, '-o', path.join(dir, 'x.slog2'), '--force', '--index']), false);
  assert.equal(convertNeedsJobThread([big]), true);
  assert.equal(convertNeedsJobThread(['--quiet', big, '--children', '4']), true);
  assert.equal(convertNeedsJobThread([gz]), true);
  assert.equal(convertNeedsJobThread([smallGz]), false);
  // an input that cannot be read: the job thread says what is wrong, as it did
  assert.equal(convertNeedsJobThread([path.join(dir, 'missing.clog2')]), true);
  // a command line that does not parse is answered where it is
  assert.equal(convertNeedsJobThread([]), false);
  assert.equal(convertNeedsJobThread([big, big]), false);
  assert.equal(convertNeedsJobThread([big, '--bogus']), false);
  assert.equal(convertNeedsJobThread([big, '-o']), false);
});
