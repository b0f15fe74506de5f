// Range selection → statistics: Ctrl+drag over the first fifth of the timeline selects a range (shaded, not
// zoomed); the Statistics view then shows that range's numbers (Phase no longer counts all 24 of the trace),
// and Esc in the timeline brings the whole-trace numbers back.
import fs from 'node:fs';
import path from 'node:path';
import { readyWebviews, selectors } from '../lib/workbench.mjs';

const trace = 'user_states_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

/** The statistics webview (the one in the side bar) and the trace editor's (the other visible one). */
async function webviews(page, installedDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(installedDir, 'package.json'), 'utf8'));
  const title = pkg.contributes.viewsContainers.activitybar.find((c) => c.id === 'mpeTrace').title;
  await page.locator(`${selectors.activityBarItem}[aria-label^="${title}"]`).first().click();
  const sidebar = await page.locator(selectors.sideBar).boundingBox();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const views = await readyWebviews(page);
    const stats = views.find((w) => w.width > 0 && w.x < sidebar.x + sidebar.width - 10);
    const timeline = views.find((w) => w.width > 0 && w.x >= sidebar.x + sidebar.width - 10);
    if (stats && timeline) return { stats: stats.frame, timeline: timeline.frame };
    await page.waitForTimeout(250);
  }
  throw new Error('no webview appeared in the side bar');
}

async function waitForText(page, view, test, what) {
  let text = '';
  for (let k = 0; k < 120; k++) {
    text = await view
      .locator('body')
      .innerText()
      .catch(() => '');
    if (test(text)) return text;
    await page.waitForTimeout(250);
  }
  throw new Error(`${what}; statistics text: ${JSON.stringify(text.slice(0, 300))}`);
}

export default [
  {
    name: 'a Ctrl+drag range in the timeline changes the Statistics view to that range',
    skip: noEditor,
    timeout: 120_000,
    async run({ page, wb, log, screenshot, installedDir }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      await wb.webview().locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      const { stats, timeline } = await webviews(page, installedDir);
      const whole = /(^|\n)Phase\s+24(\s|$)/;
      await waitForText(page, stats, (t) => whole.test(t), 'the whole-trace Phase count 24 is not shown');
      const overlay = timeline.locator('.plot canvas.overlay');
      const box = await overlay.boundingBox();
      const y = box.y + 30;
      await page.mouse.move(box.x + 5, y);
      await page.keyboard.down('Control');
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.1, y, { steps: 4 });
      await page.mouse.move(box.x + box.width * 0.2, y, { steps: 4 });
      await page.mouse.up();
      await page.keyboard.up('Control');
      const d = await timeline.locator('.timeline').evaluate((el) => ({ ...el.dataset }));
      log(`   range [${d.rangeStart}, ${d.rangeEnd}] in view [${d.t0}, ${d.t1}]`);
      if (d.rangeStart === undefined) throw new Error('no range selected by Ctrl+drag');
      const text = await waitForText(page, stats, (t) => /(^|\n)Phase\s+\d+/.test(t) && !whole.test(t), 'the Statistics view still shows the whole trace');
      log(`   range statistics: ${JSON.stringify(text.match(/(^|\n)(Phase\s+\d+)/)?.[2])}`);
      await screenshot('range-statistics');
      await timeline.locator('.timeline').focus();
      await page.keyboard.press('Escape');
      await waitForText(page, stats, (t) => whole.test(t), 'the whole-trace numbers did not come back after Esc');
      await page.locator(`${selectors.activityBarItem}[aria-label^="Explorer"]`).first().click();
      await wb.closeAllEditors();
    },
  },
];
