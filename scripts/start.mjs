// `npm start`: the 60-second demo. Builds and packages the extension, installs the .vsix into a fresh
// real VS Code (code-server 4.139.1 on 127.0.0.1), opens a sample workspace (user_states_4.clog2 with source
// locations, its C source, user_states_4.slog2, more traces) with the trace in the MPE Trace editor, and
// prints the URL to open in a browser. Runs until Ctrl+C, then stops every process it started.
//
//   npm start                      (after `npm install`; installs chromium/code-server if missing, once)
//   npm start -- --check           start, check in headless Chromium that the trace editor shows, exit 0/1
//   npm start -- --port 8080       fixed port instead of a free random one
//   npm start -- --no-package      reuse the existing mpe-trace-viewer-<version>.vsix
//   npm start -- --vsix FILE       install that .vsix (no build)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  ensureHost, installVsix, makeRunDir, repoRoot, startCodeServer, workbenchUrl,
} from '../test/e2e/lib/codeServer.mjs';
import { buildWorkspace, readPackageJson } from '../test/e2e/lib/workspace.mjs';

const argv = process.argv.slice(2);
const check = argv.includes('--check');
const port = argv.includes('--port') ? Number(argv[argv.indexOf('--port') + 1]) : undefined;
const sampleTrace = 'user_states_4.clog2';

const t0 = Date.now();
const say = (msg) => console.log(`[start ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

const pkg = readPackageJson();
let run;
let server;
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (server) {
    say('stopping code-server');
    await server.stop();
  }
  if (run) run.dispose();
  process.exit(code);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
  say('checking chromium/code-server (installs them once if missing; the first time takes ~3 minutes)');
  const host = ensureHost();

  const givenVsix = argv.includes('--vsix') ? path.resolve(argv[argv.indexOf('--vsix') + 1]) : undefined;
  const vsix = givenVsix ?? path.join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
  if (!givenVsix && (!argv.includes('--no-package') || !fs.existsSync(vsix))) {
    say('npm run package (build + .vsix)');
    const r = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`npm run package failed (exit ${r.status})`);
  }

  run = makeRunDir('mpe-trace-start-');
  const workspace = buildWorkspace(path.join(run.dir, 'sample'));
  say(`installing ${path.basename(vsix)} into a fresh VS Code profile`);
  installVsix(host, run, vsix);

  server = await startCodeServer(host, run, { port });
  const url = workbenchUrl(server.url, workspace);
  say(`VS Code ${server.url} is up (process group ${server.pgid}, workspace ${workspace})`);
  // Opening the trace from the URL (payload openFile) resolves the editor before the remote extension host
  // has registered our custom editor, so the trace would land in the text editor. Instead, once a browser
  // window is connected and its extension host is up, open it through code-server's CLI (--reuse-window),
  // which goes through the editor resolver at that time.
  openTraceWhenConnected(host, path.join(workspace, sampleTrace));

  if (check) {
    const ok = await checkInBrowser(url);
    await stop(ok ? 0 : 1);
  } else {
    console.log(`\n  Open this URL in a browser on this machine (for a remote machine: ssh -L ${server.port}:127.0.0.1:${server.port} ...):\n\n  ${url}\n\n  ${sampleTrace} opens in the MPE Trace editor a few seconds after the workbench appears.\n  Press Ctrl+C to stop.\n`);
  }
} catch (e) {
  console.error(`npm start failed: ${e?.message ?? e}`);
  await stop(1);
}

/** Polls for a connected workbench window; opens `file` in it once (again for each new connection burst). */
function openTraceWhenConnected(host, file) {
  const extensionHostSettleMs = 4000;
  let opened = false;
  const attempt = () => {
    if (stopping || opened) return;
    const r = spawnSync(host.node, [host.entry, '--user-data-dir', run.userData, '--reuse-window', file], {
      env: { ...process.env, XDG_CONFIG_HOME: path.join(run.dir, 'xdg', 'config'), XDG_DATA_HOME: path.join(run.dir, 'xdg', 'data') },
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (r.status === 0 && !/No opened code-server instances/.test(r.stderr ?? '')) {
      opened = true;
      say(`opened ${path.basename(file)} in the connected window`);
    } else setTimeout(attempt, 1000);
  };
  // The first connection: wait until a window is registered, then give its extension host a moment.
  const waitForWindow = () => {
    if (stopping) return;
    const sock = path.join(run.userData, 'code-server-ipc.sock');
    fetchSessions(sock, file).then((connected) => {
      if (connected) setTimeout(attempt, extensionHostSettleMs);
      else setTimeout(waitForWindow, 500);
    });
  };
  waitForWindow();
}

/** True when code-server's editor session manager knows a connected window for `file`'s workspace. */
function fetchSessions(socketPath, file) {
  return new Promise((resolve) => {
    const req = http.request({ socketPath, path: `/session?filePath=${encodeURIComponent(file)}`, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve(res.statusCode === 200 && /socketPath/.test(body)));
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** The smoke check: the workbench loads and the sample trace is the active editor, shown by our webview. */
async function checkInBrowser(url) {
  const { openBrowser, newPage } = await import('../test/e2e/lib/browser.mjs');
  const { selectors } = await import('../test/e2e/lib/workbench.mjs');
  const out = path.join(repoRoot, 'test-results');
  fs.mkdirSync(out, { recursive: true });
  const browser = await openBrowser();
  try {
    const page = await newPage(browser, path.join(out, 'start-check-console.log'));
    await page.goto(url);
    await page.waitForSelector(selectors.workbench, { timeout: 60_000 });
    say('workbench loaded');
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-resource-name'), selectors.activeTab, { timeout: 60_000 });
    const active = await page.locator(selectors.activeTab).first().getAttribute('data-resource-name');
    if (active !== sampleTrace) throw new Error(`active editor is ${active}, expected ${sampleTrace}`);
    await page.locator(selectors.webviewReady).first().waitFor({ state: 'attached', timeout: 60_000 });
    say(`${sampleTrace} is open in the trace editor (webview ready)`);
    await page.waitForTimeout(2000);
    await page.screenshot({ path: path.join(out, 'start-check.png') });
    say('check passed (screenshot: test-results/start-check.png)');
    return true;
  } catch (e) {
    say(`check FAILED: ${String(e?.message ?? e).split('\n')[0]} (screenshot: test-results/start-check-failed.png)`);
    await browser.contexts()[0]?.pages()[0]?.screenshot({ path: path.join(out, 'start-check-failed.png') }).catch(() => {});
    return false;
  } finally {
    await browser.close().catch(() => {});
  }
}
