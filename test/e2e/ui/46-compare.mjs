// "Compare with…" from the Explorer's context menu on a second trace: both runs open side by side
// and the Compare view (MPE Trace container) lists the categories with the one made to differ
// (Compute, 3× longer in compare_b) first; the pointer over A draws the shared cursor in B.
// Guarded: needs the command and the view contributed.
import fs from 'node:fs';
import path from 'node:path';
import { readyWebviews, selectors } from '../lib/workbench.mjs';

function missingContribution({ viewType, installedDir }) {
  if (!viewType) return 'package.json contributes no customEditor "mpeTrace.timeline" yet';
  const pkg = JSON.parse(fs.readFileSync(path.join(installedDir, 'package.json'), 'utf8'));
  const view = (pkg.contributes?.views?.mpeTrace ?? []).find((v) => v.id === 'mpeTrace.compare');
  if (!view) return 'package.json contributes no "mpeTrace.compare" view yet';
  return undefined;
}

/** The two timeline webviews in the editor area, left to right (A opened first, B beside it). */
async function editorFrames(page) {
  const area = await page.locator(selectors.editorPart).first().boundingBox();
  return (await readyWebviews(page))
    .filter((w) => area && w.width > 0 && w.height > 0 && w.x >= area.x - 1 && w.x + w.width <= area.x + area.width + 1)
    .sort((p, q) => p.x - q.x)
    .map((w) => w.frame);
}

/**
 * The shared cursor: the pointer over A's timeline draws a dashed cursor line in B at the same
 * fraction of the plot (the windows are synchronised, so the same time after the shift), and the
 * line's pixels differ from what B showed without it; leaving A removes it.
 */
async function checkSharedCursor(page, log, screenshot) {
  const frames = await editorFrames(page);
  if (frames.length !== 2) throw new Error(`expected 2 timeline editors side by side, found ${frames.length}`);
  const [a, b] = frames;
  const overlayA = a.locator('.plot canvas.overlay');
  const overlayB = b.locator('.plot canvas.overlay');
  const boxA = await overlayA.boundingBox();
  const boxB = await overlayB.boundingBox();
  if (!boxA || !boxB) throw new Error('no timeline plot in one of the two editors');
  const fraction = 0.37;
  const column = (x) =>
    overlayB.evaluate((c, x) => {
      const g = c.getContext('2d');
      const scale = c.width / c.clientWidth;
      const px = g.getImageData(Math.round(x * scale), 0, 1, c.height).data;
      let inked = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i] > 0) inked++;
      return inked;
    }, x);
  await page.mouse.move(boxA.x + boxA.width * fraction, boxA.y + boxA.height * 0.5);
  let peerX;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    peerX = await b.locator('.timeline').evaluate((el) => el.dataset.peerCursorX);
    if (peerX !== undefined) break;
    await page.mouse.move(boxA.x + boxA.width * fraction + 1, boxA.y + boxA.height * 0.5);
    await page.waitForTimeout(200);
  }
  if (peerX === undefined) throw new Error("the pointer over A's timeline drew no cursor in B");
  const want = boxB.width * fraction;
  log(`   shared cursor: A at ${(boxA.width * fraction).toFixed(1)} px of ${boxA.width.toFixed(0)}; B draws it at ${peerX} px of ${boxB.width.toFixed(0)}`);
  if (Math.abs(Number(peerX) - want) > 3) throw new Error(`B's cursor at ${peerX} px, expected about ${want.toFixed(1)} px (same fraction of the window)`);
  const inked = await column(Number(peerX));
  if (inked < boxB.height * 0.3) throw new Error(`B's overlay has only ${inked} inked pixels in the cursor's column`);
  await screenshot('compare-shared-cursor');
  // Leaving A's plot removes B's cursor.
  await page.mouse.move(boxA.x + boxA.width * 0.5, boxA.y - 60);
  const gone = Date.now() + 10_000;
  while ((await b.locator('.timeline').evaluate((el) => el.dataset.peerCursorX)) !== undefined) {
    if (Date.now() > gone) throw new Error("B's cursor stayed after the pointer left A's timeline");
    await page.waitForTimeout(200);
  }
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
      const pickCompareWith = async () => {
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
        // A click while the menu is still being laid out can be lost, or wait on a menu that closed
        // (30 s under load, seen once in a newcomer run): then the keyboard picks the item.
        await item.click({ timeout: 5_000 }).catch(() => undefined);
        await page.waitForTimeout(1_000);
        if (await item.isVisible().catch(() => false)) {
          await item.hover({ timeout: 2_000 }).then(
            () => page.keyboard.press('Enter'),
            () => undefined,
          );
        }
      };
      await pickCompareWith();
      // The menu can also close without running the command (a lost click under load, seen in a
      // newcomer run): with no Compare view after 20 s, the pick is made again (at most twice).
      let picks = 1;
      let pickedAt = Date.now();
      // The command reveals the Compare view; wait for its webview in the side bar to show the table.
      const deadline = Date.now() + 90_000;
      let text = '';
      let found = false;
      while (Date.now() < deadline) {
        const sidebar = await page
          .locator(selectors.sideBar)
          .boundingBox()
          .catch(() => null);
        for (const w of await readyWebviews(page)) {
          if (sidebar === null || !(w.width > 0 && w.height > 0 && w.x < sidebar.x + sidebar.width - 10)) continue;
          const t = await w.frame
            .locator('body')
            .innerText({ timeout: 1000 })
            .catch(() => '');
          if (t.includes('Align B on A')) {
            text = t;
            found = true;
          }
        }
        if (found && /Category[\s\S]*\nCompute\s/.test(text)) break;
        if (!found && picks < 3 && Date.now() - pickedAt > 20_000) {
          log(`   no Compare view 20 s after pick ${picks}: picking "Compare with…" again`);
          await page.keyboard.press('Escape');
          await pickCompareWith();
          picks++;
          pickedAt = Date.now();
        }
        await page.waitForTimeout(500);
      }
      log(`   compare view text (first 200 chars): ${JSON.stringify(text.slice(0, 200))}`);
      if (!found) throw new Error('no Compare view appeared in the side bar');
      const lines = text.split('\n');
      const firstRow = lines[lines.findIndex((l) => /^Category\b/.test(l)) + 1];
      if (!/^Compute\s/.test(firstRow ?? '')) throw new Error(`the first row of the Compare table is ${JSON.stringify(firstRow)}, not Compute`);
      const tabs = await wb.tabNames();
      if (!tabs.includes('compare_a.clog2') || !tabs.includes('compare_b.clog2')) throw new Error(`tabs open: ${tabs.join(', ')}`);
      await screenshot('compare');
      await checkSharedCursor(page, log, screenshot);
      await page.locator(`${selectors.activityBarItem}[aria-label^="Explorer"]`).first().click();
      await wb.closeAllEditors();
    },
  },
];
