// On a LIGHT theme (where low-contrast colours used to be darkened), typing a window in units into the
// from/to fields shows it, the first MPI_Barrier of rank 1 in user_states_4 is drawn in its exact RGB
// (255,255,0 — its legend swatch), and clicking it opens the details popup below the cursor's time label.
// The theme goes back afterwards.
import { selectors } from '../lib/workbench.mjs';

const trace = 'user_states_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');
// From the reference dump: 0.024080227 .. 0.100010583 s on line ID 1 (row 1 of the Process View).
const BARRIER = { start: 0.024080227, end: 0.100010583, row: 1 };

async function toggleTheme(page) {
  await page.keyboard.press('F1');
  const input = page.locator(selectors.quickInput);
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill('>Toggle between Light/Dark Themes');
  await page.waitForTimeout(400);
  await page.keyboard.press('Enter');
}

const bodyClass = (frame) => frame.locator('body').evaluate((b) => b.className);

export default [
  {
    name: 'light theme: from/to in units, MPI_Barrier drawn in its exact RGB, popup below the time label',
    skip: noEditor,
    timeout: 120_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      const wasLight = /vscode-light/.test(await bodyClass(frame));
      if (!wasLight) await toggleTheme(page);
      let light = false;
      for (let i = 0; i < 40 && !light; i++) {
        light = /vscode-light/.test(await bodyClass(frame));
        if (!light) await page.waitForTimeout(250);
      }
      if (!light) throw new Error(`the webview did not switch to a light theme: ${await bodyClass(frame)}`);
      try {
        const from = frame.locator('input[aria-label="window start"]');
        const to = frame.locator('input[aria-label="window end"]');
        const shown = await from.inputValue();
        if (!/^\d+\.\d{2,} µs$/.test(shown)) throw new Error(`the from field shows ${JSON.stringify(shown)} for the trace start (52.31 µs)`);
        await from.fill('20 ms');
        await to.fill('110000 us');
        await frame.locator('form.toolbar button[type="submit"]').click();
        const timeline = frame.locator('.timeline');
        let g;
        for (let i = 0; i < 120; i++) {
          g = await timeline.evaluate((el) => ({ ...el.dataset }));
          if (Math.abs(Number(g.t0) - 0.02) < 1e-9 && Math.abs(Number(g.t1) - 0.11) < 1e-9 && g.complete === 'true') break;
          await page.waitForTimeout(250);
        }
        if (Math.abs(Number(g.t0) - 0.02) > 1e-9) throw new Error(`typed window 20 ms .. 110000 us gave ${g.t0} .. ${g.t1}`);
        if ((await from.inputValue()) !== '20.00 ms') throw new Error(`the from field shows ${await from.inputValue()}`);
        const plot = await frame.locator('.plot').boundingBox();
        const x = (((BARRIER.start + BARRIER.end) / 2 - Number(g.t0)) / (Number(g.t1) - Number(g.t0))) * plot.width;
        const y = BARRIER.row * Number(g.rowHeight) - Number(g.scrollPx) + Number(g.rowHeight) / 2;
        const rgba = await frame.locator('.plot canvas.data').evaluate(
          (c, [px, py]) => {
            const k = c.width / c.getBoundingClientRect().width;
            return [...c.getContext('2d').getImageData(Math.round(px * k), Math.round(py * k), 1, 1).data];
          },
          [x, y],
        );
        log(`   MPI_Barrier centre (${x.toFixed(0)}, ${y.toFixed(0)}): rgba ${rgba.join(',')}`);
        if (rgba.join(',') !== '255,255,0,255') throw new Error(`MPI_Barrier centre drawn as ${rgba.join(',')}, not its 255,255,0`);
        await page.mouse.click(plot.x + x, plot.y + y);
        const popup = frame.locator('[data-testid="details"]');
        await popup.waitFor({ timeout: 10_000 });
        await page.mouse.move(plot.x + x, plot.y + y);
        const box = await popup.boundingBox();
        if (box.y < plot.y + 18) throw new Error(`the popup's top is ${box.y - plot.y} px into the plot: it covers the cursor's time label`);
        await page.keyboard.press('Escape');
      } finally {
        if (!wasLight) await toggleTheme(page);
        await wb.closeAllEditors();
      }
    },
  },
];
