// Bookmarks: "Bookmark" on the toolbar asks for a name (and a note) and stores the current window in the
// sidecar user_states_4.slog2.mpetrace.json next to the trace; after closing and reopening the editor,
// "Bookmarks…" lists it and choosing it shows that window again.
import fs from 'node:fs';
import path from 'node:path';
import { selectors } from '../lib/workbench.mjs';

const trace = 'user_states_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');
const NAME = 'e2e window 10-20 ms';

async function waitForWindow(page, frame, t0, t1) {
  let d;
  for (let k = 0; k < 150; k++) {
    d = await frame.locator('.timeline').evaluate((el) => ({ ...el.dataset }));
    if (Math.abs(Number(d.t0) - t0) < 1e-6 && Math.abs(Number(d.t1) - t1) < 1e-6) return d;
    await page.waitForTimeout(100);
  }
  throw new Error(`window [${t0}, ${t1}] not shown: [${d?.t0}, ${d?.t1}]`);
}

export default [
  {
    name: 'a bookmark survives closing and reopening the editor (sidecar .mpetrace.json)',
    skip: noEditor,
    timeout: 120_000,
    async run({ page, wb, log, workspace }) {
      const sidecar = path.join(workspace, `${trace}.mpetrace.json`);
      fs.rmSync(sidecar, { force: true });
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      let frame = wb.webview();
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      await frame.locator('input[aria-label="window start"]').fill('0.01');
      await frame.locator('input[aria-label="window end"]').fill('0.02');
      await frame.locator('form.toolbar button[type="submit"]').click();
      await waitForWindow(page, frame, 0.01, 0.02);
      await page.waitForTimeout(600); // the view state reaches the host after 250 ms
      await frame.locator('button.bookmark-add').click();
      const input = page.locator(selectors.quickInput);
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(NAME);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      await input.fill('made by the e2e test');
      await page.keyboard.press('Enter');
      let text = '';
      for (let k = 0; k < 100 && !text.includes(NAME); k++) {
        text = fs.existsSync(sidecar) ? fs.readFileSync(sidecar, 'utf8') : '';
        if (!text.includes(NAME)) await page.waitForTimeout(100);
      }
      if (!text.includes(NAME)) throw new Error(`the sidecar ${sidecar} has no bookmark "${NAME}": ${JSON.stringify(text.slice(0, 300))}`);
      const saved = JSON.parse(text);
      log(`   sidecar: ${JSON.stringify(saved).slice(0, 200)}`);
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      frame = wb.webview();
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      await frame.locator('button.bookmark-go').click();
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(NAME);
      await page.waitForTimeout(300);
      await page.keyboard.press('Enter');
      await waitForWindow(page, frame, 0.01, 0.02);
      await wb.closeAllEditors();
    },
  },
];
