// `npm start`: the 60-second demo. Builds and packages the extension, installs the .vsix into a fresh
// real VS Code (code-server 4.139.1 on 127.0.0.1, as a user has it: notifications and dialogs work), opens a
// sample workspace (user_states_4.clog2 with source locations, its C source, user_states_4.slog2, more
// traces) with the trace in the MPE Trace editor and src/user_states.c beside it, and prints the URL to open
// in a browser. Runs until Ctrl+C, then stops every process it started.
//
//   npm start                      (after `npm install`; installs chromium/code-server if missing, once)
//   npm start -- --check           start, check in headless Chromium that the trace editor shows with its C
//                                  source beside it and that Convert to SLOG-2 shows its notification; exit 0/1
//   npm start -- --port 8080       fixed port instead of a free random one
//   npm start -- --no-package      reuse the existing mpe-trace-viewer-<version>.vsix
//   npm start -- --vsix FILE       install that .vsix (no build)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { ensureHost, installVsix, makeRunDir, repoRoot, startCodeServer, workbenchUrl } from '../test/e2e/lib/codeServer.mjs';
import { buildWorkspace, readPackageJson } from '../test/e2e/lib/workspace.mjs';

const argv = process.argv.slice(2);
const check = argv.includes('--check');
const port = argv.includes('--port') ? Number(argv[argv.indexOf('--port') + 1]) : undefined;
const sampleTrace = 'user_states_4.clog2';
const sampleSource = 'src/user_states.c';

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
  say('checking chromium/code-server (installs them once if missing; the first time takes 3-6 minutes)');
  const host = ensureHost();

  const givenVsix = argv.includes('--vsix') ? path.resolve(argv[argv.indexOf('--vsix') + 1]) : undefined;
  const vsix = givenVsix ?? path.join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
  if (!givenVsix && (!argv.includes('--no-package') || !fs.existsSync(vsix))) {
    say('npm run package (build + .vsix)');
    const r = spawnSync('npm', ['run', 'package'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`npm run package failed (exit ${r.status})`);
  }

  run = makeRunDir('mpe-trace-start-');
  const workspace = buildWorkspace(path.join(run.dir, 'sample'), { withBigRun: false });
  say(`installing ${path.basename(vsix)} into a fresh VS Code profile`);
  installVsix(host, run, vsix);

  installDemoLayout(host, run, path.join(workspace, sampleTrace), path.join(workspace, sampleSource));

  server = await startCodeServer(host, run, { port });
  const url = workbenchUrl(server.url, workspace);
  say(`VS Code ${server.url} is up (process group ${server.pgid}, workspace ${workspace})`);

  if (check) {
    const ok = await checkInBrowser(url);
    await stop(ok ? 0 : 1);
  } else {
    console.log(
      `\n  Open this URL in a browser on this machine (for a remote machine: ssh -L ${server.port}:127.0.0.1:${server.port} ...):\n\n  ${url}\n\n  ${sampleTrace} opens in the MPE Trace editor, with ${path.basename(sampleSource)} beside it, a few seconds after the workbench appears.\n  Press Ctrl+C to stop.\n`,
    );
  }
} catch (e) {
  console.error(`npm start failed: ${e?.message ?? e}`);
  await stop(1);
}

/**
 * The first screen: scripts/demo-layout, a tiny extension installed into this run's profile only (not
 * shipped), opens the trace in the MPE Trace editor and the C source in a second group once the window's
 * extension host is up. (Opening the trace from the URL would resolve its editor before our custom editor is
 * registered, and VS Code's CLI cannot open a file beside another.) Installed as a .vsix, zipped here.
 */
function installDemoLayout(host, run, trace, source) {
  const dir = path.join(repoRoot, 'scripts', 'demo-layout');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const layout = { trace, source, viewType: 'mpeTrace.timeline', viewerId: `${pkg.publisher}.${pkg.name}` };
  const vsixManifest = `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata>
    <Identity Language="en-US" Id="${manifest.name}" Version="${manifest.version}" Publisher="${manifest.publisher}" />
    <DisplayName>${manifest.displayName}</DisplayName>
    <Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="${manifest.engines.vscode}" /></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code" /></Installation>
  <Dependencies />
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" /></Assets>
</PackageManifest>
`;
  const contentTypes = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json" /><Default Extension=".js" ContentType="application/javascript" /><Default Extension=".vsixmanifest" ContentType="text/xml" /></Types>
`;
  const text = (t) => strToU8(t);
  const vsix = path.join(run.dir, 'demo-layout.vsix');
  fs.writeFileSync(
    vsix,
    zipSync({
      'extension.vsixmanifest': text(vsixManifest),
      '[Content_Types].xml': text(contentTypes),
      'extension/package.json': fs.readFileSync(path.join(dir, 'package.json')),
      'extension/extension.js': fs.readFileSync(path.join(dir, 'extension.js')),
      'extension/layout.json': text(JSON.stringify(layout, null, 2)),
    }),
  );
  installVsix(host, run, vsix);
}

/**
 * The smoke check, in headless Chromium: the workbench loads, the sample trace is the active editor, drawn by
 * our webview, with its C source in another editor group; then Convert to SLOG-2 (onto the existing
 * user_states_4.slog2: the Replace dialog) ends with its notification toast, which VS Code's smoke-test
 * driver would have dropped.
 */
async function checkInBrowser(url) {
  const { openBrowser, newPage } = await import('../test/e2e/lib/browser.mjs');
  const { selectors, waitForPaintedCanvas, workbench } = await import('../test/e2e/lib/workbench.mjs');
  const out = path.join(repoRoot, 'test-results');
  fs.mkdirSync(out, { recursive: true });
  const browser = await openBrowser();
  const sourceName = path.basename(sampleSource);
  try {
    const page = await newPage(browser, path.join(out, 'start-check-console.log'));
    const wb = workbench(page);
    await page.goto(url);
    await page.waitForSelector(selectors.workbench, { timeout: 60_000 });
    say('workbench loaded');
    let groups = [];
    const deadline = Date.now() + 90_000;
    const besideEachOther = (g) =>
      g.findIndex((tabs) => tabs.includes(sampleTrace)) >= 0 &&
      g.findIndex((tabs) => tabs.includes(sourceName)) >= 0 &&
      g.findIndex((tabs) => tabs.includes(sampleTrace)) !== g.findIndex((tabs) => tabs.includes(sourceName));
    while (!besideEachOther((groups = await wb.tabsByGroup()))) {
      if (Date.now() > deadline) throw new Error(`expected ${sampleTrace} and ${sourceName} in two editor groups, tabs per group: ${JSON.stringify(groups)}`);
      await page.waitForTimeout(500);
    }
    const active = await wb.activeTabName();
    if (active !== sampleTrace) throw new Error(`active editor is ${active}, expected ${sampleTrace}`);
    await page.locator(selectors.webviewReady).first().waitFor({ state: 'attached', timeout: 60_000 });
    say(`${sampleTrace} is open in the trace editor (webview ready), ${sourceName} beside it (tabs per group: ${JSON.stringify(groups)})`);
    const paint = await waitForPaintedCanvas(page, 60_000);
    say(`the timeline is drawn (${paint.why})`);
    await page.screenshot({ path: path.join(out, 'start-check.png') });

    await page.locator(selectors.activeTab).first().click();
    await wb.runCommand('MPE Trace: Convert to SLOG-2');
    const replace = page.locator(selectors.dialogButton, { hasText: 'Replace' });
    await replace.waitFor({ state: 'visible', timeout: 30_000 });
    say('Convert to SLOG-2 asks before replacing user_states_4.slog2 (dialog shown): Replace');
    await replace.click();
    const toast = page.locator(selectors.notificationToast, { hasText: `Converted ${sampleTrace}` });
    await toast.first().waitFor({ state: 'visible', timeout: 60_000 });
    say(`notification toast shown: "${(await toast.first().locator('.notification-list-item-message').textContent())?.trim()}"`);
    await page.screenshot({ path: path.join(out, 'start-check-toast.png') });
    say('check passed (screenshots: test-results/start-check.png, test-results/start-check-toast.png)');
    return true;
  } catch (e) {
    say(`check FAILED: ${String(e?.message ?? e).split('\n')[0]} (screenshot: test-results/start-check-failed.png)`);
    await browser
      .contexts()[0]
      ?.pages()[0]
      ?.screenshot({ path: path.join(out, 'start-check-failed.png') })
      .catch(() => {});
    return false;
  } finally {
    await browser.close().catch(() => {});
  }
}
