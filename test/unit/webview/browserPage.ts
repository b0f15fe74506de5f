// A test page in headless Chromium: `entry` (a browser script under pages/) bundled with esbuild,
// served on localhost, opened, and handed to `use` once it sets body[data-ready]. Page errors
// are collected. Tests skip, saying why, when Chromium is not installed (CHROMIUM_PATH).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { repoRoot } from '../../helpers/paths';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** `skip` of a test that needs Chromium. */
export const NEEDS_CHROMIUM = fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;

type Playwright = typeof import('playwright-core');
type Esbuild = typeof import('esbuild');
type Page = Awaited<ReturnType<Awaited<ReturnType<Playwright['chromium']['launch']>>['newPage']>>;
const load = <T>(name: string): T => require(path.join(repoRoot, 'node_modules', name)) as T;

export async function withBrowserPage(entry: string, use: (page: Page, errors: string[]) => Promise<void>): Promise<void> {
  const built = await load<Esbuild>('esbuild').build({
    entryPoints: [path.join(repoRoot, 'test', 'unit', 'webview', 'pages', entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  const js = built.outputFiles[0]!.contents;
  const server = http
    .createServer((req, res) => res.end(req.url === '/page.js' ? js : '<!DOCTYPE html><html><body><script src="/page.js"></script></body></html>'))
    .listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const browser = await load<Playwright>('playwright-core').chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    await page.waitForSelector('body[data-ready=true]', { state: 'attached' });
    await use(page, errors);
  } finally {
    await browser.close();
    server.close();
  }
}
