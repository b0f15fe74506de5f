// dist/cli.js starts as a POSIX sh script that execs Node on itself (scripts/cliLauncher.mjs): for
// `convert` it sets glibc's mmap threshold and arena count, each unless the caller did; for every
// command it unsets NODE_EXTRA_CA_CERTS (read at Node's start, the CLI makes no TLS connection);
// Node reads the same line as JS.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cliBanner } from '../../helpers/cliBanner';
import { repoRoot } from '../../helpers/paths';
import { cliPath } from './runCli';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-cli-launcher-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

/** A script with the CLI's banner that prints what Node got: the variables and its arguments. */
function probeScript(): string {
  return scriptWithBanner(
    'probe.js',
    'const e = process.env; process.stdout.write(JSON.stringify([e.MALLOC_MMAP_THRESHOLD_ ?? null, e.MALLOC_ARENA_MAX ?? null, process.argv.slice(2)]));',
  );
}

function scriptWithBanner(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${cliBanner()}\n"use strict";\n${body}\n`, { mode: 0o755 });
  return file;
}

function run(cmd: string, args: string[], env: Record<string, string | undefined> = {}): { status: number | null; stdout: string; stderr: string } {
  const full = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete full[k];
  // Node first on PATH: the launcher execs `node`, as `#!/usr/bin/env node` did.
  full.PATH = `${path.dirname(process.execPath)}${path.delimiter}${full.PATH ?? ''}`;
  return spawnSync(cmd, args, { encoding: 'utf8', env: full });
}

test(
  'convert gets the mmap threshold and arena count, other commands and caller-set values are left alone',
  { skip: process.platform === 'win32' && 'a sh launcher' },
  () => {
    const probe = probeScript();
    const unset = { MALLOC_MMAP_THRESHOLD_: undefined, MALLOC_ARENA_MAX: undefined };
    assert.deepEqual(JSON.parse(run(probe, ['convert', 'a b.clog2', '-o', "it's.slog2"], unset).stdout), [
      '262144',
      '2',
      ['convert', 'a b.clog2', '-o', "it's.slog2"],
    ]);
    assert.deepEqual(JSON.parse(run(probe, ['info', 'x.slog2'], unset).stdout), [null, null, ['info', 'x.slog2']]);
    assert.deepEqual(JSON.parse(run(probe, ['convert', 'x'], { MALLOC_MMAP_THRESHOLD_: '1048576', MALLOC_ARENA_MAX: undefined }).stdout), [
      '1048576',
      '2',
      ['convert', 'x'],
    ]);
    assert.deepEqual(JSON.parse(run(probe, ['convert', 'x'], { MALLOC_MMAP_THRESHOLD_: undefined, MALLOC_ARENA_MAX: '8' }).stdout), [
      '262144',
      '8',
      ['convert', 'x'],
    ]);
    assert.deepEqual(JSON.parse(run(probe, [], unset).stdout), [null, null, []]);
    // Through a symbolic link, as npm's bin link runs it.
    const link = path.join(dir, 'mpe-trace');
    fs.symlinkSync(probe, link);
    assert.deepEqual(JSON.parse(run(link, ['convert'], unset).stdout), ['262144', '2', ['convert']]);
    // Started by Node itself, the sh line is a string and a comment.
    assert.deepEqual(JSON.parse(run(process.execPath, [probe, 'convert'], unset).stdout), [null, null, ['convert']]);
  },
);

test('every command starts Node without NODE_EXTRA_CA_CERTS; Node started by hand keeps it', { skip: process.platform === 'win32' && 'a sh launcher' }, () => {
  const probe = scriptWithBanner('certs.js', 'process.stdout.write(JSON.stringify(process.env.NODE_EXTRA_CA_CERTS ?? null));');
  const certs = { NODE_EXTRA_CA_CERTS: path.join(dir, 'extra.pem') };
  for (const args of [['convert', 'x.clog2'], ['info', 'x.slog2'], []]) assert.equal(JSON.parse(run(probe, args, certs).stdout), null, args.join(' '));
  assert.equal(JSON.parse(run(probe, ['info'], { NODE_EXTRA_CA_CERTS: undefined }).stdout), null);
  assert.equal(JSON.parse(run(process.execPath, [probe, 'convert'], certs).stdout), certs.NODE_EXTRA_CA_CERTS);
});

test('the CLI built with the banner runs both ways: executed, and as `node cli.js`', { skip: process.platform === 'win32' && 'a sh launcher' }, () => {
  const cli = cliPath();
  for (const [cmd, args] of [
    [cli, ['--help']],
    [process.execPath, [cli, '--help']],
  ] as const) {
    const r = run(cmd, [...args]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^usage: mpe-trace <command>/);
  }
  const bad = run(cli, ['convert', path.join(dir, 'missing.clog2')]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /missing\.clog2/);
});

test('the build puts the banner on dist/cli.js', () => {
  const src = fs.readFileSync(path.join(repoRoot, 'esbuild.mjs'), 'utf8');
  assert.match(src, /outfile: 'dist\/cli\.js', banner: \{ js: CLI_BANNER \}/);
});
