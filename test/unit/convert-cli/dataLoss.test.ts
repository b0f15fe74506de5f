// Hardening round 2 (issue 14), data loss: the output of `convert` is checked by identity (never the
// input, through any spelling, symlink or hard link, with or without --force), only regular files
// are replaced, a failing disk gives one clear error and no temporary file (no unhandled rejection),
// and temporary files of killed runs are removed by a later run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { writeAtomically } from '../../../src/io/atomicWrite';
import { FileSink } from '../../../src/io/fileSink';
import { checkOutputFor, UnsafeOutputError } from '../../../src/io/outputGuard';
import { hostTag, parseTempName, removeStaleTempFiles, tempPathFor } from '../../../src/io/tempFiles';
import { synthesizeClog2File } from '../../../src/io/synthFile';
import { trimCache } from '../../../src/host/clogConversion';
import { convertFile } from '../../../src/convert/convertJob';
import { fixture } from '../../helpers/paths';
import { cliPath, runCli } from '../cli/runCli';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-dataloss-'));
process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
function freshDir(): string {
  const d = path.join(root, `d${n++}`);
  fs.mkdirSync(d);
  return d;
}
function copyInput(dir: string, name = 'us.clog2'): { file: string; bytes: Buffer } {
  const file = path.join(dir, name);
  fs.copyFileSync(fixture('pi_bcast_4.clog2'), file);
  return { file, bytes: fs.readFileSync(file) };
}
/** A process id that surely is not running: a child that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('convert never overwrites its input: same path spelled differently, symlink, hard link, with --force', async () => {
  const dir = freshDir();
  const { file, bytes } = copyInput(dir);
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const spellings = ['./us.clog2', `${dir}/../${path.basename(dir)}/us.clog2`, `${dir}//us.clog2`];
    fs.symlinkSync(file, path.join(dir, 'link.slog2'));
    fs.linkSync(file, path.join(dir, 'hard.slog2'));
    for (const out of [...spellings, path.join(dir, 'link.slog2'), path.join(dir, 'hard.slog2')]) {
      const r = runCli(['convert', 'us.clog2', '-o', out, '--force']);
      assert.equal(r.status, 2, `${out}: ${r.stderr}`);
      assert.match(r.stderr, /is the input file/);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.deepEqual(fs.readFileSync(file), bytes, `${out} destroyed the input`);
      // The library entry point (used by the editor's worker) refuses too.
      await assert.rejects(convertFile('us.clog2', out, { force: true }), UnsafeOutputError);
      assert.deepEqual(fs.readFileSync(file), bytes);
    }
    // The input given through a symlink, the output naming the real file.
    fs.symlinkSync(file, path.join(dir, 'alias.clog2'));
    const r = runCli(['convert', path.join(dir, 'alias.clog2'), '-o', file, '--force']);
    assert.equal(r.status, 2, r.stderr);
    assert.deepEqual(fs.readFileSync(file), bytes);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  } finally {
    process.chdir(cwd);
  }
});

test('--force replaces only regular files: a FIFO, a directory, a link to a device are refused', async () => {
  const dir = freshDir();
  const { file } = copyInput(dir);
  const fifo = path.join(dir, 'pipe.slog2');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  const sub = path.join(dir, 'sub.slog2');
  fs.mkdirSync(sub);
  const devLink = path.join(dir, 'null.slog2');
  fs.symlinkSync('/dev/null', devLink);
  for (const out of [fifo, sub, devLink]) {
    const r = runCli(['convert', file, '-o', out, '--force']);
    assert.equal(r.status, 2, `${out}: ${r.stderr}`);
    assert.match(r.stderr, /only regular files are replaced/);
    await assert.rejects(
      writeAtomically(out, { force: true }, (s) => s.write(new Uint8Array(4))),
      UnsafeOutputError,
    );
  }
  assert.ok(fs.lstatSync(fifo).isFIFO(), 'the FIFO is still a FIFO');
  assert.ok(fs.statSync(sub).isDirectory());
  assert.ok(fs.statSync('/dev/null').isCharacterDevice());
  assert.ok(fs.lstatSync(devLink).isSymbolicLink());
  // A symlink to a regular file: replaced by the new file, after saying so; its target is untouched.
  const victim = path.join(dir, 'elsewhere.txt');
  fs.writeFileSync(victim, 'keep me');
  const link = path.join(dir, 'linked.slog2');
  fs.symlinkSync(victim, link);
  const r = runCli(['convert', file, '-o', link, '--force']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /is a symbolic link; it will be replaced by the new file/);
  assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me');
  assert.ok(fs.lstatSync(link).isFile());
  assert.deepEqual((await checkOutputFor(file, path.join(dir, 'new.slog2'))).exists, false);
});

/** A FileHandle whose writes fail like a full disk, after `okWrites` successful ones. */
function fullDiskHandle(okWrites: number): { handle: FileHandle; writes: () => number } {
  let writes = 0;
  const handle = {
    write: async (_b: Uint8Array, _o: number, length: number) => {
      if (writes++ < okWrites) return { bytesWritten: length };
      await new Promise((r) => setImmediate(r));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    },
    close: async () => undefined,
    sync: async () => undefined,
  };
  return { handle: handle as unknown as FileHandle, writes: () => writes };
}

test('a write failing while nothing awaits it is not an unhandled rejection; it surfaces at the next write', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown): void => void unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    const { handle } = fullDiskHandle(0);
    const sink = new FileSink(handle, 1024);
    await sink.write(new Uint8Array(1024)); // fills one chunk: written behind, fails meanwhile
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r)); // the encoder is busy elsewhere
    await assert.rejects(sink.write(new Uint8Array(10)), /ENOSPC/);
    await assert.rejects(sink.flush(), /ENOSPC/);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

test('a full disk under the CLI: one ENOSPC-style line, exit 2, no temporary file (file-size limit)', () => {
  const dir = freshDir();
  const input = path.join(dir, 'big.clog2');
  fs.writeFileSync(input, gunzipSync(fs.readFileSync(fixture('bigrun_medium_4.clog2.gz'))));
  for (const limitKiB of [600, 1024, 1500]) {
    const out = path.join(dir, 'out.slog2');
    // RLIMIT_FSIZE makes writes past the limit fail (EFBIG), like a disk filling up mid-conversion.
    const r = spawnSync('bash', ['-c', `ulimit -f ${limitKiB}; exec "$0" "$@"`, ...cliCommand(['convert', input, '-o', out])], { encoding: 'utf8' });
    assert.equal(r.status, 2, `limit ${limitKiB}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /out\.slog2: could not be written \(EFBIG/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/, 'no stack trace');
    assert.deepEqual(fs.readdirSync(dir), ['big.clog2'], `limit ${limitKiB}`);
  }
});

/** [node, cli.js, ...args] of the CLI runCli built. */
function cliCommand(args: string[]): string[] {
  return [process.execPath, cliPath(), ...args];
}

test('writeAtomically turns a full disk into one OutputWriteError and removes the temporary file', async () => {
  const dir = freshDir();
  const target = path.join(dir, 'x.slog2');
  // The real file handle, wrapped so that its second chunk fails with ENOSPC.
  await assert.rejects(
    writeAtomically(target, {}, async (sink) => {
      const { handle } = fullDiskHandle(1);
      const failing = new FileSink(handle, 1 << 16);
      for (let i = 0; i < 8; i++) await failing.write(new Uint8Array(1 << 16));
      await sink.write(new Uint8Array(3));
    }),
    (e: Error) => /ENOSPC/.test(e.message),
  );
  assert.deepEqual(fs.readdirSync(dir), []);
});

test('temporary files name their host and process; stale ones (dead process) are removed, live ones kept', async () => {
  const dir = freshDir();
  const target = path.join(dir, 'out.slog2');
  const mine = tempPathFor(target);
  const parsed = parseTempName(path.basename(mine));
  assert.deepEqual(parsed, { target: 'out.slog2', host: hostTag(), pid: process.pid });
  const dead = path.join(dir, `.out.slog2.mpe-tmp.${hostTag()}.${deadPid()}.0badf00d.tmp`);
  const foreignFresh = path.join(dir, `.out.slog2.mpe-tmp.${hostTag() === '00000000' ? '11111111' : '00000000'}.1.12345678.tmp`);
  const foreignOld = path.join(dir, `.out.slog2.mpe-tmp.${hostTag() === '00000000' ? '11111111' : '00000000'}.2.12345678.tmp`);
  const unrelated = path.join(dir, '.out.slog2.12.tmp');
  for (const f of [mine, dead, foreignFresh, foreignOld, unrelated]) fs.writeFileSync(f, 'partial');
  const old = new Date(Date.now() - 3 * 24 * 3600 * 1000);
  fs.utimesSync(foreignOld, old, old);
  const removed = await removeStaleTempFiles(dir);
  assert.deepEqual(removed.sort(), [dead, foreignOld].sort());
  assert.ok(fs.existsSync(mine) && fs.existsSync(foreignFresh) && fs.existsSync(unrelated));
  // A later conversion to the same target cleans up the dead run's leftovers.
  fs.writeFileSync(dead, 'partial');
  const input = copyInput(dir).file;
  const r = runCli(['convert', input, '-o', target]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.existsSync(dead), false, 'stale temp file removed by the next convert');
  // The editor's cache trim removes them too.
  const cache = freshDir();
  const cached = path.join(cache, `.abc.slog2.mpe-tmp.${hostTag()}.${deadPid()}.0badf00d.tmp`);
  fs.writeFileSync(cached, 'partial');
  fs.writeFileSync(path.join(cache, 'abc.slog2'), 'x');
  await trimCache(cache, 1 << 20, path.join(cache, 'abc.slog2'));
  assert.deepEqual(fs.readdirSync(cache), ['abc.slog2']);
});

async function startConvert(cli: string[], outDir: string): Promise<{ child: ReturnType<typeof spawn>; exited: Promise<number | null>; stderr: () => string }> {
  const child = spawn(cli[0]!, cli.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if (fs.readdirSync(outDir).some((f) => f.endsWith('.tmp'))) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  return { child, exited, stderr: () => stderr };
}

test('SIGHUP is handled like SIGINT; after SIGKILL a later convert removes the leftover temporary file', async () => {
  const dir = freshDir();
  const input = path.join(dir, 'big.clog2');
  await synthesizeClog2File(input, { ranks: 8, bytes: 12e6, seed: 7 });
  const outDir = path.join(dir, 'out');
  fs.mkdirSync(outDir);
  const target = path.join(outDir, 'big.slog2');
  const cmd = cliCommand(['convert', input, '-o', target]);
  let run = await startConvert(cmd, outDir);
  run.child.kill('SIGHUP');
  assert.equal(await run.exited, 130, run.stderr());
  assert.match(run.stderr(), /interrupted/);
  assert.deepEqual(fs.readdirSync(outDir), []);

  run = await startConvert(cmd, outDir);
  run.child.kill('SIGKILL');
  await run.exited;
  const left = fs.readdirSync(outDir);
  assert.equal(left.length, 1, `SIGKILL leaves its temporary file: ${left}`);
  const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(fs.readdirSync(outDir), ['big.slog2']);
});
