// Click-through: a click on a drawn state opens its details popup (info text exactly as the reference
// dump prints it); "Go to source" on a Phase state (SRCLOC user_states.c:80 in the CLOG2 input) opens the
// workspace copy of user_states.c (recorded as a bare file name, found under src/) at line 80.
// Pixel positions come from the timeline root's data attributes (t0, t1, rowHeight, scrollPx).
import { selectors } from '../lib/workbench.mjs';

const trace = 'user_states_4.clog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

/** Shows [t0, t1] through the toolbar and waits for an exact (depth 0), complete frame of it. */
async function showWindow(page, frame, t0, t1) {
  await frame.locator('input[aria-label="window start"]').fill(String(t0));
  await frame.locator('input[aria-label="window end"]').fill(String(t1));
  await frame.locator('form.toolbar button[type="submit"]').click();
  const root = frame.locator('.timeline');
  const deadline = Date.now() + 30_000;
  let last;
  while (Date.now() < deadline) {
    last = await root.evaluate((el) => ({ ...el.dataset }));
    if (Math.abs(Number(last.t1) - t1) < (t1 - t0) * 1e-3 && last.lowestDepth === '0' && last.complete === 'true') return last;
    await page.waitForTimeout(150);
  }
  throw new Error(`window [${t0}, ${t1}] not shown exactly: ${JSON.stringify(last)}`);
}

/** Clicks the plot at time t on `row`, `dy` px below the row's top. */
async function clickAt(frame, geometry, t, row, dy, modifiers = []) {
  const overlay = frame.locator('.plot canvas.overlay');
  const box = await overlay.boundingBox();
  const x = ((t - Number(geometry.t0)) / (Number(geometry.t1) - Number(geometry.t0))) * box.width;
  const y = row * Number(geometry.rowHeight) - Number(geometry.scrollPx) + dy;
  await overlay.click({ position: { x, y }, modifiers });
}

export default [
  {
    name: 'clicking a Compute state shows its info text exactly as the reference dump',
    skip: noEditor,
    timeout: 90_000,
    async run({ page, wb, log }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      // reference dump: Compute on rank 1, TimeBBox(0.02406312200002958, 0.024079576000076486): "iter=0 residual=1.6448340718480652"
      const g = await showWindow(page, frame, 0.02405, 0.02409);
      await clickAt(frame, g, 0.02407, 1, Number(g.rowHeight) / 2);
      const popup = frame.locator('[data-testid="details"]');
      await popup.locator('.details-info').waitFor({ timeout: 15_000 });
      const title = await popup.locator('.details-title').innerText();
      const info = await popup.locator('.details-info').innerText();
      log(`   popup: ${title}: ${JSON.stringify(info)}`);
      if (title !== 'Compute') throw new Error(`popup names ${title}, expected Compute`);
      if (info !== 'iter=0 residual=1.6448340718480652') throw new Error(`info text ${JSON.stringify(info)}`);
      const vertices = await popup.locator('.details-vertices').innerText();
      if (!/\[0\]: time = 0\.024063122/.test(vertices)) throw new Error(`vertices ${JSON.stringify(vertices)}`);
      // Esc clears the selection and the popup
      await page.keyboard.press('Escape');
      await popup.waitFor({ state: 'detached', timeout: 5_000 });
    },
  },
  {
    name: 'Go to source on a Phase state opens user_states.c at line 80 (SRCLOC of the CLOG2 input)',
    skip: noEditor,
    timeout: 90_000,
    async run({ page, wb, log, screenshot }) {
      const frame = wb.webview();
      // reference dump: Phase on rank 0, TimeBBox(5.977900002562819E-5, 0.032010199999945144); its outer band
      // (depth 0): just inside the row's padding (data-row-pad), above the inset box of its child
      const g = await showWindow(page, frame, 0, 0.035);
      await clickAt(frame, g, 0.016, 0, Number(g.rowPad ?? 2) + 2);
      const popup = frame.locator('[data-testid="details"]');
      const button = popup.locator('button.go-to-source').first();
      await button.waitFor({ timeout: 15_000 });
      const title = await popup.locator('.details-title').innerText();
      const line = await button.getAttribute('data-line');
      log(`   popup: ${title}, source button: ${await button.innerText()}`);
      if (title !== 'Phase') throw new Error(`popup names ${title}, expected Phase`);
      if (line !== '80') throw new Error(`source line ${line}, expected 80`);
      await screenshot('popup-source');
      await button.click();
      await page.waitForFunction((sel) => /Ln 80\b/.test(document.querySelector(sel)?.textContent ?? ''), selectors.statusSelection, { timeout: 20_000 });
      const tab = await wb.activeTabName();
      if (tab !== 'user_states.c') throw new Error(`active tab ${tab}, expected user_states.c`);
      await screenshot('source-editor');
      await wb.closeAllEditors();
    },
  },
];
