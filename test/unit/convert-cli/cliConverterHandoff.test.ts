// `mpe-trace convert` of an input worth two threads, run as the bin runs: its main thread starts the
// converter thread together with the job thread and hands it over (converterHandoff.ts), so the
// converter is the process's first thread (thread ids count up from 1 in the order threads start;
// started by the job thread it would be the second). The output is the one-thread conversion's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { convertFile } from '../../../src/convert/convertJob';
import { convertNeedsJobThread } from '../../../src/cli/convertLaunch';
import { bundleNode } from '../../helpers/bundle';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cli-relay-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

test('the CLI starts the converter thread with the job thread, and writes what one thread writes', async () => {
  const cli = bundleNode('src/cli/main.ts', path.join(dir, 'cli.js'));
  bundleNode('src/worker/converter.ts', path.join(dir, 'converter-impl.js'));
  // dist/converter.js's place next to the CLI: notes which thread it is, then runs the converter
  fs.writeFileSync(
    path.join(dir, 'converter.js'),
    "require('node:fs').writeFileSync(process.env.MPE_TEST_THREAD_NOTE, String(require('node:worker_threads').threadId));\nrequire('./converter-impl.js');\n",
  );
  const input = path.join(dir, 'big.clog2');
  await synthesizeClog2File(input, { ranks: 8, bytes: 26e6, srcloc: true, seed: 5 });
  const output = path.join(dir, 'big.slog2');
  assert.equal(convertNeedsJobThread([input, '-o', output]), true);
  const note = path.join(dir, 'thread-note');
  const r = spawnSync(process.execPath, [cli, 'convert', input, '-o', output], {
    encoding: 'utf8',
    env: { ...process.env, MPE_TEST_THREAD_NOTE: note },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(note, 'utf8'), '1', 'the converter thread started first, from the main thread');
  const one = path.join(dir, 'one.slog2');
  await convertFile(input, one);
  assert.ok(fs.readFileSync(output).equals(fs.readFileSync(one)), 'the same bytes as one thread');
});
