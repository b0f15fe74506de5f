// Atomic output: no partial target while converting, nothing left behind on cancel or failure,
// no overwrite without --force (CLI exit code 2, one line), and --force replaces the target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TargetExistsError, writeAtomically } from '../../../src/io/atomicWrite';
import { convertFile } from '../../../src/convert/convertJob';
import { fixture } from '../../helpers/paths';
import { runCli } from '../cli/runCli';

import { gunzipSync } from 'node:zlib';

// Plain (5 chunks of 1 MiB: several progress reports) and gzip'd inputs.
const INPUT_GZ = fixture('bigrun_medium_4.clog2.gz');
const INPUT = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-atomic-in-')), 'bigrun.clog2');
fs.writeFileSync(INPUT, gunzipSync(fs.readFileSync(INPUT_GZ)));
process.on('exit', () => fs.rmSync(path.dirname(INPUT), { recursive: true, force: true }));

function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-atomic-'));
}

test('while converting, only a temporary file exists; the target appears complete at the end', async () => {
  const dir = freshDir();
  const target = path.join(dir, 'out.slog2');
  let sawTemp = false;
  const plain: number[] = [];
  await convertFile(INPUT, target, {
    onProgress: (read, total) => {
      assert.equal(fs.existsSync(target), false, 'no target before the end');
      if (fs.readdirSync(dir).some((f) => f.endsWith('.tmp'))) sawTemp = true;
      assert.equal(total, fs.statSync(INPUT).size);
      plain.push(read);
    },
  });
  assert.ok(sawTemp);
  // the plain file is read straight into each chunk's buffer: progress still counts every chunk
  assert.ok(plain.length >= 3 && plain.every((r, i) => i === 0 || r > plain[i - 1]!), `progress ${plain.join(', ')}`);
  assert.equal(plain[plain.length - 1], fs.statSync(INPUT).size, 'progress reaches the end');
  assert.deepEqual(fs.readdirSync(dir), ['out.slog2']);
  // The gzip'd input gives the same file.
  const fromGz = path.join(dir, 'gz.slog2');
  let reports = 0;
  await convertFile(INPUT_GZ, fromGz, { onProgress: (read, total) => (reports++, assert.ok(read <= total)) });
  assert.ok(reports >= 3, `${reports} progress reports`);
  assert.deepEqual(fs.readFileSync(fromGz), fs.readFileSync(target));
  fs.rmSync(fromGz);
  const head = fs.readFileSync(target).subarray(0, 108);
  assert.equal(head.readInt32BE(24 + 8) > 0, true, 'final header written (categories FBinfo size > 0)');
  fs.rmSync(dir, { recursive: true });
});

test('cancellation rejects and leaves no file behind', async () => {
  const dir = freshDir();
  const target = path.join(dir, 'out.slog2');
  const controller = new AbortController();
  let calls = 0;
  await assert.rejects(
    convertFile(INPUT, target, {
      signal: controller.signal,
      onProgress: () => {
        if (++calls === 2) controller.abort(new Error('cancelled by test'));
      },
    }),
    /cancelled by test/,
  );
  assert.deepEqual(fs.readdirSync(dir), []);
  fs.rmSync(dir, { recursive: true });
});

test('a failing producer leaves neither target nor temporary file', async () => {
  const dir = freshDir();
  const target = path.join(dir, 'x.slog2');
  await assert.rejects(
    writeAtomically(target, {}, async (sink) => {
      await sink.write(new Uint8Array(10 << 20));
      throw new Error('disk on fire');
    }),
    /disk on fire/,
  );
  assert.deepEqual(fs.readdirSync(dir), []);
  // Not a trace: refused before anything is created.
  const bogus = path.join(dir, 'bogus.clog2');
  fs.writeFileSync(bogus, 'hello, not a trace at all, just some text padding it to a few dozen bytes');
  await assert.rejects(convertFile(bogus, target), /not a CLOG2, CLOG, ALOG or SLOG-1 trace/);
  assert.deepEqual(fs.readdirSync(dir), ['bogus.clog2']);
  fs.rmSync(dir, { recursive: true });
});

test('an existing target is not overwritten without force, and is with force', async () => {
  const dir = freshDir();
  const target = path.join(dir, 'out.slog2');
  fs.writeFileSync(target, 'precious');
  await assert.rejects(convertFile(fixture('pi_bcast_4.clog2'), target), (e: unknown) => e instanceof TargetExistsError && e.code === 'EEXIST');
  assert.equal(fs.readFileSync(target, 'utf8'), 'precious');
  assert.deepEqual(fs.readdirSync(dir), ['out.slog2']);
  await convertFile(fixture('pi_bcast_4.clog2'), target, { force: true });
  assert.equal(fs.readFileSync(target).subarray(2, 12).toString('latin1'), 'SLOG 2.0.6');
  assert.deepEqual(fs.readdirSync(dir), ['out.slog2']);
  fs.rmSync(dir, { recursive: true });
});

test('a target created during the conversion is not clobbered (no-overwrite commit)', async () => {
  const dir = freshDir();
  const target = path.join(dir, 'out.slog2');
  await assert.rejects(
    writeAtomically(target, {}, async (sink) => {
      await sink.write(new Uint8Array([1, 2, 3]));
      fs.writeFileSync(target, 'someone else');
    }),
    (e: unknown) => e instanceof TargetExistsError,
  );
  assert.equal(fs.readFileSync(target, 'utf8'), 'someone else');
  assert.deepEqual(fs.readdirSync(dir), ['out.slog2']);
  fs.rmSync(dir, { recursive: true });
});

test('mpe-trace convert: exit 2 with one line on an existing target, 0 with --force, usage errors, default output name', () => {
  const dir = freshDir();
  const target = path.join(dir, 'pi.slog2');
  const input = fixture('pi_bcast_4.clog2');
  let r = runCli(['convert', input, '-o', target]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /56 drawables, 1 tree nodes/);
  r = runCli(['convert', input, '-o', target]);
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.match(r.stderr, /already exists/);
  assert.match(r.stderr, /pi\.slog2: already exists \(use --force to overwrite it\)/);
  r = runCli(['convert', input, '-o', target, '--force', '--children', '3', '--leaf-bytes', '1000']);
  assert.equal(r.status, 0, r.stderr);
  r = runCli(['convert', input, '-o', target, '--children', '1']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--children must be an integer/);
  const bytes = fs.readFileSync(target);
  assert.equal(bytes.readInt16BE(12), 3, 'fan-out 3 in the header');
  assert.equal(bytes.readInt32BE(14), 1000, 'leaf size in the header');
  assert.ok(bytes.readInt16BE(18) >= 1, 'a multi-level tree');
  assert.deepEqual(fs.readdirSync(dir), ['pi.slog2']);
  // Default output name next to the input.
  const copy = path.join(dir, 'ring.clog2');
  fs.copyFileSync(fixture('ring_p2p_4.clog2'), copy);
  assert.equal(runCli(['convert', copy]).status, 0);
  assert.ok(fs.existsSync(path.join(dir, 'ring.slog2')));
  fs.rmSync(dir, { recursive: true });
});
