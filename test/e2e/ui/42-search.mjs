// Search over the whole file: "Region" from the start of the trace, Next three times → the 3rd Region state
// by start time (reference dump: TimeBBox(0.032010239999976875, …) on rank 0) is selected and framed, the
// box says "3 of 24" (24 Region states in the facts) and the overview strip marks where the matches are.
const trace = 'user_states_4.slog2';
const noEditor = ({ viewType }) => (viewType ? undefined : 'package.json contributes no customEditor "mpeTrace.timeline" yet');

export default [
  {
    name: 'search "Region": the 3rd match is framed and counted as 3 of 24',
    skip: noEditor,
    timeout: 90_000,
    async run({ page, wb, log, screenshot }) {
      await wb.closeAllEditors();
      await wb.openInCustomEditor(trace);
      const frame = wb.webview();
      const root = frame.locator('.timeline');
      await frame.locator('.timeline[data-t0]').waitFor({ timeout: 60_000 });
      await frame.locator('button.search-toggle').click();
      await frame.locator('input.search-text').fill('Region');
      const status = frame.locator('.search-status');
      for (let i = 1; i <= 3; i++) {
        await frame.locator('button.search-next').click();
        await page.waitForFunction(() => true);
        let text = '';
        for (let k = 0; k < 100 && !new RegExp(`^${i} of `).test(text); k++) {
          text = (await status.innerText()).trim();
          if (!new RegExp(`^${i} of `).test(text)) await page.waitForTimeout(100);
        }
        log(`   next #${i}: ${text}`);
        if (!new RegExp(`^${i} of `).test(text)) throw new Error(`after ${i} × Next the search says ${JSON.stringify(text)}`);
      }
      let text = '';
      for (let k = 0; k < 100 && text !== '3 of 24'; k++) {
        text = (await status.innerText()).trim();
        if (text !== '3 of 24') await page.waitForTimeout(100);
      }
      if (text !== '3 of 24') throw new Error(`status ${JSON.stringify(text)}, expected "3 of 24"`);
      const d = await root.evaluate((el) => ({ ...el.dataset }));
      const start = Number(d.selStart);
      const end = Number(d.selEnd);
      log(`   selected [${start}, ${end}] row ${d.selRow}; view [${d.t0}, ${d.t1}]`);
      if (Math.abs(start - 0.032010239999976875) > 1e-9 || d.selRow !== '0')
        throw new Error(`3rd match at ${start} on row ${d.selRow}, expected 0.0320102399999769 on row 0`);
      if (!(Number(d.t0) <= start && end <= Number(d.t1))) throw new Error('the match is not inside the view');
      if (!(Number(d.t1) - Number(d.t0) < (end - start) * 2)) throw new Error('the view is not framed on the match');
      await screenshot('search');
      await wb.closeAllEditors();
    },
  },
];
