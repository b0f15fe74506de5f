// The workbench opens the test workspace with our installed extension, and VS Code's own state (active tab,
// line/column) can be read: what the click-to-source checks of the trace editor build on.
//
// A UI step file exports a list of { name, run(ctx), skip?(ctx) -> reason|undefined, critical?, timeout? }.
// Steps run in file order in ONE page, so state carries over; see test/e2e/README.md.
import { selectors } from '../lib/workbench.mjs';

export default [
  {
    name: 'workbench loads the test workspace',
    critical: true,
    async run({ page, url, timings }) {
      const started = Date.now();
      await page.goto(url);
      await page.waitForSelector(selectors.workbench, { timeout: 60_000 });
      await page.locator(selectors.explorerRow).first().waitFor({ timeout: 60_000 });
      timings.workbenchMs = Date.now() - started;
    },
  },
  {
    name: 'Explorer lists the trace files',
    async run({ wb }) {
      for (const name of ['user_states_4.clog2', 'user_states_4.slog2', 'ring_p2p_4.slog2', 'pi_bcast_4.slog2', 'pi_bcast_4.slog2.gz']) {
        await wb.explorerRow(name).waitFor({ timeout: 20_000 });
      }
    },
  },
  {
    name: 'src/user_states.c opens in the text editor and Go to Line moves to Ln 60',
    async run({ page, wb, screenshot }) {
      await wb.explorerRow('src').click();
      await wb.explorerRow('user_states.c').click();
      await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-resource-name') === 'user_states.c', selectors.activeTab, {
        timeout: 30_000,
      });
      await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
      await page.keyboard.press('Control+G');
      await page.keyboard.type('60');
      await page.keyboard.press('Enter');
      await page.waitForFunction((sel) => /Ln 60, Col 1/.test(document.querySelector(sel)?.textContent ?? ''), selectors.statusSelection, { timeout: 15_000 });
      await screenshot('source-editor');
      await wb.closeAllEditors();
    },
  },
];
