// "Compare with…" from the Explorer's context menu on a second trace: both runs open side by side
// and the Compare view (MPE Trace container) lists the categories with the one made to differ
// (Compute, 3× longer in compare_b) first. Guarded: needs the command and the view contributed.
import fs from 'node:fs';
import path from 'node:path';
import { selectors } from '../lib/workbench.mjs';

function missingContribution({ viewType, installedDir }) {
  if (!viewType) return 'package.json contributes no customEditor "mpeTrace.timeline" yet';
  const pkg = JSON.parse(fs.readFileSync(path.join(installedDir, 'package.json'), 'utf8'));
  const view = (pkg.contributes?.views?.mpeTrace ?? []).find((v) => v.id === 'mpeTrace.compare');
  if (!view) return 'package.json contributes no "mpeTrace.compare" view yet';
  return undefined;
}

export default [
  {
    name: 'Compare with… on compare_b.clog2 (Explorer menu) opens it beside compare_a.clog2; the Compare view lists Compute first',
    skip: missingContribution,
    timeout: 150_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor('compare_a.clog2');
      // The Explorer's context menu on the second trace (VS Code draws it in a shadow root).
      // (A left click would open compare_b in the editor and make it the trace compared.)
      const row = wb.explorerRow('compare_b.clog2');
      const item = page.locator('.context-view .action-item', { hasText: 'Compare with' }).first();
      for (let attempt = 1; ; attempt++) {
        await row.hover();
        await row.click({ button: 'right' });
        if (
          await item.waitFor({ state: 'visible', timeout: 5_000 }).then(
            () => true,
            () => false,
          )
        )
          break;
        if (attempt === 3) {
          const menu = await page
            .locator('.context-view')
            .innerText()
            .catch(() => '(no context view)');
          throw new Error(`no "Compare with…" in the Explorer's context menu: ${JSON.stringify(menu.slice(0, 400))}`);
        }
        await page.keyboard.press('Escape');
      }
      await item.click();
      // A click while the menu is still being laid out can be lost: then the keyboard picks the item.
      await page.waitForTimeout(1_000);
      if (await item.isVisible().catch(() => false)) {
        await item.hover({ timeout: 2_000 }).then(
          () => page.keyboard.press('Enter'),
          () => undefined,
        );
      }
      // The command reveals the Compare view; wait for its webview in the side bar to show the table.
      const deadline = Date.now() + 90_000;
      let text = '';
      let frameIndex = -1;
      while (Date.now() < deadline) {
        const sidebar = await page
          .locator(selectors.sideBar)
          .boundingBox()
          .catch(() => null);
        const boxes = await page.locator(selectors.webviewReady).evaluateAll((frames) =>
          frames.map((f) => {
            const r = f.getBoundingClientRect();
            return { x: r.x, width: r.width, height: r.height };
          }),
        );
        for (let i = 0; i < boxes.length; i++) {
          if (sidebar === null || !(boxes[i].width > 0 && boxes[i].height > 0 && boxes[i].x < sidebar.x + sidebar.width - 10)) continue;
          const view = page.frameLocator(`${selectors.webviewReady} >> nth=${i}`).frameLocator(selectors.webviewContent);
          const t = await view
            .locator('body')
            .innerText({ timeout: 1000 })
            .catch(() => '');
          if (t.includes('Align B on A')) {
            text = t;
            frameIndex = i;
          }
        }
        if (frameIndex >= 0 && /Category[\s\S]*\nCompute\s/.test(text)) break;
        await page.waitForTimeout(500);
      }
      log(`   compare view text (first 200 chars): ${JSON.stringify(text.slice(0, 200))}`);
      if (frameIndex < 0) throw new Error('no Compare view appeared in the side bar');
      const lines = text.split('\n');
      const firstRow = lines[lines.findIndex((l) => /^Category\b/.test(l)) + 1];
      if (!/^Compute\s/.test(firstRow ?? '')) throw new Error(`the first row of the Compare table is ${JSON.stringify(firstRow)}, not Compute`);
      const tabs = await wb.tabNames();
      if (!tabs.includes('compare_a.clog2') || !tabs.includes('compare_b.clog2')) throw new Error(`tabs open: ${tabs.join(', ')}`);
      await screenshot('compare');
      await page.locator(`${selectors.activityBarItem}[aria-label^="Explorer"]`).first().click();
      await wb.closeAllEditors();
    },
  },
];
