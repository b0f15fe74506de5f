// dist/cli.js is a small launcher (src/cli/launch.ts): a `convert` worth two threads starts its
// converter thread and its job thread (dist/convertJob.js, the convert command alone) without the
// whole CLI (dist/cliMain.js), which every other command line loads. Laid out here as dist/ is.
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

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cli-launch-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

const cli = bundleNode('src/cli/launch.ts', path.join(dir, 'cli.js'));
bundleNode('src/cli/convertJobThread.ts', path.join(dir, 'convertJob.js'));
bundleNode('src/worker/converter.ts', path.join(dir, 'converter.js'));
const wholeCli = path.join(dir, 'cliMain.js');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
}

test('a two-thread convert runs without the whole CLI and writes what one thread writes; other commands load it', async () => {
  const input = path.join(dir, 'big.clog2');
  await synthesizeClog2File(input, { ranks: 8, bytes: 26e6, srcloc: true, seed: 5 });
  const output = path.join(dir, 'big.slog2');
  assert.equal(convertNeedsJobThread([input, '-o', output]), true);
  assert.equal(fs.existsSync(wholeCli), false);
  const r = run(['convert', input, '-o', output]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /big\.slog2: \d+ drawables/);
  const one = path.join(dir, 'one.slog2');
  await convertFile(input, one);
  assert.ok(fs.readFileSync(output).equals(fs.readFileSync(one)), 'the same bytes as one thread');
  // the job thread's errors are the CLI's one line and exit code 2
  const again = run(['convert', input, '-o', output]);
  assert.equal(again.status, 2);
  assert.equal(again.stderr, `${output}: already exists (use --force to overwrite it)\n`);

  // anything else needs the whole CLI: missing, it fails; there, it runs
  assert.notEqual(run(['info', output]).status, 0);
  bundleNode('src/cli/main.ts', wholeCli);
  const info = run(['info', output]);
  assert.equal(info.status, 0, info.stderr);
  assert.match(info.stdout, /^format\s+slog2/m);
  const usage = run([]);
  assert.equal(usage.status, 2);
  assert.match(usage.stdout, /^usage: mpe-trace <command>/);
});

test('a bad input in the job thread is one line naming the file and byte offset, exit code 2', () => {
  const input = path.join(dir, 'garbage.clog2');
  fs.writeFileSync(input, Buffer.alloc(25 << 20, 0x5a));
  assert.equal(convertNeedsJobThread([input]), true);
  const r = run(['convert', input, '-o', path.join(dir, 'garbage.slog2')]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^.*garbage\.clog2(:\d+)?: .+\n$/);
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  assert.equal(fs.existsSync(path.join(dir, 'garbage.slog2')), false);
});
