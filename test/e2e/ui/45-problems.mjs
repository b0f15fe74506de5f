// Trace problems in the Problems panel (issue 18): ring_p2p_4's skewed message (sent 0.26399 s,
// received 0.26253 s, rank 0 → rank 2) is listed once the analysis is done, and clicking the
// entry's "receive-before-send" code link selects and frames that arrow in the timeline.
const trace = 'ring_p2p_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

export default [
  {
    name: 'Problems panel lists the skewed message of ring_p2p_4; its link frames the arrow',
    skip: noEditor,
    timeout: 120_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      const root = frame.locator('.timeline');
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Control+Shift+M');
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'received at 0.26253' }).first();
      await row.waitFor({ timeout: 60_000 });
      log(`   problem: ${JSON.stringify((await row.innerText()).replace(/\s+/g, ' ').trim())}`);
      const link = row.locator('.monaco-link', { hasText: 'receive-before-send' }).first();
      await link.click();
      let d = {};
      for (let k = 0; k < 150; k++) {
        d = await root.evaluate((el) => ({ ...el.dataset }));
        if (d.selStart !== undefined && Math.abs(Number(d.selStart) - 0.26253) < 1e-5) break;
        await page.waitForTimeout(100);
      }
      const start = Number(d.selStart);
      const end = Number(d.selEnd);
      log(`   selected [${start}, ${end}] row ${d.selRow}; view [${d.t0}, ${d.t1}]`);
      if (!(Math.abs(start - 0.26253) < 1e-5 && Math.abs(end - 0.26399) < 1e-5))
        throw new Error(`selection [${start}, ${end}] is not the skewed arrow [0.26253, 0.26399]`);
      if (!(Number(d.t0) <= start && end <= Number(d.t1) && Number(d.t1) - Number(d.t0) < 0.01))
        throw new Error(`view [${d.t0}, ${d.t1}] does not frame the arrow`);
      await screenshot('problems');
      await page.keyboard.press('Control+Shift+M');
      await wb.closeAllEditors();
    },
  },
];
