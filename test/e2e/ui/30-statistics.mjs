// The statistics panel: with a trace open, the "MPE Trace" activity-bar container shows the Statistics
// webview view, and its text names categories of that trace. Guarded: needs the custom editor and the
// contributed view container "mpeTrace" with the webview view "mpeTrace.statistics".
import fs from 'node:fs';
import path from 'node:path';
import { readyWebviews, selectors } from '../lib/workbench.mjs';
import { repoRoot } from '../lib/codeServer.mjs';

const trace = 'user_states_4.slog2';
const facts = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'user_states_4.facts.json'), 'utf8'));
const drawn = facts.slog2.categories.filter((c) => c.drawables > 0);
const stateNames = drawn.filter((c) => c.kind === 'state').map((c) => c.name);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function missingContribution({ viewType, installedDir }) {
  if (!viewType) return 'package.json contributes no customEditor "mpeTrace.timeline" yet';
  const pkg = JSON.parse(fs.readFileSync(path.join(installedDir, 'package.json'), 'utf8'));
  const container = (pkg.contributes?.viewsContainers?.activitybar ?? []).find((c) => c.id === 'mpeTrace');
  const view = (pkg.contributes?.views?.mpeTrace ?? []).find((v) => v.id === 'mpeTrace.statistics');
  if (!container || !view) return 'package.json contributes no "mpeTrace" view container with the "mpeTrace.statistics" view yet';
  return undefined;
}

/**
 * The Statistics webview: webview iframes live in one overlay layer of the workbench, not inside
 * the side bar's DOM; the statistics one is the webview whose box lies in the side bar.
 */
/**
 * The Statistics view's page (titled "Statistics", src/host/statsView.ts): the side bar's container
 * holds the Compare view's webview too, and the first one found was sometimes that one ("No
 * comparison open").
 */
async function statisticsView(page, deadline) {
  const sidebar = await page.locator(selectors.sideBar).boundingBox();
  while (Date.now() < deadline) {
    for (const w of await readyWebviews(page)) {
      if (!(w.width > 0 && w.x < sidebar.x + sidebar.width - 10)) continue;
      const title = await w.frame
        .locator('title')
        .textContent({ timeout: 1000 })
        .catch(() => '');
      if (title === 'Statistics') return w.frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error('no Statistics webview appeared in the side bar');
}

async function showStatistics(page, installedDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(installedDir, 'package.json'), 'utf8'));
  const title = pkg.contributes.viewsContainers.activitybar.find((c) => c.id === 'mpeTrace').title;
  await page.locator(`${selectors.activityBarItem}[aria-label^="${title}"]`).first().click();
}

const bigStats = 'big_run.stats.json';

export default [
  {
    name: `the Statistics view lists every category of ${trace} with its drawable count from the facts`,
    skip: missingContribution,
    timeout: 90_000,
    async run({ page, wb, log, screenshot, installedDir }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      await showStatistics(page, installedDir);
      const deadline = Date.now() + 30_000;
      const view = await statisticsView(page, deadline);
      let text = '';
      let found = [];
      while (Date.now() < deadline) {
        text = await view
          .locator('body')
          .innerText()
          .catch(() => '');
        found = stateNames.filter((n) => text.includes(n));
        if (found.length === stateNames.length) break;
        await page.waitForTimeout(250);
      }
      log(`   statistics text (first 160 chars): ${JSON.stringify(text.slice(0, 160))}`);
      if (found.length < 2) throw new Error(`the Statistics view names ${found.length} of the trace's states (${stateNames.join(', ')})`);
      // Category table rows read "<name> <count> ..." (innerText separates cells with tabs).
      const wrong = drawn.filter((c) => !new RegExp(`(^|\\n)${escape(c.name)}\\s+${c.drawables}(\\s|$)`).test(text)).map((c) => `${c.name} ${c.drawables}`);
      if (wrong.length) throw new Error(`category rows missing or with other counts: ${wrong.join(', ')}`);
      // In the side bar's width, the essential columns of every row are inside the view (no horizontal
      // scrolling needed), and the states' shares add up to at most 100 %.
      const layout = await view.locator('body').evaluate(() => {
        const width = document.documentElement.clientWidth;
        const out = [];
        for (const tr of document.querySelectorAll('.stats-table[aria-label="Statistics per category"] tbody tr')) {
          for (const col of ['name', 'count', 'share', 'exclusive']) {
            const td = tr.querySelector(`td[data-col="${col}"]`);
            const r = td?.getBoundingClientRect();
            if (!r || r.width === 0 || r.left < 0 || r.right > width + 0.5)
              out.push(`${tr.querySelector('td')?.innerText} ${col}: ${r ? `${r.left}..${r.right}` : 'missing'} (view ${width})`);
          }
        }
        const shares = [...document.querySelectorAll('.stats-table[aria-label="Statistics per category"] tbody td[data-col="share"]')]
          .map((td) => td.innerText)
          .filter((t) => t.endsWith('%'));
        return { width, out, shares, sum: shares.reduce((t, x) => t + Number.parseFloat(x), 0) };
      });
      log(`   statistics view ${layout.width} px wide; shares ${layout.shares.join(' ')} (sum ${layout.sum.toFixed(1)} %)`);
      if (layout.out.length) throw new Error(`essential cells outside the Statistics view: ${layout.out.slice(0, 4).join('; ')}`);
      if (!(layout.shares.length > 0 && layout.sum <= 100.05)) throw new Error(`shares ${layout.shares.join(', ')} sum to ${layout.sum} %`);
      await screenshot('statistics');
      // Tidy up: back to the Explorer, which hides the statistics webview again.
      await page.locator(`${selectors.activityBarItem}[aria-label^="Explorer"]`).first().click();
      await wb.closeAllEditors();
    },
  },
  {
    name: 'the Statistics view of a 100 MB run (counted in two halves, the later in the decoder thread) gives the counts of mpe-trace stats',
    skip: (ctx) =>
      missingContribution(ctx) ??
      (fs.existsSync(path.join(ctx.workspace ?? '', bigStats)) ? undefined : 'the workspace has no big_run.slog2 (dist/cli.js was not built)'),
    timeout: 150_000,
    async run({ page, wb, log, installedDir, workspace }) {
      const expected = JSON.parse(fs.readFileSync(path.join(workspace, bigStats), 'utf8'));
      const drawnBig = expected.categories.filter((c) => c.count > 0);
      if (drawnBig.length < 3) throw new Error(`mpe-trace stats found ${drawnBig.length} categories in big_run.slog2`);
      await wb.closeAllEditors();
      await wb.openInCustomEditor('big_run.slog2');
      await showStatistics(page, installedDir);
      const deadline = Date.now() + 120_000;
      const view = await statisticsView(page, deadline);
      let wrong = drawnBig;
      let text = '';
      while (Date.now() < deadline) {
        text = await view
          .locator('body')
          .innerText()
          .catch(() => '');
        // The approximate answer comes first; the exact one replaces it.
        // Counts as the view prints them (webview/stats/format.ts formatCount: 172,128).
        wrong = drawnBig.filter((c) => !new RegExp(`(^|\\n)${escape(c.name)}\\s+${escape(c.count.toLocaleString('en-US'))}(\\s|$)`).test(text));
        if (wrong.length === 0) break;
        await page.waitForTimeout(500);
      }
      log(`   big_run statistics (first 160 chars): ${JSON.stringify(text.slice(0, 160))}`);
      if (wrong.length)
        throw new Error(`category rows missing or with other counts than mpe-trace stats: ${wrong.map((c) => `${c.name} ${c.count}`).join(', ')}`);
      await page.locator(`${selectors.activityBarItem}[aria-label^="Explorer"]`).first().click();
      await wb.closeAllEditors();
    },
  },
];
