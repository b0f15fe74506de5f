// Issue 14 §9: a FIFO without a writer used to hang every command; a directory gave "EISDIR … read"
// without the file name. Non-regular inputs are refused at once, and every error names the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileSource, NotRegularFileError } from '../../../src/io/fileSource';
import { cliPath } from '../cli/runCli';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-inputs-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]) {
  // A hang shows as status null (killed at the timeout), not as a stuck test run.
  return spawnSync(process.execPath, [cliPath(), ...args], { encoding: 'utf8', timeout: 30_000 });
}

test('a FIFO or a directory as input: refused at once with the file named, for every command', async () => {
  const fifo = path.join(dir, 'pipe.clog2');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const folder = path.join(dir, 'folder.slog2');
  fs.mkdirSync(folder);
  for (const input of [fifo, folder]) {
    await assert.rejects(FileSource.open(input), NotRegularFileError);
    for (const args of [
      ['info', input],
      ['dump', input],
      ['stats', input],
      ['convert', input, '-o', path.join(dir, 'out.slog2')],
    ]) {
      const r = cli(args);
      assert.equal(r.status, 2, `${args.join(' ')}: status ${r.status} ${r.signal ?? ''} ${r.stderr}`);
      assert.ok(r.stderr.startsWith(`${input}: is a`), r.stderr);
      assert.match(r.stderr, /only regular files are read/);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    }
  }
  assert.equal(fs.existsSync(path.join(dir, 'out.slog2')), false);
  const missing = cli(['info', path.join(dir, 'nope.slog2')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /nope\.slog2: no such file/);
});
