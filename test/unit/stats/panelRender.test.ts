// The statistics webview rendered in headless Chromium (no VS Code): a stub acquireVsCodeApi
// records what the panel posts; the test feeds it the host's messages with real statistics of
// ring_p2p_4 and checks the table, the charts (non-empty canvases), sorting, the matrix click and
// the export buttons. Skipped, saying why, when Chromium is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { computeRangeStats, nodeBatches, type RangeStats } from '../../../src/core/stats';
import type { HostToStats } from '../../../src/protocol/stats';
import { FileSource } from '../../../src/io/fileSource';
import { fixture, repoRoot } from '../../helpers/paths';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Loaded at run time, not bundled by test/run.mjs (playwright-core has optional native parts).
type Playwright = typeof import('playwright-core');
const loadPlaywright = (): Playwright => require(path.join(repoRoot, 'node_modules', 'playwright-core')) as Playwright;
const OUT = path.join(repoRoot, 'out', 'test-stats-panel');

function buildPage(width = 700): string {
  fs.mkdirSync(OUT, { recursive: true });
  const esbuild = path.join(repoRoot, 'node_modules', '.bin', 'esbuild');
  const r = spawnSync(
    esbuild,
    [
      path.join(repoRoot, 'webview/stats/main.tsx'),
      '--bundle',
      '--platform=browser',
      '--format=iife',
      '--target=es2022',
      '--jsx=automatic',
      '--jsx-import-source=preact',
      `--outfile=${path.join(OUT, 'stats.js')}`,
      '--log-level=warning',
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  const html = `<!DOCTYPE html><html><head><meta charset="UTF-8"><link rel="stylesheet" href="stats.css">
<script>window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });</script>
</head><body class="vscode-dark" style="--vscode-foreground:#cccccc;--vscode-charts-blue:#3794ff;--vscode-sideBar-background:#252526;background:#252526;font-size:13px;width:${width}px">
<div id="root"></div><script src="stats.js"></script></body></html>`;
  const file = path.join(OUT, `index-${width}.html`);
  fs.writeFileSync(file, html);
  return file;
}

async function ringStats(): Promise<RangeStats> {
  const file = await Slog2File.open(await FileSource.open(fixture('ring_p2p_4.slog2')));
  try {
    const [t0, t1] = file.timeRange;
    return await computeRangeStats(file, nodeBatches(file.query(t0, t1)), [t0, t1]);
  } finally {
    await file.close();
  }
}

// Page-side code is passed as strings: the test tsconfig has no DOM types.
const send = (page: Page, m: HostToStats) => page.evaluate(`window.postMessage(${JSON.stringify(m)}, '*')`);
const posted = (page: Page) => page.evaluate('window.__posted') as Promise<{ kind: string }[]>;

/** Whether a canvas has any non-transparent pixel. */
function inked(page: Page, selector: string): Promise<boolean> {
  return page.evaluate(`(() => {
    const c = document.querySelector(${JSON.stringify(selector)});
    if (c === null || c.width === 0 || c.height === 0) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return true;
    return false;
  })()`) as Promise<boolean>;
}

test(
  'statistics webview renders table, charts and matrix, and talks back',
  { skip: fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` },
  async () => {
    const html = buildPage();
    const stats = await ringStats();
    const browser = await loadPlaywright().chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 720, height: 1600 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`file://${html}`);
      await page.waitForFunction('window.__posted.length > 0');
      assert.deepEqual(await posted(page), [{ kind: 'ready' }]);
      assert.match((await page.textContent('body')) ?? '', /Open an MPE trace/);

      await send(page, { kind: 'trace', fileName: 'ring_p2p_4.slog2', timeRange: stats.range, range: stats.range, rowColumns: ['world_rank'] });
      await send(page, { kind: 'stats', stats });
      await page.waitForSelector('.stats-table tbody tr');
      const names = await page.$$eval('.stats-table tbody tr td:first-child', (tds) => tds.map((td) => td.textContent?.trim()));
      assert.equal(names.length, stats.categories.length);
      const byShare = stats.categories.filter((c) => c.share !== undefined).sort((a, b) => b.share! - a.share!);
      assert.equal(names[0], byShare[0]!.name, 'sorted by share');
      assert.match((await page.textContent('.status')) ?? '', /exact · 266 drawables · 60 messages · 4 timelines/);

      // Sort by count, descending: the 35-instance categories first.
      await page.click('th[data-col="count"] button');
      const counts = await page.$$eval('.stats-table tbody tr td[data-col="count"]', (tds) => tds.map((td) => Number(td.textContent?.replace(/,/g, ''))));
      assert.deepEqual(
        counts,
        [...counts].sort((a, b) => b - a),
      );
      assert.equal(counts[0], 60);

      // Max / Min jump to the longest / shortest instance; a name click highlights the category.
      await page.click('.stats-table tbody tr:first-child td[data-col="max"] button');
      await page.click('.stats-table tbody tr:first-child td[data-col="min"] button');
      await page.click('.stats-table tbody tr:first-child td:first-child button');
      const message = stats.categories.find((c) => c.name === 'message')!;
      assert.deepEqual((await posted(page)).slice(-3), [
        { kind: 'revealInstance', category: message.index, instance: message.longest },
        { kind: 'revealInstance', category: message.index, instance: message.shortest },
        { kind: 'highlightCategory', index: message.index },
      ]);

      // The per-timeline bars (uPlot) and the duration histogram draw something.
      await page.waitForSelector('.chart .uplot canvas');
      assert.equal(await page.locator('.chart .uplot').count(), 2);
      assert.ok(await inked(page, '.chart .uplot canvas'), 'stacked bars drawn');
      assert.ok(await inked(page, 'canvas.matrix'), 'matrix drawn');
      // Hovering a bar names the row and its time; clicking it asks to reveal that row.
      const bars = (await page.locator('.chart .uplot .u-over').first().boundingBox())!;
      await page.mouse.move(bars.x + bars.width * (3.5 / 4), bars.y + bars.height - 2);
      assert.match((await page.locator('.hover-line').first().textContent()) ?? '', /^3: .* — MPI_/);
      await page.mouse.click(bars.x + bars.width * (3.5 / 4), bars.y + bars.height - 2);
      assert.deepEqual((await posted(page)).at(-1), { kind: 'revealRow', lineID: 3 });

      // Inclusive time is not stacked: the hover line names categories without a total.
      await page.click('.toggle button:has-text("inclusive")');
      await page.waitForTimeout(100);
      await page.mouse.move(bars.x + bars.width * (3.5 / 4), bars.y + bars.height - 2);
      assert.match((await page.locator('.hover-line').first().textContent()) ?? '', /^3: inclusive — MPI_/);
      assert.ok(await inked(page, '.chart .uplot canvas'), 'inclusive bars drawn');
      await page.screenshot({ path: path.join(OUT, 'panel-inclusive.png'), fullPage: false });
      await page.click('.toggle button:has-text("exclusive")');

      // Size distribution and tags: 60 messages in each.
      const sizeCounts = await page.$$eval('table.bars:first-of-type td.num', (tds) => tds.map((td) => Number(td.textContent)));
      assert.equal(
        sizeCounts.reduce((a, b) => a + b, 0),
        60,
      );
      assert.match((await page.textContent('.message-breakdown')) ?? '', /Sizes.*0 B.*Tags.*tag 100/s);

      // A matrix cell click asks for that pair's messages; the answer is listed.
      const box = (await page.locator('canvas.matrix').boundingBox())!;
      const side = (box.width - 34) / 4;
      await page.mouse.click(box.x + 34 + side * 1.5, box.y + 34 + side * 0.5);
      const asked = (await posted(page)).at(-1);
      assert.deepEqual(asked, { kind: 'listMessages', from: 0, to: 1 });
      await send(page, { kind: 'messages', from: 0, to: 1, items: [{ send: 0.1, recv: 0.2, tag: 7, size: 128 }], truncated: false });
      assert.match((await page.textContent('.message-list')) ?? '', /128 B/);

      // Export and copy buttons post their requests for the chosen table.
      await page.selectOption('select[aria-label="Table to export"]', 'pairs');
      await page.click('text=CSV…');
      await page.click('text=Copy TSV');
      assert.deepEqual((await posted(page)).slice(-2), [
        { kind: 'export', format: 'csv', table: 'pairs' },
        { kind: 'copy', table: 'pairs' },
      ]);
      await page.screenshot({ path: path.join(OUT, 'panel.png'), fullPage: true });

      await send(page, { kind: 'empty' });
      assert.match((await page.textContent('body')) ?? '', /Open an MPE trace/);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  },
);

test(
  'statistics webview in a default sidebar (300 px): name, count, share and excl. fit without scrolling; shares ≤ 100 %',
  { skip: fs.existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` },
  async () => {
    const stats = await ringStats();
    const browser = await loadPlaywright().chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
    });
    try {
      for (const width of [300, 700]) {
        const html = buildPage(width);
        const page = await browser.newPage({ viewport: { width: width + 20, height: 1200 } });
        await page.goto(`file://${html}`);
        await page.waitForFunction('window.__posted.length > 0');
        await send(page, { kind: 'trace', fileName: 'ring_p2p_4.slog2', timeRange: stats.range, range: stats.range, rowColumns: ['world_rank'] });
        await send(page, { kind: 'stats', stats });
        await page.waitForSelector('.stats-table tbody tr');
        // Every essential cell lies inside the table's visible box; the wrapper does not scroll.
        const layout = (await page.evaluate(`(() => {
        const wrap = document.querySelector('.table-wrap').getBoundingClientRect();
        const cells = {};
        for (const td of document.querySelectorAll('.stats-table tbody tr:first-child td')) {
          const r = td.getBoundingClientRect();
          cells[td.dataset.col] = { left: r.left, right: r.right, shown: getComputedStyle(td).display !== 'none' && r.width > 0 };
        }
        const w = document.querySelector('.table-wrap');
        return { left: wrap.left, right: wrap.right, scrolls: w.scrollWidth > w.clientWidth, cells };
      })()`)) as { left: number; right: number; scrolls: boolean; cells: Record<string, { left: number; right: number; shown: boolean }> };
        assert.equal(layout.scrolls, false, `${width}px: no horizontal scroll`);
        for (const col of ['name', 'count', 'share', 'exclusive']) {
          const c = layout.cells[col]!;
          assert.ok(
            c.shown && c.left >= layout.left - 0.5 && c.right <= layout.right + 0.5,
            `${width}px: ${col} visible (${JSON.stringify(c)} in ${layout.left}..${layout.right})`,
          );
        }
        // More columns as the width allows.
        for (const col of ['inclusive', 'mean', 'min', 'max']) assert.equal(layout.cells[col]!.shown, width >= 660, `${width}px: ${col}`);
        // The shares shown are the core's numbers and add up to at most 100 %.
        const shares = (await page.$$eval('.stats-table tbody td[data-col="share"]', (tds) => tds.map((td) => td.textContent ?? ''))).filter((t) =>
          t.endsWith('%'),
        );
        const sum = shares.reduce((t, x) => t + Number(x.replace(/\s*%$/, '')), 0);
        assert.ok(shares.length > 0 && sum <= 100.05, `shares ${shares.join(', ')} sum to ${sum}`);
        assert.match((await page.getAttribute('th[data-col="share"]', 'title')) ?? '', /exclusive time ÷ \(range length × 4 timelines\)/);
        // The message category has a count and bytes, no time share.
        const msg = await page.$$eval('.stats-table tbody tr', (trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())).find((cells) => cells[0] === 'message'),
        );
        assert.equal(msg![2], '–', 'no share for messages');
        await page.screenshot({ path: path.join(OUT, `panel-${width}.png`), fullPage: true });
        await page.close();
      }
    } finally {
      await browser.close();
    }
  },
);
