// Debian's Chromium, headless, through playwright-core (which downloads no browser of its own).
import { chromium } from 'playwright-core';
import fs from 'node:fs';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function openBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh context/page that may talk to 127.0.0.1 only; its console goes to `consoleLogFile`. */
export async function newPage(browser, consoleLogFile) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(
    (url) => !/^(https?:\/\/127\.0\.0\.1[:/]|blob:|data:)/.test(url.toString()),
    (route) => route.abort(),
  );
  const page = await context.newPage();
  if (consoleLogFile) {
    const out = fs.createWriteStream(consoleLogFile, { flags: 'a' });
    page.on('console', (m) => out.write(`[${m.type()}] ${m.text()}\n`));
    page.on('pageerror', (e) => out.write(`[pageerror] ${e.message}\n`));
    context.on('close', () => out.end());
  }
  return page;
}
