// The timeline webview in headless Chromium (no VS Code), fed by the browser stand-in for the host
// (webview/dev/browserHost.ts) with user_states_4.slog2 on a LIGHT theme, where a low-contrast
// colour (MPI_Barrier's yellow 255,255,0) used to be darkened to olive: the fill must be the
// trace's exact RGB, equal to the legend swatch. Also: the from/to fields show times in units and
// accept typed units; the details popup stays below the cursor's time label; the legend's V/S
// switches stay visible in an editor split. Skipped, saying why, when Chromium is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { fixture, repoRoot } from '../../helpers/paths';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
type Playwright = typeof import('playwright-core');
type Esbuild = typeof import('esbuild');
// Loaded at run time, not bundled by test/run.mjs.
const load = <T>(name: string): T => require(path.join(repoRoot, 'node_modules', name)) as T;

/** The bundle's JavaScript and CSS (webview/main.tsx imports its stylesheet). */
async function bundle(entry: string): Promise<{ js: Uint8Array; css: Uint8Array }> {
  const r = await load<Esbuild>('esbuild').build({
    entryPoints: [path.join(repoRoot, entry)],
    outfile: path.join(repoRoot, 'out', 'test-timeline-render', `${path.basename(entry).replace(/\.tsx?$/, '')}.js`),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    logLevel: 'warning',
  });
  const file = (ext: string) => r.outputFiles.find((f) => f.path.endsWith(ext))?.contents ?? new Uint8Array();
  return { js: file('.js'), css: file('.css') };
}

async function serve(): Promise<{ url: string; close: () => void }> {
  const [harness, webview] = await Promise.all([bundle('webview/dev/browserHost.ts'), bundle('webview/main.tsx')]);
  const page = `<!DOCTYPE html><html><head><meta charset="UTF-8"><link rel="stylesheet" href="/webview.css"></head>
<body class="vscode-light" style="--vscode-editor-background:#ffffff;--vscode-editor-foreground:#333333;--vscode-font-family:sans-serif;--vscode-editor-font-size:12px;background:#ffffff">
<div id="root"></div><script src="/harness.js"></script><script src="/webview.js"></script></body></html>`;
  const server = http
    .createServer((req, res): void => {
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      if (p === '/') res.end(page);
      else if (p === '/harness.js') res.end(harness.js);
      else if (p === '/webview.js') res.end(webview.js);
      else if (p === '/webview.css') res.end(webview.css);
      else if (p === '/trace.slog2') fs.createReadStream(fixture('user_states_4.slog2')).pipe(res);
      else {
        res.statusCode = 404;
        res.end();
      }
    })
    .listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/?trace=/trace.slog2`, close: () => server.close() };
}

interface Geometry {
  t0: number;
  t1: number;
  rowHeight: number;
  scrollPx: number;
  plot: { x: number; y: number; width: number; height: number };
}

async function geometry(page: Page | Frame): Promise<Geometry> {
  await page.waitForSelector('.timeline[data-complete="true"]', { timeout: 60_000 });
  const ds = (await page.evaluate(`({ ...document.querySelector('.timeline').dataset })`)) as Record<string, string>;
  const plot = (await page.locator('.plot').boundingBox())!;
  return { t0: Number(ds.t0), t1: Number(ds.t1), rowHeight: Number(ds.rowHeight), scrollPx: Number(ds.scrollPx), plot };
}

/** RGBA of the data canvas at CSS pixel (x, y) of the plot. */
async function pixel(page: Page, x: number, y: number): Promise<number[]> {
  return (await page.evaluate(`(() => {
    const c = document.querySelector('.plot canvas.data');
    const k = c.width / c.getBoundingClientRect().width;
    return [...c.getContext('2d').getImageData(Math.round(${x} * k), Math.round(${y} * k), 1, 1).data];
  })()`)) as number[];
}

// The first MPI_Barrier of rank 1 in the reference dump: 0.024080227 .. 0.100010583 s on line ID 1.
const BARRIER = { start: 0.024080227, end: 0.100010583, row: 1 };

test(
  'timeline on a light theme: exact category colours, time fields in units, popup below the time label, legend fits',
  { skip: fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` },
  async () => {
    const server = await serve();
    const browser = await load<Playwright>('playwright-core').chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      // A short editor split: the plot is lower than the popup's usual 220 px.
      const page = await browser.newPage({ viewport: { width: 900, height: 320 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(server.url);
      await page.waitForSelector('body[data-state=painted]', { timeout: 60_000 });
      let g = await geometry(page);

      // 1. From/to show the window in units with a sensible precision; typed units are accepted.
      const from = page.locator('input[aria-label="window start"]');
      const to = page.locator('input[aria-label="window end"]');
      for (const [field, t] of [
        [from, g.t0],
        [to, g.t1],
      ] as const) {
        const text = await field.inputValue();
        assert.match(text, /^-?\d+\.\d{2,} (s|ms|µs|ns)$/, `field shows ${text} for ${t}`);
      }
      assert.equal(await to.inputValue(), '493.18 ms'.replace('493.18', (g.t1 * 1e3).toFixed(2)));
      await from.fill('20ms');
      await to.fill('0.11');
      await page.click('button[type=submit]');
      await page.waitForFunction(`Math.abs(Number(document.querySelector('.timeline').dataset.t0) - 0.02) < 1e-9`, undefined, { timeout: 20_000 });
      g = await geometry(page);
      assert.ok(Math.abs(g.t1 - 0.11) < 1e-9, `t1 ${g.t1}`);
      await page
        .waitForFunction(`document.querySelector('input[aria-label="window start"]').value === '20.00 ms'`, undefined, { timeout: 10_000 })
        .catch(async () => {
          assert.fail(`from field: ${await from.inputValue()}, to field: ${await to.inputValue()}`);
        });
      assert.equal(await to.inputValue(), '110.00 ms');
      await from.fill('24080.2 us');
      await to.fill('100010583 ns');
      await page.click('button[type=submit]');
      await page.waitForFunction(`Math.abs(Number(document.querySelector('.timeline').dataset.t0) - 0.0240802) < 1e-12`, undefined, { timeout: 20_000 });
      await from.fill('20 µs');
      await to.fill('110 ms');
      await page.click('button[type=submit]');
      await page.waitForFunction(`Math.abs(Number(document.querySelector('.timeline').dataset.t0) - 2e-5) < 1e-12`, undefined, { timeout: 20_000 });
      g = await geometry(page);

      // 2. The barrier's centre is drawn in its exact RGB (255,255,0), not a darkened shade.
      const x = (((BARRIER.start + BARRIER.end) / 2 - g.t0) / (g.t1 - g.t0)) * g.plot.width;
      const y = BARRIER.row * g.rowHeight - g.scrollPx + g.rowHeight / 2;
      assert.deepEqual(await pixel(page, x, y), [255, 255, 0, 255], 'MPI_Barrier centre pixel');

      // 3. Clicking it opens the details popup below the cursor's time label (the top 18 px strip).
      await page.mouse.click(g.plot.x + x, g.plot.y + y);
      const popup = page.locator('[data-testid="details"]');
      await popup.waitFor({ timeout: 10_000 });
      await page.mouse.move(g.plot.x + x, g.plot.y + y);
      const box = (await popup.boundingBox())!;
      assert.ok(box.y >= g.plot.y + 18, `popup top ${box.y - g.plot.y} px into the plot covers the time label`);
      assert.ok(box.y + box.height <= g.plot.y + g.plot.height + 1, 'popup inside the plot');
      await page.keyboard.press('Escape');

      // 4. The legend swatch is the fill; V and S stay visible in a narrow editor.
      await page.setViewportSize({ width: 560, height: 320 });
      await page.click('button.legend-toggle');
      const row = page.locator('.legend tr[data-category="MPI_Barrier"]');
      await row.waitFor();
      assert.equal(await row.locator('input[type="color"]').inputValue(), '#ffff00');
      const legend = (await page.locator('.legend').boundingBox())!;
      const scrolls = await page.evaluate(`(() => { const l = document.querySelector('.legend'); return l.scrollWidth > l.clientWidth; })()`);
      assert.equal(scrolls, false, 'the legend needs no horizontal scroll');
      for (const label of ['visible MPI_Barrier', 'searchable MPI_Barrier']) {
        const b = (await page.locator(`input[aria-label="${label}"]`).boundingBox())!;
        assert.ok(
          b.x >= legend.x && b.x + b.width <= legend.x + legend.width,
          `${label} at ${b.x}..${b.x + b.width} outside ${legend.x}..${legend.x + legend.width}`,
        );
      }
      // A wide editor: every column, still no horizontal scroll.
      await page.setViewportSize({ width: 1400, height: 320 });
      await page.waitForTimeout(200);
      const wide = (await page.evaluate(`(() => {
      const l = document.querySelector('.legend');
      const shown = [...document.querySelectorAll('.legend tr[data-category="MPI_Barrier"] td')].filter((td) => getComputedStyle(td).display !== 'none').length;
      return { scrolls: l.scrollWidth > l.clientWidth, shown };
    })()`)) as { scrolls: boolean; shown: number };
      assert.deepEqual(wide, { scrolls: false, shown: 8 }, 'wide legend: colour, V, S, name, count, incl, excl, kind');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      server.close();
    }
  },
);
